// gfx12's IEEE 754-2019 minimumNumber/maximumNumber forms, one wave of 32: lane t reads a and
// b (f32, or two f16 halves) and da and db (f64) from in[6t..6t+5] and stores nine dwords to
// out[9t..9t+8]; tests/integration/emulate_minmax_num.sh computes the expected bytes.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel minmax_num vgprs=24 sgprs=8 args=2 workgroup=32
	.amdhsa_float_denorm_mode_32 3 // denormals kept, as the inputs need
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_mul_u32_u24 v1, 24, v0
	v_mul_u32_u24 v9, 36, v0
	s_wait_kmcnt 0
	global_load_b64 v[2:3], v1, s[4:5]
	global_load_b128 v[4:7], v1, s[4:5] offset:8
	s_wait_loadcnt 0
	v_max_num_f32 v10, v2, v3
	v_min_num_f32 v11, v2, v3
	v_mov_b32 v12, 0
	v_max_num_f16 v12, v2, v3
	v_pk_max_num_f16 v13, v2, v3
	v_pk_min_num_f16 v14, v2, v3
	v_max_num_f64 v[16:17], v[4:5], v[6:7]
	v_min_num_f64 v[18:19], v[4:5], v[6:7]
	global_store_b32 v9, v10, s[6:7]
	global_store_b32 v9, v11, s[6:7] offset:4
	global_store_b32 v9, v12, s[6:7] offset:8
	global_store_b32 v9, v13, s[6:7] offset:12
	global_store_b32 v9, v14, s[6:7] offset:16
	global_store_b64 v9, v[16:17], s[6:7] offset:20
	global_store_b64 v9, v[18:19], s[6:7] offset:28
	s_endpgm
