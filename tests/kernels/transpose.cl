/* 2-D indexing: a transpose of a width x height matrix with a 2-D grid, each element mixed
 * with both coordinates. */
__kernel void transpose(__global uint *out, __global const uint *in, uint width, uint height)
{
	size_t x = get_global_id(0), y = get_global_id(1);
	if (x >= width || y >= height)
		return;
	out[x * height + y] = in[y * width + x] + (uint)(x << 16) + (uint)y;
}
