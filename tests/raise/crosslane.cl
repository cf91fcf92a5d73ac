/* Cross-lane moves the raiser routes through its rendezvous, one result buffer each; the
 * expected values come from crosslane_expect.py's model of the ISA. */
__kernel void crosslane(__global uint *out, __global const uint *in)
{
	uint lane = __builtin_amdgcn_workitem_id_x();
	uint v = in[lane];
	out[0 * 64 + lane] = __builtin_amdgcn_mov_dpp(v, 0x1b, 0xf, 0xf, 0);   /* quad_perm [3,2,1,0] */
	out[1 * 64 + lane] = __builtin_amdgcn_update_dpp(7u, v, 0x111, 0xf, 0xf, 0); /* row_shr:1 */
	out[2 * 64 + lane] = __builtin_amdgcn_update_dpp(7u, v, 0x101, 0xf, 0xf, 1); /* row_shl:1 bc */
	out[3 * 64 + lane] = __builtin_amdgcn_update_dpp(7u, v, 0x140, 0xf, 0xf, 0); /* row_mirror */
	out[4 * 64 + lane] = __builtin_amdgcn_ds_bpermute((int)(((lane * 7) & 31) * 4), (int)v);
	out[5 * 64 + lane] = __builtin_amdgcn_ds_swizzle((int)v, 0x041f); /* xor 1 */
	out[6 * 64 + lane] = __builtin_amdgcn_permlanex16(v, v, 0x76543210u, 0xfedcba98u, 0, 0);
	out[7 * 64 + lane] = __builtin_amdgcn_readlane(v, 5) + __builtin_amdgcn_readfirstlane(v);
}
