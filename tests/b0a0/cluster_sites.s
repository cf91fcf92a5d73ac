// B0-only loads and s_barrier_signal_isfirst whose results reach global stores, for
// `mirage emulate` of the original and of its B0->A0 rewrite
// (tests/integration/rewrite_b0a0_cluster.sh assembles it at test time; launch file
// tests/b0a0/cluster.json).
// Two workgroups of 64 lanes (two waves each); lane g (global id), t (local id).
//   in:    64 bytes per lane; out: 256 bytes per lane; first: 2 dwords per lane.
// The `off` cluster loads become global loads under the pass, the saddr ones stay; both read
// like global loads here (no cluster dispatch).  The async copies fill lane t's 64-byte LDS
// slot, the barrier publishes it, and each lane stores the slot of lane 63 - t; then DS
// two-address exchanges in its own slot (B0->A0 splits them in the pool) and the slot after.
// isfirst's SCC (after SCC = 0) goes to `first`: 1 in the first wave of the group to signal,
// per barrier phase.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel cluster_sites vgprs=80 sgprs=16 args=3 lds=4096 workgroup=64
	s_load_b64 s[2:3], s[0:1], 0x0      // in
	s_load_b64 s[4:5], s[0:1], 0x8      // out
	s_load_b64 s[6:7], s[0:1], 0x10     // first
	s_lshl_b32 s8, ttmp9, 6
	v_add_nc_u32 v1, s8, v0             // v1 = g
	v_lshlrev_b32 v12, 6, v1            // v12 = g * 64 (the saddr forms' offset)
	v_mov_b32 v3, 0
	v_mov_b32 v2, v12
	s_wait_kmcnt 0
	v_add_nc_u64 v[2:3], s[2:3], v[2:3] // v[2:3] = in + g * 64
	cluster_load_b32 v4, v[2:3], off
	cluster_load_b64 v[6:7], v[2:3], off offset:4
	cluster_load_b128 v[8:11], v[2:3], off offset:16
	cluster_load_b32 v13, v12, s[2:3] offset:32
	cluster_load_b128 v[14:17], v12, s[2:3] offset:48
	// Lane t's LDS slot at t * 64: cleared, then filled by the async copies (the offset
	// counts for the global and the LDS address alike).
	v_lshlrev_b32 v18, 6, v0
	v_mov_b32 v40, 0
	v_mov_b32 v41, 0
	v_mov_b32 v42, 0
	v_mov_b32 v43, 0
	ds_store_b128 v18, v[40:43]
	ds_store_b128 v18, v[40:43] offset:16
	ds_store_b128 v18, v[40:43] offset:32
	ds_store_b128 v18, v[40:43] offset:48
	s_wait_dscnt 0
	cluster_load_async_to_lds_b32 v18, v[2:3], off
	cluster_load_async_to_lds_b8 v18, v[2:3], off offset:5
	cluster_load_async_to_lds_b64 v18, v[2:3], off offset:8
	cluster_load_async_to_lds_b128 v18, v[2:3], off offset:16
	v_add_nc_u32 v19, v18, 0          // the saddr form's LDS address
	cluster_load_async_to_lds_b32 v19, v12, s[2:3] offset:32
	cluster_load_async_to_lds_b64 v19, v12, s[2:3] offset:40
	global_load_async_to_lds_b32 v18, v[2:3], off offset:48
	s_wait_asynccnt 0
	// Phase 1.
	s_cmp_lg_u32 s0, s0
	s_barrier_signal_isfirst -1
	s_barrier_wait -1
	s_cselect_b32 s9, 1, 0
	v_mov_b32 v20, s9
	v_sub_nc_u32 v21, 63, v0
	v_lshlrev_b32 v21, 6, v21
	ds_load_b128 v[22:25], v21
	ds_load_b128 v[26:29], v21 offset:16
	ds_load_b128 v[30:33], v21 offset:32
	ds_load_b128 v[34:37], v21 offset:48
	s_wait_dscnt 0
	// Phase 2: isfirst starts afresh.
	s_cmp_lg_u32 s0, s0
	s_barrier_signal_isfirst -1
	s_barrier_wait -1
	s_cselect_b32 s10, 1, 0
	v_mov_b32 v38, s10
	// Exchanges in lane t's own slot (no lane reads it any more): the old words come back.
	v_xor_b32 v45, 0xabcd0000, v1
	ds_storexchg_2addr_rtn_b32 v[48:49], v18, v1, v45 offset0:2 offset1:8
	v_mov_b32 v54, v1
	v_mov_b32 v55, v45
	v_not_b32 v56, v1
	v_mov_b32 v57, 0x12345678
	ds_storexchg_2addr_rtn_b64 v[50:53], v18, v[54:55], v[56:57] offset0:2 offset1:6
	s_wait_dscnt 0
	ds_load_b128 v[58:61], v18
	ds_load_b128 v[62:65], v18 offset:16
	ds_load_b128 v[66:69], v18 offset:32
	ds_load_b128 v[70:73], v18 offset:48
	s_wait_dscnt 0
	v_lshlrev_b32 v39, 8, v1            // out + g * 256
	s_wait_loadcnt 0
	global_store_b32 v39, v4, s[4:5]
	global_store_b64 v39, v[6:7], s[4:5] offset:4
	global_store_b128 v39, v[8:11], s[4:5] offset:16
	global_store_b32 v39, v13, s[4:5] offset:32
	global_store_b128 v39, v[14:17], s[4:5] offset:48
	global_store_b128 v39, v[22:25], s[4:5] offset:64
	global_store_b128 v39, v[26:29], s[4:5] offset:80
	global_store_b128 v39, v[30:33], s[4:5] offset:96
	global_store_b128 v39, v[34:37], s[4:5] offset:112
	global_store_b64 v39, v[48:49], s[4:5] offset:128
	global_store_b128 v39, v[50:53], s[4:5] offset:136
	global_store_b128 v39, v[58:61], s[4:5] offset:192
	global_store_b128 v39, v[62:65], s[4:5] offset:208
	global_store_b128 v39, v[66:69], s[4:5] offset:224
	global_store_b128 v39, v[70:73], s[4:5] offset:240
	v_lshlrev_b32 v44, 3, v1            // first + g * 8
	global_store_b32 v44, v20, s[6:7]
	global_store_b32 v44, v38, s[6:7] offset:4
	s_endpgm
