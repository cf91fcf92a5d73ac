// The packed 16-bit integer ops the raiser models (shifts, min/max, multiply-add), and the
// 32-bit v_maxmin/v_minmax pair, one wave of 32: lane t reads a, b and c from in[3t..3t+2] and
// stores each result to out (12 dwords per lane); tests/integration/emulate_pk16.sh computes
// the expected bytes from the ISA's rules.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel pk16 vgprs=24 sgprs=8 args=2 workgroup=32
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_mul_u32_u24 v1, 12, v0
	v_mul_u32_u24 v9, 48, v0
	s_wait_kmcnt 0
	global_load_b32 v2, v1, s[4:5]
	global_load_b32 v3, v1, s[4:5] offset:4
	global_load_b32 v4, v1, s[4:5] offset:8
	s_wait_loadcnt 0
	v_pk_lshlrev_b16 v10, v2, v3
	v_pk_lshrrev_b16 v11, v2, v3
	v_pk_ashrrev_i16 v12, v2, v3
	v_pk_max_i16 v13, v2, v3
	v_pk_min_i16 v14, v2, v3
	v_pk_max_u16 v15, v2, v3
	v_pk_min_u16 v16, v2, v3
	v_pk_mad_u16 v17, v2, v3, v4
	v_pk_mad_i16 v18, v2, v3, v4
	v_pk_max_i16 v19, v2, v3 op_sel:[1,0] op_sel_hi:[0,1]
	v_maxmin_i32 v20, v2, v3, v4
	v_minmax_u32 v21, v2, v3, v4
	global_store_b32 v9, v10, s[6:7]
	global_store_b32 v9, v11, s[6:7] offset:4
	global_store_b32 v9, v12, s[6:7] offset:8
	global_store_b32 v9, v13, s[6:7] offset:12
	global_store_b32 v9, v14, s[6:7] offset:16
	global_store_b32 v9, v15, s[6:7] offset:20
	global_store_b32 v9, v16, s[6:7] offset:24
	global_store_b32 v9, v17, s[6:7] offset:28
	global_store_b32 v9, v18, s[6:7] offset:32
	global_store_b32 v9, v19, s[6:7] offset:36
	global_store_b32 v9, v20, s[6:7] offset:40
	global_store_b32 v9, v21, s[6:7] offset:44
	s_endpgm
