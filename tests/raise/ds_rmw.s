// The LDS read-modify-writes ds_rsub, ds_sub_clamp, ds_cond_sub and ds_mskor (32 and 64 bits,
// with and without _rtn), and global_atomic_{cond_sub,sub_clamp}_u32, one wave of 32.  Lane t
// copies in[16t, 16t + 16) into v[10:25] and into its own 64 bytes of LDS at 64t (word k at
// 64t + 4k), then, each on its own words:
//   word 0     ds_rsub_u32 with v20           word 1     ds_rsub_rtn_u32 with v20 (v30)
//   word 2     ds_sub_clamp_u32 with v21      word 3     ds_sub_clamp_rtn_u32 with v21 (v31)
//   word 4     ds_cond_sub_u32 with v21       word 5     ds_cond_sub_rtn_u32 with v21 (v32)
//   word 6     ds_mskor_b32 mask v22, v23     word 7     ds_mskor_rtn_b32 mask v22, v23 (v33)
//   words 8-9  ds_rsub_u64 with v[24:25]      words 10-11 ds_rsub_rtn_u64 with v[24:25] (v[34:35])
//   words 12-13 ds_mskor_b64 mask v[20:21], v[22:23]
//   words 14-15 ds_mskor_rtn_b64 mask v[20:21], v[22:23] (v[36:37])
// then in lanes 0 to 23 only (v_cmpx) ds_rsub_rtn_u32 on word 1 again into v38 (a copy of v20:
// the other lanes keep it), and global_atomic_cond_sub_u32 / global_atomic_sub_clamp_u32 with
// v21 on g[2t] / g[2t + 1] returning v56, v57.  out[32t + k]: the 16 LDS words, then v30..v38,
// v56, v57.  Each lane reads only the LDS it wrote (the CPU runner runs a wave's lanes in
// lockstep from one cross-lane hook to the next).  tests/integration/emulate_ds_rmw.sh computes
// the bytes.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel ds_rmw vgprs=64 sgprs=16 args=3 lds=2048 workgroup=32
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	s_load_b64 s[8:9], s[0:1], 0x10      // g
	v_lshlrev_b32 v1, 6, v0
	v_lshlrev_b32 v9, 7, v0
	v_lshlrev_b32 v8, 3, v0
	s_wait_kmcnt 0
	global_load_b128 v[10:13], v1, s[4:5]
	global_load_b128 v[14:17], v1, s[4:5] offset:16
	global_load_b128 v[18:21], v1, s[4:5] offset:32
	global_load_b128 v[22:25], v1, s[4:5] offset:48
	s_wait_loadcnt 0
	ds_store_b128 v1, v[10:13]
	ds_store_b128 v1, v[14:17] offset:16
	ds_store_b128 v1, v[18:21] offset:32
	ds_store_b128 v1, v[22:25] offset:48
	s_wait_dscnt 0
	ds_rsub_u32 v1, v20
	ds_rsub_rtn_u32 v30, v1, v20 offset:4
	ds_sub_clamp_u32 v1, v21 offset:8
	ds_sub_clamp_rtn_u32 v31, v1, v21 offset:12
	ds_cond_sub_u32 v1, v21 offset:16
	ds_cond_sub_rtn_u32 v32, v1, v21 offset:20
	ds_mskor_b32 v1, v22, v23 offset:24
	ds_mskor_rtn_b32 v33, v1, v22, v23 offset:28
	ds_rsub_u64 v1, v[24:25] offset:32
	ds_rsub_rtn_u64 v[34:35], v1, v[24:25] offset:40
	ds_mskor_b64 v1, v[20:21], v[22:23] offset:48
	ds_mskor_rtn_b64 v[36:37], v1, v[20:21], v[22:23] offset:56
	s_wait_dscnt 0
	v_mov_b32 v38, v20
	s_mov_b32 s10, exec_lo
	v_cmpx_gt_u32 24, v0
	ds_rsub_rtn_u32 v38, v1, v20 offset:4
	s_wait_dscnt 0
	s_mov_b32 exec_lo, s10
	global_atomic_cond_sub_u32 v56, v8, v21, s[8:9] th:TH_ATOMIC_RETURN
	global_atomic_sub_clamp_u32 v57, v8, v21, s[8:9] offset:4 th:TH_ATOMIC_RETURN
	ds_load_b128 v[40:43], v1
	ds_load_b128 v[44:47], v1 offset:16
	ds_load_b128 v[48:51], v1 offset:32
	ds_load_b128 v[52:55], v1 offset:48
	s_wait_dscnt 0
	s_wait_loadcnt 0
	global_store_b128 v9, v[40:43], s[6:7]
	global_store_b128 v9, v[44:47], s[6:7] offset:16
	global_store_b128 v9, v[48:51], s[6:7] offset:32
	global_store_b128 v9, v[52:55], s[6:7] offset:48
	global_store_b128 v9, v[30:33], s[6:7] offset:64
	global_store_b128 v9, v[34:37], s[6:7] offset:80
	global_store_b32 v9, v38, s[6:7] offset:96
	global_store_b64 v9, v[56:57], s[6:7] offset:100
	s_endpgm
