// s_add_pc_i64 as LLVM's branch relaxation emits it (an offset from the end of the
// instruction to the target), forward with an inline constant, a 32-bit and a 64-bit literal,
// backward as a loop;
// tests/integration/emulate_add_pc.sh checks what reaches out.  @REG@ is a last s_add_pc_i64
// of a register, whose target the raiser cannot know (refused), or empty.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
kernel add_pc vgprs=12 sgprs=8 args=1 workgroup=32
	s_load_b64 s[2:3], s[0:1], 0x0
	v_mov_b32 v4, 1
	s_add_pc_i64 .Lfwd-.Lpost1         // skips v4 = 2
.Lpost1:
	v_mov_b32 v4, 2
.Lfwd:
	v_mov_b32 v5, v0
	s_mov_b32 s4, 0
.Lloop:                                // v5 += 3, five times
	v_add_nc_u32 v5, 3, v5
	s_add_co_i32 s4, s4, 1
	s_cmp_lt_u32 s4, 5
	s_cbranch_scc0 .Ldone
	s_add_pc_i64 .Lloop-.Lpost2
.Lpost2:
.Ldone:
	v_mov_b32 v6, 7
	s_add_pc_i64 8                     // an inline constant: skips the next 8 bytes
	v_mov_b32 v6, 0x1234
	v_mov_b32 v7, 9
	s_add_pc_i64 0x44                  // a 32-bit literal: skips the 17 dwords after it
	.rept 17
	v_mov_b32 v7, 3
	.endr
	@REG@
	v_lshlrev_b32 v8, 4, v0
	s_wait_kmcnt 0
	global_store_b128 v8, v[4:7], s[2:3]
	s_endpgm
