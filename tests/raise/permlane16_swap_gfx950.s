// v_permlane16_swap_b32 on gfx950, one wave of 64: tests/raise/permlane16_swap.s's kernels
// (a = in[t], b = in[64 + t]; out[8t + k]), in GFX9's spelling.
// tests/integration/emulate_permlane16_swap.sh computes the bytes.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.text
kernel swap vgprs=16 sgprs=8 args=2 workgroup=64
	s_load_dwordx4 s[4:7], s[0:1], 0x0   // in, out
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v9, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	global_load_dword v3, v1, s[4:5] offset:256
	s_waitcnt vmcnt(0)
	v_mov_b32_e32 v4, v2
	v_mov_b32_e32 v5, v3
	v_mov_b32_e32 v6, v2
	v_mov_b32_e32 v7, v2
	v_mov_b32_e32 v8, v3
	v_permlane16_swap_b32 v4, v5
	v_permlane16_swap_b32 v6, v6
	v_permlane16_swap_b32_e64 v7, v8 bound_ctrl:1 fi:1
	global_store_dwordx4 v9, v[4:7], s[6:7]
	global_store_dword v9, v8, s[6:7] offset:16
	s_endpgm
kernel swap_partial vgprs=16 sgprs=8 args=2 workgroup=64
	s_load_dwordx4 s[4:7], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v1, 2, v0
	v_lshlrev_b32_e32 v9, 5, v0
	s_waitcnt lgkmcnt(0)
	global_load_dword v2, v1, s[4:5]
	s_waitcnt vmcnt(0)
	v_cmpx_gt_u32_e32 vcc, 48, v0
	v_permlane16_swap_b32 v2, v2
	global_store_dword v9, v2, s[6:7]
	s_endpgm
