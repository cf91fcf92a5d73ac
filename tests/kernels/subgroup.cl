/* Sub-group (wave of 32) operations: any/all, a ballot rank and count, a broadcast from a
 * fixed lane, a readlane-based inclusive scan and reductions.  Every lane of every
 * sub-group calls them at the same point, so the results do not depend on the schedule.
 * MIRAGE_SUB_GROUP_SCRATCH gives POCL's emulation its LDS (empty on the GPU and the host). */
__kernel void subgroup(__global uint *out, __global const uint *in)
{
	MIRAGE_SUB_GROUP_SCRATCH;
	size_t i = get_global_id(0);
	uint x = in[i] & 0xffff;
	uint any = (uint)sub_group_any((x & 0xff) == 7);
	uint all = (uint)sub_group_all(x > 16);
	uint rank = mirage_sub_group_ballot_rank(x & 1);
	uint count = mirage_sub_group_ballot_count(x & 1);
	uint lane3 = sub_group_broadcast(x, 3);
	uint scan = sub_group_scan_inclusive_add(x);
	uint sum = sub_group_reduce_add(x);
	int top = sub_group_reduce_max((int)x - 30000);
	out[6 * i + 0] = any | all << 1 | get_sub_group_local_id() << 2 | get_sub_group_id() << 8;
	out[6 * i + 1] = rank | count << 8;
	out[6 * i + 2] = lane3;
	out[6 * i + 3] = scan;
	out[6 * i + 4] = sum;
	out[6 * i + 5] = (uint)top;
}
