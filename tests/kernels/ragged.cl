/* A grid that is not a multiple of the workgroup: the last workgroup is partial (fewer
 * work-items, a smaller get_local_size), every access is guarded by n, and each workgroup
 * sums its elements in LDS. */
__kernel void ragged(__global uint *out, __global uint *sums, __global const uint *in, uint n)
{
	__local uint tmp[256];
	size_t i = get_global_id(0);
	uint lid = (uint)get_local_id(0), size = (uint)get_local_size(0);
	uint x = i < n ? in[i] : 0;
	if (i < n)
		out[i] = x * 2654435761u;
	tmp[lid] = x >> 8;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = 1; s < size; s <<= 1) {
		if (lid % (2 * s) == 0 && lid + s < size)
			tmp[lid] += tmp[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		sums[get_group_id(0)] = tmp[0];
}
