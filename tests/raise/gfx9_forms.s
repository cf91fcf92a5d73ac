// The GFX9 forms the wave64 raiser models that clang-22 rarely emits for the kernel suite: SDWA
// dst_sel with UNUSED_PRESERVE and UNUSED_SEXT, v_cmpx_e32 writing EXEC and VCC, carries into
// SGPR pairs (v_add_co_u32 / v_addc_co_u32 e64), s_cbranch_vccz on a 64-bit VCC, v_cndmask_b32
// with an SGPR-pair mask; one 64-lane wave, ten results per lane (gfx9_forms_expect.py).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
kernel forms vgprs=16 sgprs=16 args=1 workgroup=64
	.amdhsa_kernarg_size 8
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_waitcnt lgkmcnt(0)
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v10, 2, v0
	v_mov_b32_e32 v11, 0
	v_lshl_add_u64 v[12:13], s[2:3], 0, v[10:11]
	v_add_u32_e32 v1, 0x11112222, v0
	v_mul_u32_u24_e32 v2, 0x53, v0
	v_mov_b32_sdwa v1, v2 dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_0
	v_add_u32_sdwa v3, v1, v2 dst_sel:BYTE_1 dst_unused:UNUSED_SEXT src0_sel:WORD_0 src1_sel:BYTE_0
	v_mov_b32_e32 v4, 7
	s_mov_b64 s[4:5], exec
	v_cmpx_gt_u32_e32 vcc, 40, v0
	v_cndmask_b32_e64 v4, 0, 1, vcc
	s_mov_b64 s[6:7], vcc
	s_mov_b64 exec, s[4:5]
	v_mov_b32_e32 v5, s6
	v_mov_b32_e32 v6, s7
	v_add_co_u32_e64 v7, s[8:9], v0, -1
	v_addc_co_u32_e64 v8, s[10:11], 0, 0, s[8:9]
	v_mov_b32_e32 v9, s9
	v_mov_b32_e32 v14, 5
	s_mov_b64 vcc, 0
	s_cbranch_vccz .Lskip
	v_mov_b32_e32 v14, 1
.Lskip:
	v_cmp_lt_u32_e64 s[12:13], v0, 33
	v_cndmask_b32_e64 v15, 17, -16, s[12:13]
	global_store_dword v[12:13], v1, off
	global_store_dword v[12:13], v3, off offset:256
	global_store_dword v[12:13], v4, off offset:512
	global_store_dword v[12:13], v5, off offset:768
	global_store_dword v[12:13], v6, off offset:1024
	global_store_dword v[12:13], v7, off offset:1280
	global_store_dword v[12:13], v8, off offset:1536
	global_store_dword v[12:13], v9, off offset:1792
	global_store_dword v[12:13], v14, off offset:2048
	global_store_dword v[12:13], v15, off offset:2304
	s_endpgm
