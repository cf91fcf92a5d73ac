// GFX9 VGPR index mode (s_set_gpr_idx_on/off/idx/mode) around v_mov_b32 and v_add_u32: the
// SRC0, SRC1 and DST kinds, an index from an SGPR and from an inline constant, M0 as the
// instructions leave it, and an indexed write under a partial EXEC; one 64-lane wave, six
// results per lane (gfx9_gpr_idx_expect.py).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
kernel k vgprs=16 sgprs=8 args=1
	.amdhsa_kernarg_size 8
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_mov_b32 m0, -1
	s_waitcnt lgkmcnt(0)
	v_and_b32_e32 v0, 0x3ff, v0
	v_lshlrev_b32_e32 v10, 2, v0
	v_mov_b32_e32 v11, 0
	v_lshl_add_u64 v[12:13], s[2:3], 0, v[10:11]
	v_add_u32_e32 v1, 0x100, v0
	v_add_u32_e32 v2, 0x200, v0
	v_add_u32_e32 v3, 0x300, v0
	v_add_u32_e32 v4, 0x400, v0
	v_add_u32_e32 v5, 0x500, v0
	v_add_u32_e32 v6, 0x600, v0
	v_add_u32_e32 v7, 0x700, v0
	v_add_u32_e32 v8, 0x800, v0
	s_mov_b32 s4, 3
	s_mov_b32 s5, 1
	s_set_gpr_idx_on s4, gpr_idx(SRC0)
	v_mov_b32_e32 v9, v1
	s_set_gpr_idx_off
	s_set_gpr_idx_on 2, gpr_idx(DST)
	v_mov_b32_e32 v5, v0
	s_set_gpr_idx_off
	s_set_gpr_idx_on s5, gpr_idx(SRC0,DST)
	v_add_u32_e32 v2, v1, v0
	s_set_gpr_idx_off
	s_set_gpr_idx_on s4, gpr_idx(SRC0)
	s_set_gpr_idx_idx s5
	s_set_gpr_idx_mode gpr_idx(SRC1)
	v_add_u32_e32 v14, v0, v1
	s_set_gpr_idx_off
	v_mov_b32_e32 v15, m0
	s_mov_b64 s[6:7], exec
	v_cmpx_gt_u32_e32 vcc, 20, v0
	s_set_gpr_idx_on s5, gpr_idx(DST)
	v_mov_b32_e32 v7, -1
	s_set_gpr_idx_off
	s_mov_b64 exec, s[6:7]
	global_store_dword v[12:13], v9, off
	global_store_dword v[12:13], v7, off offset:256
	global_store_dword v[12:13], v3, off offset:512
	global_store_dword v[12:13], v14, off offset:768
	global_store_dword v[12:13], v15, off offset:1024
	global_store_dword v[12:13], v8, off offset:1280
	s_endpgm
