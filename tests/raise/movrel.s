// Relative register indexing through M0, one wave: every v_movrel*/s_movrel* form the raiser
// models, each result stored to out (12 dwords per lane, 9 used); tests/integration/emulate_movrel.sh
// computes the expected bytes itself.  Lane t's v[10:17] start as 16t + k.  The kernel has 32
// VGPRs (RSRC1: two granules of 16); @BAD_M0@ is an M0 for the last v_movrels_b32 (21 names
// v31; 22 would name v32, which the kernel does not have).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel movrel vgprs=32 sgprs=48 args=1 workgroup=32
	s_load_b64 s[2:3], s[0:1], 0x0
	v_lshlrev_b32 v2, 4, v0
	v_add_nc_u32 v10, 0, v2
	v_add_nc_u32 v11, 1, v2
	v_add_nc_u32 v12, 2, v2
	v_add_nc_u32 v13, 3, v2
	v_add_nc_u32 v14, 4, v2
	v_add_nc_u32 v15, 5, v2
	v_add_nc_u32 v16, 6, v2
	v_add_nc_u32 v17, 7, v2
	s_mov_b32 m0, 3
	v_movrels_b32 v20, v10              // v20 = v13 = 16t + 3
	s_mov_b32 m0, 5
	v_movreld_b32 v10, v0               // v15 = t
	s_mov_b32 m0, 2
	v_movrelsd_b32 v21, v10             // v23 = v12 = 16t + 2
	s_mov_b32 m0, 0x40001
	v_movrelsd_2_b32 v24, v10           // v28 = v[10 + 1] = 16t + 1
	// Under EXEC: only lanes 0..15 write v17.
	s_mov_b32 s40, exec_lo
	v_cmpx_gt_u32 16, v0
	s_mov_b32 m0, 7
	v_movreld_b32_e64 v10, 0x3e7        // v17 = 999 in lanes 0..15
	s_mov_b32 exec_lo, s40
	// SGPRs: s[20:23] = 100..103.
	s_mov_b32 s20, 100
	s_mov_b32 s21, 101
	s_mov_b32 s22, 102
	s_mov_b32 s23, 103
	s_mov_b32 m0, 3
	s_movrels_b32 s30, s20              // s30 = s23 = 103
	s_mov_b32 m0, 1
	s_movreld_b32 s20, 77               // s21 = 77
	s_mov_b32 m0, 2
	s_movrels_b64 s[32:33], s[20:21]    // s[32:33] = s[22:23] = 102, 103
	s_mov_b32 m0, @BAD_M0@
	v_movrels_b32 v31, v10              // v31 = v[10 + M0]: v31 itself for 21
	v_mul_u32_u24 v3, 48, v0            // out + 48t
	v_mov_b32 v4, s30
	v_mov_b32 v5, s21
	v_mov_b32 v6, s32
	v_mov_b32 v7, s33
	s_wait_kmcnt 0
	global_store_b32 v3, v20, s[2:3]
	global_store_b32 v3, v15, s[2:3] offset:4
	global_store_b32 v3, v23, s[2:3] offset:8
	global_store_b32 v3, v28, s[2:3] offset:12
	global_store_b32 v3, v17, s[2:3] offset:16
	global_store_b32 v3, v4, s[2:3] offset:20
	global_store_b32 v3, v5, s[2:3] offset:24
	global_store_b64 v3, v[6:7], s[2:3] offset:28
	s_endpgm
