// gfx12's float three-operand min/max forms, one wave of 32: lane t reads a, b, c (f32) and A, B,
// C (two f16 halves each) from in[6t..6t+5].  minmax3_num stores eleven dwords to out[11t..]:
// min3, max3, minmax, maxmin of (a, b, c), min3(-a, |b|, -|c|), max3(a, b, c) clamp; the f16
// min3, max3, minmax and maxmin of the low halves into the low half and of the high halves
// (op_sel) into the high half; maxmin(-A.hi, |B.lo|, C.hi) clamp into the low half of a zero.
// med3_num stores four dwords to out[4t..]: med3(a, b, c), med3(-a, b, |c|) clamp, the f16
// med3 of the low halves and of the high halves as above, and med3(A.lo, -B.hi, C.hi) into the
// high half of a zero.  med3_num_half runs med3(a, b, c) in lanes 0 to 15 only (v_cmpx).
// chain_num stores min(min(a, b), c) and max(max(a, b), c) of two-operand v_{min,max}_num_f32
// to out[2t..] (which LLVM joins into gfx9's v_min3_f32 / v_max3_f32 in a translation).
// tests/raise/minmax3_num_expect.py computes the bytes (tests/integration/emulate_minmax3_num.sh).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel minmax3_num vgprs=24 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3 // denormals kept, as the inputs need
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_mul_u32_u24 v1, 24, v0
	v_mul_u32_u24 v9, 44, v0
	s_wait_kmcnt 0
	global_load_b96 v[2:4], v1, s[4:5]
	global_load_b96 v[6:8], v1, s[4:5] offset:12
	s_wait_loadcnt 0
	v_min3_num_f32 v10, v2, v3, v4
	v_max3_num_f32 v11, v2, v3, v4
	v_minmax_num_f32 v12, v2, v3, v4
	v_maxmin_num_f32 v13, v2, v3, v4
	v_min3_num_f32 v14, -v2, |v3|, -|v4|
	v_max3_num_f32 v15, v2, v3, v4 clamp
	v_min3_num_f16 v16, v6, v7, v8
	v_min3_num_f16 v16, v6, v7, v8 op_sel:[1,1,1,1]
	v_max3_num_f16 v17, v6, v7, v8
	v_max3_num_f16 v17, v6, v7, v8 op_sel:[1,1,1,1]
	v_minmax_num_f16 v18, v6, v7, v8
	v_minmax_num_f16 v18, v6, v7, v8 op_sel:[1,1,1,1]
	v_maxmin_num_f16 v19, v6, v7, v8
	v_maxmin_num_f16 v19, v6, v7, v8 op_sel:[1,1,1,1]
	v_mov_b32 v20, 0
	v_maxmin_num_f16 v20, -v6, |v7|, v8 op_sel:[1,0,1,0] clamp
	global_store_b128 v9, v[10:13], s[6:7]
	global_store_b128 v9, v[14:17], s[6:7] offset:16
	global_store_b96 v9, v[18:20], s[6:7] offset:32
	s_endpgm
kernel med3_num vgprs=24 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_mul_u32_u24 v1, 24, v0
	v_lshlrev_b32 v9, 4, v0
	s_wait_kmcnt 0
	global_load_b96 v[2:4], v1, s[4:5]
	global_load_b96 v[6:8], v1, s[4:5] offset:12
	s_wait_loadcnt 0
	v_med3_num_f32 v10, v2, v3, v4
	v_med3_num_f32 v11, -v2, v3, |v4| clamp
	v_med3_num_f16 v12, v6, v7, v8
	v_med3_num_f16 v12, v6, v7, v8 op_sel:[1,1,1,1]
	v_mov_b32 v13, 0
	v_med3_num_f16 v13, v6, -v7, v8 op_sel:[0,1,1,1]
	global_store_b128 v9, v[10:13], s[6:7]
	s_endpgm
kernel med3_num_half vgprs=24 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_mul_u32_u24 v1, 24, v0
	v_lshlrev_b32 v9, 2, v0
	s_wait_kmcnt 0
	global_load_b96 v[2:4], v1, s[4:5]
	s_wait_loadcnt 0
	v_cmpx_gt_u32 16, v0
	v_med3_num_f32 v10, v2, v3, v4
	global_store_b32 v9, v10, s[6:7]
	s_endpgm
kernel chain_num vgprs=24 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_mul_u32_u24 v1, 24, v0
	v_lshlrev_b32 v9, 3, v0
	s_wait_kmcnt 0
	global_load_b96 v[2:4], v1, s[4:5]
	s_wait_loadcnt 0
	v_min_num_f32 v10, v2, v3
	v_min_num_f32 v10, v10, v4
	v_max_num_f32 v11, v2, v3
	v_max_num_f32 v11, v11, v4
	global_store_b64 v9, v[10:11], s[6:7]
	s_endpgm
