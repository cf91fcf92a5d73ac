// Calls raise_reach.c can and cannot follow (tests/integration/raise_reach.sh): k_label calls
// f_one by a label (s_call_i64); k_loaded calls through an address it loads from its
// arguments, which no scan can know, so it is raised with every function of the object;
// k_jump calls f_one and f_two by label and then jumps through a loaded address, which may be
// a tail call: every return there keeps every return site.  k_rec's f_down calls itself, so
// its calls are not inlined (raise_inline.c) and each return switches over f_down's call
// sites; k_detour's f_detour returns past the instruction after its call, to the site of the
// next call: inlined, that return is not its call's site, and the run faults there.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
function f_one
.Lf_one:
	v_add_nc_u32 v1, 1, v1
	s_set_pc_i64 s[30:31]
function f_two
.Lf_two:
	v_add_nc_u32 v1, 2, v1
	v_add_nc_u32 v1, 3, v1
	s_set_pc_i64 s[30:31]
kernel k_label vgprs=8 sgprs=40 args=2
	s_load_b64 s[4:5], s[0:1], 0x0
	v_mov_b32 v1, 0
	s_call_i64 s[30:31], .Lf_one
	v_mov_b32 v0, 0
	s_wait_kmcnt 0
	global_store_b32 v0, v1, s[4:5]
	s_endpgm
kernel k_loaded vgprs=8 sgprs=40 args=2
	s_load_b128 s[4:7], s[0:1], 0x0
	v_mov_b32 v1, 0
	s_wait_kmcnt 0
	s_swap_pc_i64 s[30:31], s[6:7]
	v_mov_b32 v0, 0
	global_store_b32 v0, v1, s[4:5]
	s_endpgm
kernel k_jump vgprs=8 sgprs=40 args=2
	s_load_b128 s[4:7], s[0:1], 0x0
	v_mov_b32 v1, 0
	s_call_i64 s[30:31], .Lf_one
	s_call_i64 s[30:31], .Lf_two
	v_mov_b32 v0, 0
	s_wait_kmcnt 0
	global_store_b32 v0, v1, s[4:5]
	s_set_pc_i64 s[6:7]
function f_down
.Lf_down: // v1 += 1 per level, s2 levels below this one: s[30:31] kept in lane s2 of v2, v3
	v_add_nc_u32 v1, 1, v1
	s_cmp_eq_u32 s2, 0
	s_cbranch_scc1 .Lf_down_ret
	v_writelane_b32 v2, s30, s2
	v_writelane_b32 v3, s31, s2
	s_sub_co_u32 s2, s2, 1
	s_call_i64 s[30:31], .Lf_down
	s_add_co_u32 s2, s2, 1
	v_readlane_b32 s30, v2, s2
	v_readlane_b32 s31, v3, s2
.Lf_down_ret:
	s_set_pc_i64 s[30:31]
kernel k_rec vgprs=8 sgprs=40 args=2
	s_load_b64 s[4:5], s[0:1], 0x0
	v_mov_b32 v1, 0
	s_mov_b32 s2, 3
	s_call_i64 s[30:31], .Lf_down
	v_mov_b32 v0, 0
	s_wait_kmcnt 0
	global_store_b32 v0, v1, s[4:5]
	s_endpgm
function f_detour
.Lf_detour:
	v_add_nc_u32 v1, 1, v1
	s_add_nc_u64 s[30:31], s[30:31], 4
	s_set_pc_i64 s[30:31]
kernel k_detour vgprs=8 sgprs=40 args=2
	s_load_b64 s[4:5], s[0:1], 0x0
	v_mov_b32 v1, 0
	s_call_i64 s[30:31], .Lf_detour
	s_call_i64 s[30:31], .Lf_detour
	v_mov_b32 v0, 0
	s_wait_kmcnt 0
	global_store_b32 v0, v1, s[4:5]
	s_endpgm
