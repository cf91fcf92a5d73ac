/*
 * What the corpus build puts in front of every hashcat source (clang -include for gfx1250;
 * run.sh gives the same file to POCL as its prelude, where only the portable part applies).
 *
 * cl_amd_media_ops' amd_bitalign, which hashcat's AMD code path uses for 64-bit rotates and
 * which libclc does not provide (AMD's own OpenCL runtime does): the low 32 bits of the
 * 64-bit a:b shifted right by c & 31, one v_alignbit_b32 on the GPU.
 */
uint __attribute__((overloadable)) amd_bitalign(uint a, uint b, uint c)
{
#ifdef __AMDGCN__
	return __builtin_amdgcn_alignbit(a, b, c);
#else
	return (uint)((((ulong)a << 32) | b) >> (c & 31));
#endif
}

#ifdef __AMDGCN__
/*
 * The work-item functions that read the implicit arguments, as a ROCm (code object v5)
 * dispatch lays them out: hidden_global_offset_x/y/z (u64) at +40, hidden_grid_dims (u16) at
 * +64.  libclc-22 reads Mesa's layout instead (work_dim at +0, u32 global offsets at +4),
 * which under code object v5 is hidden_block_count_x/y/z: its get_global_id(0) would be the
 * work-item's id plus the grid's workgroup count in y (1 for a 1-D grid).  The ROCm device
 * libraries, which hashcat's AMD build links, read these fields.
 */
size_t __attribute__((overloadable, const)) get_global_offset(uint d)
{
	return d < 3 ? ((__constant ulong *)__builtin_amdgcn_implicitarg_ptr())[5 + d] : 0;
}

size_t __attribute__((overloadable, const)) get_global_id(uint d)
{
	/* The enqueued workgroup size from the dispatch packet, as libclc reads it. */
	__constant ushort *packet = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
	return d < 3 ? get_group_id(d) * packet[2 + d] + get_local_id(d) + get_global_offset(d) : 0;
}

uint __attribute__((overloadable, const)) get_work_dim(void)
{
	return ((__constant ushort *)__builtin_amdgcn_implicitarg_ptr())[32];
}
#endif
