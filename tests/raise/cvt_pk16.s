// v_cvt_pk_{i,u}16_f32, one wave of 32: lane t reads the floats a, b from in[2t..2t+1] and
// stores four dwords to out[4t..4t+3]: v_cvt_pk_i16_f32(a, b), v_cvt_pk_i16_f32(-a, -b),
// v_cvt_pk_u16_f32(|a|, |b|) and v_cvt_pk_i16_f32(-|a|, |b|).  cvt_pk16_half converts only in lanes 0 to 15 (v_cmpx), so the
// others' values may be anything; cvt_pk16_u reads a, b, c, d from in[4t..4t+3] and stores
// v_cvt_pk_u16_f32(a, b) and v_cvt_pk_u16_f32(-c, -d), for the unsigned form's own bounds.  tests/integration/emulate_cvt_pk16.sh computes the bytes.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel cvt_pk16 vgprs=16 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3 // denormals kept, as the inputs need
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 3, v0
	v_lshlrev_b32 v9, 4, v0
	s_wait_kmcnt 0
	global_load_b64 v[2:3], v1, s[4:5]
	s_wait_loadcnt 0
	v_cvt_pk_i16_f32 v10, v2, v3
	v_cvt_pk_i16_f32 v11, -v2, -v3
	v_cvt_pk_u16_f32 v12, |v2|, |v3|
	v_cvt_pk_i16_f32 v13, -|v2|, |v3|
	global_store_b128 v9, v[10:13], s[6:7]
	s_endpgm
kernel cvt_pk16_half vgprs=16 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 3, v0
	v_lshlrev_b32 v9, 2, v0
	s_wait_kmcnt 0
	global_load_b64 v[2:3], v1, s[4:5]
	s_wait_loadcnt 0
	v_cmpx_gt_u32 16, v0
	v_cvt_pk_i16_f32 v10, v2, v3
	global_store_b32 v9, v10, s[6:7]
	s_endpgm
kernel cvt_pk16_u vgprs=16 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 4, v0
	v_lshlrev_b32 v9, 3, v0
	s_wait_kmcnt 0
	global_load_b128 v[2:5], v1, s[4:5]
	s_wait_loadcnt 0
	v_cvt_pk_u16_f32 v10, v2, v3
	v_cvt_pk_u16_f32 v11, -v4, -v5
	global_store_b64 v9, v[10:11], s[6:7]
	s_endpgm
