// gfx9's float minimum/maximum (v_{min,max}_f32, v_max_f16, v_{min,max}_f64) in IEEE mode, the
// descriptor's default: the layout of minmax_num.s (dwords 3 and 4, its packed results, stay 0),
// so that tests/integration/emulate_minmax_num.sh judges both; here a signalling NaN operand
// gives itself quieted, where gfx12's _num forms let the number win.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
kernel minmax_gfx9 vgprs=24 sgprs=8 args=2 workgroup=64
	.amdhsa_float_denorm_mode_32 3 // denormals kept, as the inputs need
	s_load_dwordx4 s[4:7], s[0:1], 0x0      // in, out
	v_mul_u32_u24 v1, 24, v0
	v_mul_u32_u24 v9, 36, v0
	s_waitcnt lgkmcnt(0)
	global_load_dwordx2 v[2:3], v1, s[4:5]
	global_load_dwordx4 v[4:7], v1, s[4:5] offset:8
	s_waitcnt vmcnt(0)
	v_max_f32 v10, v2, v3
	v_min_f32 v11, v2, v3
	v_mov_b32 v12, 0
	v_max_f16 v12, v2, v3
	v_mov_b32 v13, 0
	v_mov_b32 v14, 0
	v_max_f64 v[16:17], v[4:5], v[6:7]
	v_min_f64 v[18:19], v[4:5], v[6:7]
	global_store_dword v9, v10, s[6:7]
	global_store_dword v9, v11, s[6:7] offset:4
	global_store_dword v9, v12, s[6:7] offset:8
	global_store_dword v9, v13, s[6:7] offset:12
	global_store_dword v9, v14, s[6:7] offset:16
	global_store_dwordx2 v9, v[16:17], s[6:7] offset:20
	global_store_dwordx2 v9, v[18:19], s[6:7] offset:28
	s_endpgm
