/*
 * cl_amd_media_ops' amd_bitalign, which hashcat's AMD code path uses for 64-bit rotates and
 * which libclc does not provide (AMD's own OpenCL runtime does): the low 32 bits of the
 * 64-bit a:b shifted right by c & 31, one v_alignbit_b32 on the GPU.  The same definition in
 * plain OpenCL C for the POCL reference (corpus/run.sh passes this file as its prelude).
 */
uint __attribute__((overloadable)) amd_bitalign(uint a, uint b, uint c)
{
#ifdef __AMDGCN__
	return __builtin_amdgcn_alignbit(a, b, c);
#else
	return (uint)((((ulong)a << 32) | b) >> (c & 31));
#endif
}
