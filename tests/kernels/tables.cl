/*
 * tables: lookups in program-scope __constant tables indexed by data.  The compiler puts the
 * tables in the object's .rodata and the kernel reaches them from its own code address
 * (s_get_pc_i64 plus a PC-relative offset), so they run only where the object's loaded image
 * is mapped (docs/emulate.md, "The code object's own data"; docs/translate.md carries it into
 * the translation): a nibble-wise CRC-32 over each input word, and a float from a table of
 * 16 constants chosen by the input's bits.
 */
#pragma OPENCL FP_CONTRACT OFF

/* CRC-32 (reflected, polynomial 0xedb88320) of each nibble value. */
__constant uint crc_nibble[16] = {
    0x00000000u, 0x1db71064u, 0x3b6e20c8u, 0x26d930acu, 0x76dc4190u, 0x6b6b51f4u,
    0x4db26158u, 0x5005713cu, 0xedb88320u, 0xf00f9344u, 0xd6d6a3e8u, 0xcb61b38cu,
    0x9b64c2b0u, 0x86d3d2d4u, 0xa00ae278u, 0xbdbdf21cu};

__constant float scale[16] = {0.5f,  -1.25f, 3.0f,   1e-3f,  -7.5f, 0.0f,   2.0e10f, -0.0f,
                              1.75f, 9.5f,   -3.25f, 6.0e-8f, 12.0f, -100.f, 0.125f,  42.0f};

__kernel void crc_words(__global uint *out, __global const uint *in, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	uint crc = 0xffffffffu, w = in[i];
	for (int k = 0; k < 8; k++) {
		crc = crc_nibble[(crc ^ w) & 15u] ^ (crc >> 4);
		w >>= 4;
	}
	out[i] = ~crc;
}

__kernel void scaled(__global float *out, __global const uint *in, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	uint w = in[i];
	out[i] = scale[w & 15u] * (float)(w >> 8) + scale[(w >> 4) & 15u];
}
