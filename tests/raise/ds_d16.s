// The LDS d16 forms, one wave of 32.  Lane t reads in[16t, 16t + 16) (v2..v5), stores it to
// its own 16 bytes of LDS at 16t, then loads from them into copies of v5 (so that the half a
// load keeps is known), with b = 16t + ((5t + 3) & 7) and h = 16t + 2 * ((3t + 1) & 3):
//   v10 ds_load_u8_d16 from b        v11 ds_load_u8_d16_hi from b + 1
//   v12 ds_load_i8_d16 from b        v13 ds_load_i8_d16_hi from b + 2
//   v14 ds_load_u16_d16 from h       v15 ds_load_u16_d16_hi from h + 2
// stores v2's bits 31:16 (ds_store_b16_d16_hi) at 512 + 4t and its bits 23:16
// (ds_store_b8_d16_hi) at 512 + 4t + 2, and reads that dword back (v16, its top byte never
// written: 0); then in lanes 0 to 23 only (v_cmpx) ds_load_u16_d16_hi from h into a copy of v2
// (v17: the other lanes keep v2) and ds_store_b8_d16_hi of v3 at 640 + 4t + 1, and with every
// lane again reads the dword at 640 + 4t (v18: 0 in lanes 24 to 31).  out[16t + k] is v10..v18
// for k = 0..8.  Each lane reads only the LDS it wrote: the CPU runner runs a wave's lanes in
// lockstep from one cross-lane hook to the next, and a wait (s_wait_dscnt) is a fence, not one.
// tests/integration/emulate_ds_d16.sh computes the bytes.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel ds_d16 vgprs=24 sgprs=16 args=2 lds=1024 workgroup=32
	s_load_b128 s[4:7], s[0:1], 0x0      // in, out
	v_lshlrev_b32 v1, 4, v0
	v_lshlrev_b32 v9, 6, v0
	v_lshlrev_b32 v8, 2, v0
	s_wait_kmcnt 0
	global_load_b128 v[2:5], v1, s[4:5]
	s_wait_loadcnt 0
	ds_store_b128 v1, v[2:5]
	s_wait_dscnt 0
	v_mad_u32_u24 v4, v0, 5, 3
	v_and_b32 v4, 7, v4
	v_add_nc_u32 v4, v1, v4
	v_mad_u32_u24 v6, v0, 3, 1
	v_and_b32 v6, 3, v6
	v_lshl_add_u32 v6, v6, 1, v1
	v_mov_b32 v10, v5
	v_mov_b32 v11, v5
	v_mov_b32 v12, v5
	v_mov_b32 v13, v5
	v_mov_b32 v14, v5
	v_mov_b32 v15, v5
	ds_load_u8_d16 v10, v4
	ds_load_u8_d16_hi v11, v4 offset:1
	ds_load_i8_d16 v12, v4
	ds_load_i8_d16_hi v13, v4 offset:2
	ds_load_u16_d16 v14, v6
	ds_load_u16_d16_hi v15, v6 offset:2
	ds_store_b16_d16_hi v8, v2 offset:512
	ds_store_b8_d16_hi v8, v2 offset:514
	s_wait_dscnt 0
	ds_load_b32 v16, v8 offset:512
	v_mov_b32 v17, v2
	s_mov_b32 s10, exec_lo
	v_cmpx_gt_u32 24, v0
	ds_load_u16_d16_hi v17, v6
	ds_store_b8_d16_hi v8, v3 offset:641
	s_wait_dscnt 0
	s_mov_b32 exec_lo, s10
	ds_load_b32 v18, v8 offset:640
	s_wait_dscnt 0
	global_store_b128 v9, v[10:13], s[6:7]
	global_store_b128 v9, v[14:17], s[6:7] offset:16
	global_store_b32 v9, v18, s[6:7] offset:32
	s_endpgm
