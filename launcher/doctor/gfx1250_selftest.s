// The doctor's built-in code object: one gfx1250 kernel without the erratum
// prologue, so an entry-trampoline rewrite must stub it.  Assembled by
// llvm-mc-22 and linked by ld.lld-22 at build time (discovery/CMakeLists.txt).
	.amdgcn_target "amdgcn-amd-amdhsa--gfx1250"
	.text
	.globl	mirage_selftest
	.p2align	8
	.type	mirage_selftest,@function
mirage_selftest:
	s_mov_b32 s2, 0
	s_endpgm
.Lfunc_end0:
	.size	mirage_selftest, .Lfunc_end0-mirage_selftest

	.rodata
	.p2align	6
	.amdhsa_kernel mirage_selftest
		.amdhsa_next_free_vgpr 1
		.amdhsa_next_free_sgpr 8
	.end_amdhsa_kernel

	.amdgpu_metadata
---
amdhsa.kernels:
  - .name:            mirage_selftest
    .symbol:          mirage_selftest.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 4
    .wavefront_size:  32
    .sgpr_count:      8
    .vgpr_count:      1
    .max_flat_workgroup_size: 256
    .args: []
amdhsa.target:   amdgcn-amd-amdhsa--gfx1250
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
