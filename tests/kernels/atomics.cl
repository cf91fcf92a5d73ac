/* Integer atomics: a 64-bin histogram in LDS merged into global memory, and global max, or,
 * xor, a counter (stats, starting at 0) and min (mins, starting at all ones); only the final
 * values are stored, which no order of the atomics changes. */
__kernel void atomics(__global uint *hist, __global uint *stats, __global uint *mins,
		      __global const uint *in, uint n)
{
	__local uint bins[64];
	uint lid = (uint)get_local_id(0);
	size_t i = get_global_id(0);
	for (uint b = lid; b < 64; b += (uint)get_local_size(0))
		bins[b] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (i < n) {
		uint x = in[i];
		atomic_inc(&bins[x & 63]);
		atomic_max(&stats[0], x);
		atomic_or(&stats[1], x & 0x0f0f0f0fu);
		atomic_xor(&stats[2], x);
		atomic_add(&stats[3], 1u);
		atomic_max((volatile __global int *)&stats[4], (int)x);
		atomic_min(&mins[0], x);
		atomic_min((volatile __global int *)&mins[1], (int)x);
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint b = lid; b < 64; b += (uint)get_local_size(0))
		atomic_add(&hist[b], bins[b]);
}
