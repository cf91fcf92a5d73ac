/* Wave operations for the ISA decoder's corpus: ballots, readlane scans, mbcnt, bpermute.
 * Built with -nogpulib: every operation is a clang builtin. */
#define GID() (__builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x())

kernel void ballots(global uint *out, global const int *in)
{
	uint i = GID();
	int v = in[i];
	uint lane = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
	uint b = __builtin_amdgcn_ballot_w32(v > 0);
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
