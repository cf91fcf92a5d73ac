/* Device-function calls that stay calls (noinline): scalar arguments, a pointer to a private
 * array, and a call chain two deep. */
__attribute__((noinline)) uint mix(uint a, uint b)
{
	a ^= b >> 3;
	return a * 0x9e3779b1u + (b << 5);
}

__attribute__((noinline)) void fill_table(uint *t, uint seed, uint k)
{
	for (uint j = 0; j < 8; j++)
		t[j] = mix(seed, j + k);
}

__attribute__((noinline)) uint pick(const uint *t, uint x)
{
	return mix(t[x & 7], t[(x >> 3) & 7]);
}

__kernel void calls(__global uint *out, __global const uint *in, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	uint t[8];
	fill_table(t, in[i], (uint)i);
	out[i] = pick(t, in[i] >> 7);
}
