// What the round trip (tests/integration/translate_roundtrip.sh) found wrong in the wave64
// raiser: v_bfe_u32 keeping the bits above the field (v_bfe_i32 beside it, which was right),
// ds_bpermute_b32 addressing the other 32-lane half, ds_swizzle_b32's bit-mask mode in the
// upper 32-lane group; and, found right while bisecting, v_lshrrev_b64 of an SGPR pair and
// v_lshl_add_u64 adding -1; what the -O0 round trip found: v_cndmask_b32_e64's abs and neg
// source modifiers (clang's fabs at -O0), memory data in AGPRs (gfx942 spills VGPRs to
// AGPRs: the acc bit); what the translated corpus found: v_pk_mov_b32 and its op_sel,
// s_lshl2_add_u32, the signed and the ordering s_cmpk_*, global_store_byte_d16_hi; what the
// vector builtins' round trip found: a 16-bit op under SDWA with dst_sel:DWORD writes its
// whole result, whose high half GFX9 zeroes for the ops LLVM lists
// (GCNSubtarget::zeroesHigh16BitsOfDest; LLVM selects v_max_i16_sdwa for a zero-extended
// 16-bit max), and dst_sel:WORD_1 with UNUSED_PRESERVE keeps the low half; what the scalar
// builtins' round trip found: v_mad_i64_i32 (mul_hi(long)) with its signed carry-out in an SGPR
// pair overwritten unread, the 64-bit sum of a negative product and a negative addend; what
// the -O0 builtins' round trip found: v_swap_b32 (LLVM's -O0 64-bit moves), in the lanes
// EXEC has, and of a register with itself; one 64-lane wave, twenty-five results per lane
// (gfx9_fields_expect.py).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
kernel k vgprs=28 sgprs=8 args=1
	.amdhsa_kernarg_size 8
	.amdhsa_accum_offset 24
	.agpr_count: 4
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_mov_b32 m0, -1
	s_waitcnt lgkmcnt(0)
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v10, 2, v0
	v_mov_b32_e32 v11, 0
	v_lshl_add_u64 v[12:13], s[2:3], 0, v[10:11]
	v_mov_b32_e32 v1, 0x9abcdef1
	v_and_b32_e32 v2, 15, v0
	v_lshrrev_b32_e32 v3, 2, v0
	v_bfe_u32 v4, v1, v2, v3
	v_bfe_i32 v5, v1, v2, v3
	v_add_u32_e32 v6, 100, v0
	v_sub_u32_e32 v7, 63, v0
	v_lshlrev_b32_e32 v7, 2, v7
	ds_bpermute_b32 v8, v7, v6
	ds_swizzle_b32 v9, v6 offset:swizzle(BITMASK_PERM, "pppip")
	s_mov_b32 s4, 0x80000001
	s_mov_b32 s5, 0x40000003
	v_lshrrev_b64 v[2:3], v0, s[4:5]
	v_mov_b32_e32 v14, v0
	v_mov_b32_e32 v15, 0
	v_lshl_add_u64 v[14:15], v[14:15], 0, -1
	s_waitcnt lgkmcnt(0)
	global_store_dword v[12:13], v4, off
	global_store_dword v[12:13], v5, off offset:256
	global_store_dword v[12:13], v8, off offset:512
	global_store_dword v[12:13], v9, off offset:768
	global_store_dword v[12:13], v2, off offset:1024
	global_store_dword v[12:13], v3, off offset:1280
	global_store_dword v[12:13], v14, off offset:1536
	global_store_dword v[12:13], v15, off offset:1792
	v_mov_b32_e32 v16, 0xc0400000
	v_cmp_gt_u32_e64 s[6:7], 32, v0
	v_cndmask_b32_e64 v17, v16, |v16|, s[6:7]
	v_cndmask_b32_e64 v18, -v16, v6, s[6:7]
	global_store_dword v[12:13], v17, off offset:2048
	global_store_dword v[12:13], v18, off offset:2304
	v_accvgpr_write_b32 a0, v6
	global_store_dword v[12:13], a0, off offset:2560
	s_waitcnt vmcnt(0)
	global_load_dword a1, v[12:13], off
	s_waitcnt vmcnt(0)
	v_accvgpr_read_b32 v19, a1
	global_store_dword v[12:13], v19, off offset:2816
	v_mov_b32_e32 v20, v6
	v_mov_b32_e32 v21, 0x5555
	v_mov_b32_e32 v22, 0x7777
	v_mov_b32_e32 v23, v0
	v_pk_mov_b32 v[16:17], v[20:21], v[22:23] op_sel:[1,0]
	v_pk_mov_b32 v[18:19], v[20:21], v[22:23] op_sel:[0,1]
	global_store_dword v[12:13], v16, off offset:3072
	global_store_dword v[12:13], v17, off offset:3328
	global_store_dword v[12:13], v18, off offset:3584
	global_store_dword v[12:13], v19, off offset:3840
	s_mov_b32 s6, 3
	s_mov_b32 s7, 5
	s_lshl2_add_u32 s6, s6, s7
	v_mov_b32_e32 v16, s6
	s_mov_b32 s4, 0x1000
	s_mov_b32 s5, 0
	v_lshl_add_u64 v[14:15], v[12:13], 0, s[4:5]
	global_store_dword v[14:15], v16, off
	s_mov_b32 s6, -5
	s_cmpk_lt_i32 s6, 0xfffe
	s_cselect_b32 s7, 1, 0
	s_cmpk_gt_i32 s6, 3
	s_cselect_b32 s4, 2, 0
	s_or_b32 s7, s7, s4
	s_cmpk_ge_u32 s6, 0x400
	s_cselect_b32 s4, 4, 0
	s_or_b32 s7, s7, s4
	s_cmpk_le_u32 s6, 0x400
	s_cselect_b32 s4, 8, 0
	s_or_b32 s7, s7, s4
	v_mov_b32_e32 v16, s7
	global_store_dword v[14:15], v16, off offset:256
	v_mov_b32_e32 v17, 0xab1234
	global_store_byte_d16_hi v[14:15], v17, off offset:512
	v_mul_u32_u24_e32 v18, 5, v0
	v_subrev_u32_e32 v18, 100, v18
	v_mov_b32_e32 v17, 0xdead0000
	v_mov_b32_e32 v19, 0
	v_max_i16_sdwa v17, sext(v18), v19 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:BYTE_0 src1_sel:DWORD
	global_store_dword v[14:15], v17, off offset:768
	v_mov_b32_e32 v20, 0x12345678
	v_mov_b32_e32 v21, 0x10001
	v_add_u16_sdwa v20, v18, v21 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:WORD_0 src1_sel:DWORD
	global_store_dword v[14:15], v20, off offset:1024
	v_mov_b32_e32 v19, 0x9abcdef1
	v_mov_b32_e32 v22, 7
	v_mov_b32_e32 v23, 0x80000000
	v_mad_i64_i32 v[22:23], s[4:5], v18, v19, v[22:23]
	v_cmp_ne_u32_e64 s[4:5], 0, v0
	global_store_dword v[14:15], v22, off offset:1280
	global_store_dword v[14:15], v23, off offset:1536
	v_add_u32_e32 v24, 1000, v0
	v_add_u32_e32 v25, 2000, v0
	s_mov_b32 s4, 0xffff0000
	s_mov_b32 s5, 0xffff
	s_mov_b64 s[6:7], exec
	s_mov_b64 exec, s[4:5]
	v_swap_b32 v24, v25
	v_swap_b32 v26, v26
	s_mov_b64 exec, s[6:7]
	global_store_dword v[14:15], v24, off offset:1792
	global_store_dword v[14:15], v25, off offset:2048
	s_endpgm
