/* A private array indexed by data (scratch memory): a per-lane table filled, permuted and
 * read back at data-dependent positions. */
__kernel void scratch(__global uint *out, __global const uint *in, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	uint t[48];
	uint x = in[i];
	for (uint k = 0; k < 48; k++)
		t[k] = x * (k + 1) ^ k;
	for (uint k = 0; k < 16; k++) {
		uint p = (x >> (k % 26)) % 48, q = (x + k * 7) % 48;
		uint tmp = t[p];
		t[p] = t[q];
		t[q] = tmp + k;
	}
	out[i] = t[x % 48] ^ t[(x >> 6) % 48];
}
