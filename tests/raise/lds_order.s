// LDS in program order across the lanes of one wave, with no barrier: the hardware runs each
// LDS instruction for every lane before the next, so lane t sees what other lanes stored
// before and not what they store after.  One wave of 32, 132 bytes of LDS; lane t stores
// lds[t] = t + 1, reads lds[t+1] and lds[t+2] (two reads in a row), stores
// lds[t+1] = 100 + t (after every lane read it), reads lds[t], adds 1 to lds[32] atomically
// and reads it back; it writes out[4t..4t+3] = the three reads and the counter.  Indices are
// mod 32.
// tests/integration/emulate_lds_order.sh computes the bytes.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel lds_order vgprs=16 sgprs=8 args=1 workgroup=32 lds=132
	s_load_b64 s[4:5], s[0:1], 0x0       // out
	v_and_b32 v0, 0x3ff, v0
	v_lshlrev_b32 v1, 2, v0              // 4t
	v_add_nc_u32 v2, 1, v0               // t + 1
	ds_store_b32 v1, v2
	v_add_nc_u32 v3, 4, v1
	v_and_b32 v3, 0x7f, v3               // 4 ((t + 1) mod 32)
	v_add_nc_u32 v9, 8, v1
	v_and_b32 v9, 0x7f, v9               // 4 ((t + 2) mod 32)
	ds_load_b32 v4, v3
	ds_load_b32 v5, v9
	v_add_nc_u32 v6, 100, v0
	ds_store_b32 v3, v6
	ds_load_b32 v7, v1
	v_mov_b32 v10, 128
	v_mov_b32 v11, 1
	ds_add_u32 v10, v11
	ds_load_b32 v8, v10
	s_wait_dscnt 0
	v_mov_b32 v6, v7
	v_mov_b32 v7, v8
	v_lshlrev_b32 v12, 4, v0
	s_wait_kmcnt 0
	global_store_b128 v12, v[4:7], s[4:5]
	s_endpgm
