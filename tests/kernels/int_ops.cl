/* Element-wise integer arithmetic: add, mul, logic, masked shifts, signed shift, min/max,
 * division and remainder by a non-zero divisor; eight results per element. */
__kernel void int_ops(__global uint *out, __global const uint *a, __global const uint *b, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	uint x = a[i], y = b[i];
	uint s = y & 31;
	out[8 * i + 0] = x + y * 3u;
	out[8 * i + 1] = x * y;
	out[8 * i + 2] = (x ^ y) | (x & ~y);
	out[8 * i + 3] = (x << s) ^ (x >> (31 - s));
	out[8 * i + 4] = (uint)((int)x >> s);
	out[8 * i + 5] = min(x, y) - max((int)x, (int)y);
	out[8 * i + 6] = x / (y | 1u);
	out[8 * i + 7] = (uint)((int)x % (int)((y & 0xffff) | 1u));
}
