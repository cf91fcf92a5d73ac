/* A tree reduction in LDS with barriers: each workgroup (at most 256 work-items) sums its
 * elements; integer, so the order of the adds does not matter. */
__kernel void reduce_lds(__global uint *sums, __global const uint *in)
{
	__local uint tmp[256];
	uint lid = (uint)get_local_id(0), n = (uint)get_local_size(0);
	tmp[lid] = in[get_global_id(0)] & 0xffffff;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (uint s = 128; s > 0; s >>= 1) {
		if (lid < s && lid + s < n)
			tmp[lid] += tmp[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (lid == 0)
		sums[get_group_id(0)] = tmp[0];
}
