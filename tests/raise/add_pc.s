// s_add_pc_i64 as LLVM's branch relaxation emits it (an offset from the end of the
// instruction to the target), forward with an inline constant, a 32-bit and a 64-bit literal,
// backward as a loop;
// tests/integration/emulate_add_pc.sh checks what reaches out.  @REG@ is a last s_add_pc_i64
// of a register, whose target the raiser cannot know (refused), or empty.
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
	.globl add_pc
	.p2align 8
	.type add_pc,@function
add_pc:
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
.Ladd_pc_end:
	.size add_pc, .Ladd_pc_end-add_pc

	.rodata
	.p2align 6
	.amdhsa_kernel add_pc
	.amdhsa_user_sgpr_kernarg_segment_ptr 1
	.amdhsa_next_free_vgpr 12
	.amdhsa_next_free_sgpr 8
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .name: add_pc
    .symbol: add_pc.kd
    .args:
      - .address_space: global
        .offset: 0
        .size: 8
        .value_kind: global_buffer
    .kernarg_segment_size: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .wavefront_size: 32
    .sgpr_count: 8
    .vgpr_count: 12
    .max_flat_workgroup_size: 32
amdhsa.target: amdgcn-amd-amdhsa--gfx1250
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
