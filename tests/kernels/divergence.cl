/* Divergent if/else on data: each side loads and computes on its own, so the compiler masks
 * lanes (v_cmpx, s_cbranch_execz) instead of selecting. */
__kernel void divergence(__global uint *out, __global uint *side, __global const uint *a,
			 __global const uint *b, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	uint x = a[i];
	if (x & 1) {
		out[i] = b[(x >> 1) % n] * 7u;
	} else if (x & 2) {
		out[i] = b[i] ^ 0x5a5a5a5au;
		side[i] = x / 3u;
	} else {
		out[i] = x >> 3;
	}
}
