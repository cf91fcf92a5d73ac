// v_permlane16_swap_b32, one wave of 32: lane t reads a = in[t] and b = in[32 + t] and stores
// out[8t + k]: the two registers of v_permlane16_swap_b32 v4(a), v5(b) (k = 0, 1), the one
// register of v_permlane16_swap_b32 v6(a), v6 (k = 2), and the two of the VOP3 form with fi and
// bound_ctrl set, v7(a), v8(b) (k = 3, 4).  swap_partial swaps in lanes 0 to 23 only (v_cmpx),
// which has no documented rule: the run stops there.  tests/integration/emulate_permlane16_swap.sh
// computes the bytes; tests/raise/permlane16_swap_gfx950.s is the same on a wave64.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel swap vgprs=16 sgprs=8 args=2 workgroup=32
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 2, v0
	v_lshlrev_b32 v9, 5, v0
	s_wait_kmcnt 0
	global_load_b32 v2, v1, s[4:5]
	global_load_b32 v3, v1, s[4:5] offset:128
	s_wait_loadcnt 0
	v_mov_b32 v4, v2
	v_mov_b32 v5, v3
	v_mov_b32 v6, v2
	v_mov_b32 v7, v2
	v_mov_b32 v8, v3
	v_permlane16_swap_b32 v4, v5
	v_permlane16_swap_b32 v6, v6
	v_permlane16_swap_b32_e64 v7, v8 bound_ctrl:1 fi:1
	global_store_b128 v9, v[4:7], s[6:7]
	global_store_b32 v9, v8, s[6:7] offset:16
	s_endpgm
kernel swap_partial vgprs=16 sgprs=8 args=2 workgroup=32
	s_load_b128 s[4:7], s[0:1], 0x0
	v_lshlrev_b32 v1, 2, v0
	v_lshlrev_b32 v9, 5, v0
	s_wait_kmcnt 0
	global_load_b32 v2, v1, s[4:5]
	s_wait_loadcnt 0
	v_cmpx_gt_u32 24, v0
	v_permlane16_swap_b32 v2, v2
	global_store_b32 v9, v2, s[6:7]
	s_endpgm
