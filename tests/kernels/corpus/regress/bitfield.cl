/*
 * The raiser bug the corpus run found first (hashcat's set_mark_1x4_S, m00400_loop and every
 * md5_final past 16 bytes): clang folds (x >> 2) & 3 into v_bfe_u32, which mirage raised as
 * x >> 2.  Both extracts, unsigned and signed, from ids wide enough to have bits above the
 * field.
 */
__kernel void bitfield(__global uint *out)
{
	uint g = (uint)get_global_id(0);
	out[g] = (g >> 2) & 3;
	out[get_global_size(0) + g] = (uint)(((int)g << 28) >> 30);
}
