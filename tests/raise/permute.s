// The LDS crossbar's cross-lane moves, v_permlane64 and v_swap_b32 in one wave of 32, each
// result stored to out (8 dwords per lane); tests/integration/emulate_permute.sh computes the expected bytes
// from the ISA's definitions.  Lane t's data is 100t + 5; results start as 0xdead, which a
// lane that EXEC leaves out keeps.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel permute vgprs=16 sgprs=8 args=1 workgroup=32
	s_load_b64 s[2:3], s[0:1], 0x0
	v_mul_u32_u24 v1, 100, v0
	v_add_nc_u32 v1, 5, v1
	v_mov_b32 v2, 0xdead
	v_mov_b32 v4, 0xdead
	v_mov_b32 v5, 0xdead
	v_mov_b32 v8, 0xdead
	v_sub_nc_u32 v3, 31, v0
	v_lshlrev_b32 v3, 2, v3             // lane 31 - t
	v_add_nc_u32 v13, 2, v0
	v_lshlrev_b32 v13, 2, v13           // lane t + 2 (wraps at 32)
	s_mov_b32 s4, exec_lo
	s_mov_b32 exec_lo, 0x55555555       // the even lanes
	ds_bpermute_b32 v2, v3, v1          // from an odd, inactive lane: 0
	ds_bpermute_b32 v4, v13, v1         // from an even, active lane
	ds_bpermute_fi_b32 v5, v3, v1       // inactive lanes' data too
	s_mov_b32 exec_lo, s4
	v_lshrrev_b32 v7, 1, v0
	v_lshlrev_b32 v7, 2, v7             // lanes 2k and 2k + 1 both write lane k
	ds_permute_b32 v6, v7, v1
	v_add_nc_u32 v9, 16, v0
	v_lshlrev_b32 v9, 2, v9
	s_mov_b32 exec_lo, 0xffff           // lanes 0..15 write lanes 16..31, and read nothing
	ds_permute_b32 v8, v9, v1
	s_mov_b32 exec_lo, s4
	v_lshlrev_b32 v11, 2, v0
	ds_permute_b32 v10, v11, v1 offset:4 // lane t writes lane t + 1 (31 writes 0)
	s_wait_dscnt 0
	v_permlane64_b32 v12, v1            // a wave32 has no other half: a move
	v_mov_b32 v15, 7
	s_mov_b32 exec_lo, 0xff00ff00
	v_swap_b32 v15, v1                  // in the lanes EXEC has, each register the other's
	s_mov_b32 exec_lo, s4
	v_lshlrev_b32 v1, 16, v1
	v_or_b32 v15, v15, v1               // v15 | v1 << 16: both halves of the swap
	v_lshlrev_b32 v14, 5, v0
	s_wait_kmcnt 0
	global_store_b32 v14, v2, s[2:3]
	global_store_b32 v14, v4, s[2:3] offset:4
	global_store_b32 v14, v5, s[2:3] offset:8
	global_store_b32 v14, v6, s[2:3] offset:12
	global_store_b32 v14, v8, s[2:3] offset:16
	global_store_b32 v14, v10, s[2:3] offset:20
	global_store_b32 v14, v12, s[2:3] offset:24
	global_store_b32 v14, v15, s[2:3] offset:28
	s_endpgm
