/* A small private array indexed by a uniform value known only at run time (a kernel
 * argument): the compiler keeps it in VGPRs and indexes it through M0 (v_movrels_b32 reads,
 * v_movreld_b32 writes) instead of scratch. */
__kernel void regindex(__global uint *out, __global const uint *in, uint n, uint sel,
                       uint rounds)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	uint x = in[i];
	uint t[16];
	for (uint k = 0; k < 16; k++)
		t[k] = x * (2 * k + 1) + k;
	for (uint k = 0; k < rounds; k++)
		t[(sel + 5 * k) & 15] = t[(sel * 3 + k) & 15] ^ (x >> (k & 31));
	out[2 * i] = t[sel & 15] + t[(sel >> 4) & 15];
	out[2 * i + 1] = t[(sel >> 8) & 15] ^ t[(sel + rounds) & 15];
}
