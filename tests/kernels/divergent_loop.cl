/* Loops whose trip count differs per lane (up to 63 iterations, with an early exit). */
__kernel void divergent_loop(__global uint *out, __global const uint *a, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	uint x = a[i], trips = x & 63, acc = x;
	for (uint k = 0; k < trips; k++) {
		acc = acc * 1664525u + 1013904223u;
		if ((acc >> 28) == 0xf)
			break;
	}
	uint steps = 0;
	for (uint v = (x >> 8) | 1; v != 1 && steps < 200; steps++)
		v = (v & 1) ? 3 * v + 1 : v >> 1;
	out[2 * i] = acc;
	out[2 * i + 1] = steps;
}
