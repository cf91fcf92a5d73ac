// gfx12's f16 VOP1/VOP2 rounding, exponent and conversion forms and the f32 pairs to f16, one wave
// of 32: lane t reads A, B (f16 pairs, or two f32 for cvt_pk_f16) from in[2t..2t+1].  Each f16
// op runs on A's low half into a register holding A (its high half kept) and on A's high half
// (A >> 16) into one holding A >> 16, so each stores two dwords.  f16_round stores, to
// out[22t..]: floor, ceil, trunc, rndne, frexp_mant, frexp_exp_i16, ldexp by B's half; then
// floor(-|x|), rndne(-x) clamp, frexp_mant(-x), ldexp(-|x|, e) clamp, trunc(|x|) (one dword each,
// of the low halves) and fract(|x|) of both halves.  f16_conv stores fract, cvt_i16, cvt_u16 and
// cvt_i16(-x), cvt_u16(|x|), fract(-x) clamp (of the low half) to out[9t..].  cvt_pk_f16 stores
// cvt_pk_f16_f32(a, b), (-a, |b|), cvt_pk_rtz_f16_f32(a, b) and (-|a|, -b) to out[4t..].
// tests/raise/f16_round_expect.py computes the bytes (tests/integration/emulate_f16_round.sh).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel f16_round vgprs=48 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3 // denormals kept, as the inputs need
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 3, v0
	v_mul_u32_u24 v9, 0x58, v0
	s_wait_kmcnt 0
	global_load_b64 v[2:3], v1, s[4:5]
	s_wait_loadcnt 0
	v_mov_b32 v4, v3                     // B
	v_lshrrev_b32 v5, 16, v3             // B >> 16
	v_lshrrev_b32 v3, 16, v2             // A >> 16
	v_mov_b32 v10, v2
	v_floor_f16 v10, v2
	v_mov_b32 v11, v3
	v_floor_f16 v11, v3
	v_mov_b32 v12, v2
	v_ceil_f16 v12, v2
	v_mov_b32 v13, v3
	v_ceil_f16 v13, v3
	v_mov_b32 v14, v2
	v_trunc_f16 v14, v2
	v_mov_b32 v15, v3
	v_trunc_f16 v15, v3
	v_mov_b32 v16, v2
	v_rndne_f16 v16, v2
	v_mov_b32 v17, v3
	v_rndne_f16 v17, v3
	v_mov_b32 v18, v2
	v_frexp_mant_f16 v18, v2
	v_mov_b32 v19, v3
	v_frexp_mant_f16 v19, v3
	v_mov_b32 v20, v2
	v_frexp_exp_i16_f16 v20, v2
	v_mov_b32 v21, v3
	v_frexp_exp_i16_f16 v21, v3
	v_mov_b32 v22, v2
	v_ldexp_f16 v22, v2, v4
	v_mov_b32 v23, v3
	v_ldexp_f16 v23, v3, v5
	v_mov_b32 v24, v2
	v_floor_f16_e64 v24, -|v2|
	v_mov_b32 v25, v2
	v_rndne_f16_e64 v25, -v2 clamp
	v_mov_b32 v26, v2
	v_frexp_mant_f16_e64 v26, -v2
	v_mov_b32 v27, v2
	v_ldexp_f16_e64 v27, -|v2|, v4 clamp
	v_mov_b32 v28, v2
	v_trunc_f16_e64 v28, |v2|
	v_mov_b32 v29, v2
	v_fract_f16_e64 v29, |v2|
	v_mov_b32 v30, v3
	v_fract_f16_e64 v30, |v3|
	v_mov_b32 v31, 0
	global_store_b128 v9, v[10:13], s[6:7]
	global_store_b128 v9, v[14:17], s[6:7] offset:16
	global_store_b128 v9, v[18:21], s[6:7] offset:32
	global_store_b128 v9, v[22:25], s[6:7] offset:48
	global_store_b128 v9, v[26:29], s[6:7] offset:64
	global_store_b64 v9, v[30:31], s[6:7] offset:80
	s_endpgm
kernel f16_conv vgprs=32 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 3, v0
	v_mul_u32_u24 v9, 36, v0
	s_wait_kmcnt 0
	global_load_b64 v[2:3], v1, s[4:5]
	s_wait_loadcnt 0
	v_lshrrev_b32 v3, 16, v2             // A >> 16
	v_mov_b32 v10, v2
	v_fract_f16 v10, v2
	v_mov_b32 v11, v3
	v_fract_f16 v11, v3
	v_mov_b32 v12, v2
	v_cvt_i16_f16 v12, v2
	v_mov_b32 v13, v3
	v_cvt_i16_f16 v13, v3
	v_mov_b32 v14, v2
	v_cvt_u16_f16 v14, v2
	v_mov_b32 v15, v3
	v_cvt_u16_f16 v15, v3
	v_mov_b32 v16, v2
	v_cvt_i16_f16_e64 v16, -v2
	v_mov_b32 v17, v2
	v_cvt_u16_f16_e64 v17, |v2|
	v_mov_b32 v18, v2
	v_fract_f16_e64 v18, -v2 clamp
	global_store_b128 v9, v[10:13], s[6:7]
	global_store_b128 v9, v[14:17], s[6:7] offset:16
	global_store_b32 v9, v18, s[6:7] offset:32
	s_endpgm
kernel f16_conv_half vgprs=32 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 3, v0
	v_lshlrev_b32 v9, 2, v0
	s_wait_kmcnt 0
	global_load_b64 v[2:3], v1, s[4:5]
	s_wait_loadcnt 0
	v_cmpx_gt_u32 16, v0
	v_mov_b32 v10, v2
	v_cvt_i16_f16 v10, v2
	global_store_b32 v9, v10, s[6:7]
	s_endpgm
kernel cvt_pk_f16 vgprs=16 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 3, v0
	v_lshlrev_b32 v9, 4, v0
	s_wait_kmcnt 0
	global_load_b64 v[2:3], v1, s[4:5]
	s_wait_loadcnt 0
	v_cvt_pk_f16_f32 v10, v2, v3
	v_cvt_pk_f16_f32 v11, -v2, |v3|
	v_cvt_pk_rtz_f16_f32 v12, v2, v3
	v_cvt_pk_rtz_f16_f32_e64 v13, -|v2|, -v3
	global_store_b128 v9, v[10:13], s[6:7]
	s_endpgm
