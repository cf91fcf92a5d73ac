// The integer min/max family and v_cls_i32, one wave of 32: lane t reads a, b and c from
// in[3t..3t+2] and stores eleven dwords to out[11t..11t+10]: v_add_{min,max}_{u,i}32 (the add
// saturates), v_cls_i32 of a, and v_{min3,max3,med3}_{i,u}16 of the halves (the low halves
// into the low half of the result, op_sel picking the high ones into the high half);
// tests/integration/emulate_int_minmax.sh computes the expected bytes.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel int_minmax vgprs=24 sgprs=8 args=2 workgroup=32
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_mul_u32_u24 v1, 12, v0
	v_mul_u32_u24 v9, 44, v0
	s_wait_kmcnt 0
	global_load_b96 v[2:4], v1, s[4:5]
	s_wait_loadcnt 0
	v_add_min_u32 v10, v2, v3, v4
	v_add_max_u32 v11, v2, v3, v4
	v_add_min_i32 v12, v2, v3, v4
	v_add_max_i32 v13, v2, v3, v4
	v_cls_i32 v14, v2
	v_med3_i16 v15, v2, v3, v4
	v_med3_i16 v15, v2, v3, v4 op_sel:[1,1,1,1]
	v_med3_u16 v16, v2, v3, v4
	v_med3_u16 v16, v2, v3, v4 op_sel:[1,1,1,1]
	v_min3_i16 v17, v2, v3, v4
	v_min3_i16 v17, v2, v3, v4 op_sel:[1,1,1,1]
	v_max3_u16 v18, v2, v3, v4
	v_max3_u16 v18, v2, v3, v4 op_sel:[1,1,1,1]
	v_max3_i16 v19, v2, v3, v4
	v_max3_i16 v19, v2, v3, v4 op_sel:[1,1,1,1]
	v_min3_u16 v20, v2, v3, v4
	v_min3_u16 v20, v2, v3, v4 op_sel:[1,1,1,1]
	global_store_b128 v9, v[10:13], s[6:7]
	global_store_b128 v9, v[14:17], s[6:7] offset:16
	global_store_b96 v9, v[18:20], s[6:7] offset:32
	s_endpgm
