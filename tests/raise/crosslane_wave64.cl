/* The wave64 (gfx942) cross-lane moves and forms the raiser models, one result buffer each;
 * the expected values come from crosslane_wave64_expect.py's model of the GFX9 ISA. */
__kernel void crosslane(__global uint *out, __global const uint *in)
{
	uint lane = __builtin_amdgcn_workitem_id_x();
	uint v = in[lane];
	ushort lo = (ushort)v, hi = (ushort)(v >> 16);
	ulong b = __builtin_amdgcn_ballot_w64((v & 1) != 0);
	out[0 * 64 + lane] = __builtin_amdgcn_mov_dpp(v, 0x1b, 0xf, 0xf, 0);       /* quad_perm */
	out[1 * 64 + lane] = __builtin_amdgcn_update_dpp(7u, v, 0x111, 0xf, 0xf, 0); /* row_shr:1 */
	out[2 * 64 + lane] = __builtin_amdgcn_update_dpp(7u, v, 0x142, 0xa, 0xf, 0); /* row_bcast:15 */
	out[3 * 64 + lane] = __builtin_amdgcn_update_dpp(7u, v, 0x143, 0xc, 0xf, 0); /* row_bcast:31 */
	out[4 * 64 + lane] = __builtin_amdgcn_update_dpp(7u, v, 0x138, 0xf, 0xf, 0); /* wave_shr:1 */
	out[5 * 64 + lane] = __builtin_amdgcn_update_dpp(7u, v, 0x134, 0xf, 0xf, 0); /* wave_rol:1 */
	out[6 * 64 + lane] = __builtin_amdgcn_readlane(v, 40) + __builtin_amdgcn_readfirstlane(v);
	out[7 * 64 + lane] =
	    __builtin_amdgcn_mbcnt_hi((uint)(b >> 32), __builtin_amdgcn_mbcnt_lo((uint)b, 0u));
	out[8 * 64 + lane] = (uint)(b >> 32) ^ (uint)b;
	out[9 * 64 + lane] = lane >= 40 ? __builtin_amdgcn_readfirstlane(v) : 0xdeadu;
	out[10 * 64 + lane] = (v & 0xffff0000u) | ((v + (v >> 16)) & 0xffffu);
	out[11 * 64 + lane] = (uint)((int)(char)(v >> 8) + (int)(short)(v >> 16));
	out[12 * 64 + lane] = (uint)(ushort)(lo + hi) | (uint)(ushort)(hi * lo) << 16;
}
