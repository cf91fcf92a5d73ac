// GFX9 long branches as LLVM's branch relaxation writes them (s_getpc_b64, then s_add_u32 /
// s_addc_u32 of the target minus the end of the s_getpc, then s_setpc_b64): the raiser
// follows them as branches, forward and backward, where it once faulted on "an indirect
// branch to an address that is no function or return site"; one 64-lane wave, one result
// per lane (gfx9_long_branch_expect.py).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
	.text
kernel k vgprs=4 sgprs=8 args=1
	.amdhsa_kernarg_size 8
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	v_and_b32_e32 v0, 0x3ff, v0
	v_mov_b32_e32 v1, 1
	s_getpc_b64 s[4:5]
.Lf:
	s_add_u32 s4, s4, .Lfwd-.Lf
	s_addc_u32 s5, s5, 0
	s_setpc_b64 s[4:5]
	v_mov_b32_e32 v1, 99
.Lback:
	v_add_u32_e32 v1, 10, v1
	s_branch .Ldone
.Lfwd:
	v_add_u32_e32 v1, 1, v1
	s_getpc_b64 s[4:5]
.Lb:
	s_add_u32 s4, s4, .Lback-.Lb
	s_addc_u32 s5, s5, -1
	s_setpc_b64 s[4:5]
.Ldone:
	v_lshlrev_b32_e32 v0, 2, v0
	s_waitcnt lgkmcnt(0)
	global_store_dword v0, v1, s[2:3]
	s_endpgm
