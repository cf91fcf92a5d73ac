/* Wave operations for the ISA decoder's corpus: ballots, readlane scans, mbcnt, bpermute.
 * Built with -nogpulib: every operation is a clang builtin.  GFX9 (gfx942) is wave64: its
 * ballot is 64 bits wide (folded to 32 here), and it has the GFX9 DPP row operations. */
#ifdef __GFX9__
#define BALLOT(c) ((uint)__builtin_amdgcn_ballot_w64(c) ^ (uint)(__builtin_amdgcn_ballot_w64(c) >> 32))
#else
#define BALLOT(c) __builtin_amdgcn_ballot_w32(c)
#endif
#define GID() (__builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x())

kernel void ballots(global uint *out, global const int *in)
{
	uint i = GID();
	int v = in[i];
	uint lane = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
	uint b = BALLOT(v > 0);
	int first = __builtin_amdgcn_readfirstlane(v);
	int l3 = __builtin_amdgcn_readlane(v, 3);
	int sw = __builtin_amdgcn_ds_bpermute((int)((lane ^ 1) * 4), v);
	int scan = v;
	for (int k = 1; k < 32; k <<= 1) {
		int o = __builtin_amdgcn_ds_bpermute((int)((lane - k) * 4), scan);
		scan += lane >= (uint)k ? o : 0;
	}
	out[i] = b + first + l3 + sw + scan + __builtin_popcount(b & ((1u << lane) - 1u));
}

kernel void readlane_scan(global int *out, global const int *in)
{
	uint i = GID();
	int v = in[i];
	int acc = 0;
	for (int k = 0; k < 32; k++)
		acc += __builtin_amdgcn_readlane(v, k);
	out[i] = acc + __builtin_amdgcn_ds_swizzle(v, 0x41f);
}

#ifdef __GFX9__
/* DPP row operations (quad_perm, row_shr, row_bcast) and GFX9 wave shifts. */
kernel void dpp_rows(global int *out, global const int *in)
{
	uint i = GID();
	int v = in[i];
	int q = __builtin_amdgcn_update_dpp(0, v, 0x1b, 0xf, 0xf, false); /* quad_perm:[3,2,1,0] */
	int r = __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, true); /* row_shr:1 */
	int b = __builtin_amdgcn_update_dpp(0, v, 0x142, 0xa, 0xf, false); /* row_bcast:15 */
	int w = __builtin_amdgcn_mov_dpp(v, 0x130, 0xf, 0xf, false); /* wave_shl:1 */
	out[i] = q + r + b + w + __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
#endif
