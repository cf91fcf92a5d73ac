// Forms for the ISA decoder's corpus test that clang rarely emits: s_set_vgpr_msb banking
// (llvm-objdump-22 tracks it and prints /*vNNN*/; llvm-mc cannot write v256+ itself), DPP16,
// DPP8, VOPD/VOPD3 with literals, 64-bit literals.  Assembled at test time.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
	.globl forms
	.p2align 8
	.type forms,@function
forms:
	s_set_vgpr_msb 0xe4
	ds_load_b32 v2, v1 offset:4
	ds_store_b32 v1, v2 offset:4
	ds_store_2addr_b32 v1, v2, v3 offset0:1 offset1:2
	ds_cmpstore_rtn_b32 v0, v1, v2, v3
	global_load_b32 v1, v[2:3], off
	global_store_b32 v[2:3], v1, off
	global_atomic_cmpswap_b32 v0, v[2:3], v[4:5], off th:TH_ATOMIC_RETURN
	scratch_store_b32 v2, v1, off
	v_fma_f32 v1, v2, v3, v4
	v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5
	v_readlane_b32 s0, v1, 2
	v_writelane_b32 v1, s0, 2
	v_cmp_eq_u32_e32 vcc_lo, v1, v2
	v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
	s_set_vgpr_msb 0xe439
	ds_load_b32 v2, v1 offset:4
	ds_store_2addr_b32 v1, v2, v3 offset0:1 offset1:2
	global_load_b32 v1, v[2:3], off
	global_store_b32 v[2:3], v1, off
	v_fma_f32 v1, v2, v3, v4
	v_add_f32 v1, v2, v3
	v_dual_add_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5
	v_dual_fma_f32 v0, v1, v2, v3 :: v_dual_mov_b32 v6, v7
	s_set_vgpr_msb 0x3939
	v_mov_b32_dpp v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
	v_add_f32_dpp v1, v2, v3 row_shr:1 row_mask:0x3 bank_mask:0xf
	v_add_f32_e64_dpp v1, v2, v3 row_shr:1 row_mask:0x3 bank_mask:0xf
	v_mov_b32_dpp v1, v2 dpp8:[1,0,3,2,5,4,7,6]
	v_add_f32_e64_dpp v1, v2, v3 dpp8:[1,0,3,2,5,4,7,6]
	v_cmp_eq_u32_dpp vcc_lo, v1, v2 row_shr:1 row_mask:0xf bank_mask:0xf
	v_dual_mul_f32 v5, 0x3faaaaab, v5 :: v_dual_add_f32 v2, v2, v3
	v_dual_fmaak_f32 v0, v1, v2, 0x40000000 :: v_dual_mov_b32 v3, v4
	v_dual_mov_b32 v0, v1 :: v_dual_cndmask_b32 v6, v7, v8, s4
	v_dual_add_f64 v[0:1], v[2:3], v[4:5] :: v_dual_mov_b32 v6, v9
	s_mov_b64 s[4:5], 0x123456789
	v_mov_b64_e32 v[0:1], 0x123456789
	v_add_f64_e32 v[0:1], 0x123456789, v[2:3]
	v_fmamk_f64 v[0:1], v[2:3], 0x4000000012300000, v[4:5]
	v_fma_f32 v0, 0x1234, v2, 0x1234
	v_cndmask_b32_e64 v0, -v1, |v2|, s3
	v_add_f32_e64 v0, v1, v2 clamp mul:2
	v_pk_fma_f16 v0, v1, v2, v3 op_sel:[1,0,0] op_sel_hi:[0,1,1]
	v_add_co_ci_u32_e64 v1, s4, v2, v3, s5
	v_mad_co_u64_u32 v[0:1], s2, v3, v4, v[6:7]
	buffer_load_b32 v2, v1, s[8:11], s12 offen
	buffer_store_b32 v2, off, s[8:11], s12 offset:8
	buffer_atomic_cmpswap_b32 v[6:7], v1, s[8:11], s12 offen th:TH_ATOMIC_RETURN
	global_load_b32 v1, v2, s[4:5] offset:-16
	scratch_load_b32 v1, off, s4 offset:8
	flat_load_b32 v1, v[2:3]
	s_load_b32 s4, s[2:3], s5 offset:0x10
	// MSB slots of the less regular forms (K in the middle takes src2's bits, VBUFFER vdata dst's)
	v_fmamk_f32 v1, v2, 0x40400000, v3
	v_fmaak_f32 v1, v2, v3, 0x40400000
	v_fmamk_f64 v[0:1], v[2:3], 0x4000000012300000, v[4:5]
	v_fmaak_f64 v[0:1], v[2:3], v[4:5], 0x4000000012300000
	v_dual_fmamk_f32 v0, v1, 0x40000000, v2 :: v_dual_mov_b32 v3, v4
	v_dual_mov_b32 v0, v1 :: v_dual_fmaak_f32 v3, v4, v5, 0x40000000
	v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmac_f32 v3, v4, v5
	v_fmac_f32 v1, v2, v3
	v_cndmask_b32 v1, v2, v3, vcc_lo
	v_dual_cndmask_b32 v0, v1, v2 :: v_dual_mov_b32 v3, v4
	v_dual_fma_f32 v0, v1, v2, v3 :: v_dual_mov_b32 v6, v7
	v_dual_mov_b32 v0, v1 :: v_dual_fma_f32 v6, v7, v8, v9
	// After a terminator the next block starts with the state zero (LLVM's convention).
	s_branch 0
	v_fma_f32 v1, v2, v3, v4
	s_set_vgpr_msb 0x39
	buffer_load_b32 v2, v1, s[8:11], s12 offen
	buffer_store_b32 v2, v1, s[8:11], s12 offen
	global_load_async_to_lds_b32 v8, v[2:3], off offset:16
	global_store_async_from_lds_b32 v[2:3], v8, off offset:16
	ds_load_addtid_b32 v6 offset:16
	ds_store_addtid_b32 v2 offset:16
	ds_append v6
	v_readfirstlane_b32 s4, v2
	v_writelane_b32 v1, s4, s8
	v_permlane16_b32 v1, v4, s8, s12
	v_pk_fma_f16 v0, v1, v2, v3
	v_add_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo
	v_mov_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
	v_add_f32_dpp v1, v2, v3 row_shr:1 row_mask:0x3 bank_mask:0xf
	v_add_f32_e64_dpp v1, v2, v3 row_shr:1 row_mask:0x3 bank_mask:0xf
	scratch_load_b32 v1, v2, off offset:8
	scratch_store_b32 v2, v1, off
	flat_load_b32 v1, v[2:3]
	global_load_addtid_b32 v6, s[2:3] offset:16
	s_endpgm
.Lforms_end:
	.size forms, .Lforms_end-forms

// A new function starts with the MSB state reset (llvm-objdump-22 and isa_dump both reset it
// at each function symbol): forms left bank 0x39 set.
	.globl forms_next
	.p2align 8
	.type forms_next,@function
forms_next:
	v_fma_f32 v1, v2, v3, v4
	s_endpgm
.Lforms_next_end:
	.size forms_next, .Lforms_next_end-forms_next
