/*
 * What the test kernels need beyond OpenCL C 1.2, for POCL (Debian's 3.1 has no sub-groups):
 * sub-groups of MIRAGE_SUB_GROUP_SIZE (32, or 64 with --sub-group-size 64) consecutive
 * work-items of the workgroup (linear order), as the waves of a gfx1250 (gfx942) workgroup,
 * built from LDS and barriers.  OpenCL C allows __local variables only at
 * a kernel's outermost scope, so a kernel that uses sub-groups opens with
 * MIRAGE_SUB_GROUP_SCRATCH (empty elsewhere), and every work-item of the workgroup must reach
 * each sub-group call (the suite's kernels call them unconditionally).  ref/pocl_ref.c puts
 * this text in front of the kernel's source.
 */
#ifndef MIRAGE_SUB_GROUP_SIZE /* ref/pocl_main.c defines it from --sub-group-size */
#define MIRAGE_SUB_GROUP_SIZE 32
#endif
#define MIRAGE_MAX_WORKGROUP 1024

uint mirage_linear_local_id(void)
{
	return (uint)(get_local_id(2) * get_local_size(1) * get_local_size(0) +
	              get_local_id(1) * get_local_size(0) + get_local_id(0));
}
uint get_sub_group_local_id(void)
{
	return mirage_linear_local_id() % MIRAGE_SUB_GROUP_SIZE;
}
uint get_sub_group_id(void)
{
	return mirage_linear_local_id() / MIRAGE_SUB_GROUP_SIZE;
}
uint get_sub_group_size(void)
{
	uint items = (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
	uint base = get_sub_group_id() * MIRAGE_SUB_GROUP_SIZE;
	return min((uint)MIRAGE_SUB_GROUP_SIZE, items - base);
}

/* Publishes x in this call site's slots and returns the sub-group's base slot. */
#define MIRAGE_SG_EXCHANGE(slots, x)                                                               \
	(barrier(CLK_LOCAL_MEM_FENCE), (slots)[mirage_linear_local_id()] = (x),                    \
	 barrier(CLK_LOCAL_MEM_FENCE), get_sub_group_id() * MIRAGE_SUB_GROUP_SIZE)

uint mirage_sg_fold(__local const uint *s, uint op, uint upto)
{
	uint base = get_sub_group_id() * MIRAGE_SUB_GROUP_SIZE, n = get_sub_group_size();
	uint r = op == 1 ? 1 : 0;
	int m = (int)s[base];
	for (uint l = 0; l < n; l++) {
		uint v = s[base + l];
		if (op == 0) /* any */
			r |= v;
		else if (op == 1) /* all */
			r &= v;
		else if (op == 2) /* sum */
			r += v;
		else if (op == 3) /* sum below this lane (a ballot rank) */
			r += l < upto ? v : 0;
		else if (op == 4) /* sum up to this lane (inclusive scan) */
			r += l <= upto ? v : 0;
		else /* signed max */
			m = max(m, (int)v);
	}
	return op == 5 ? (uint)m : r;
}

#define MIRAGE_SUB_GROUP_SCRATCH __local uint mirage_slots[MIRAGE_MAX_WORKGROUP]
#define MIRAGE_SG_OP(x, op)                                                                        \
	(MIRAGE_SG_EXCHANGE(mirage_slots, (uint)(x)),                                              \
	 mirage_sg_fold(mirage_slots, (op), get_sub_group_local_id()))
#define sub_group_any(p)                 (int)MIRAGE_SG_OP((p) != 0, 0)
#define sub_group_all(p)                 (int)MIRAGE_SG_OP((p) != 0, 1)
#define sub_group_reduce_add(x)          MIRAGE_SG_OP((x), 2)
#define mirage_sub_group_ballot_rank(p)  MIRAGE_SG_OP((p) != 0, 3)
#define mirage_sub_group_ballot_count(p) MIRAGE_SG_OP((p) != 0, 2)
#define sub_group_scan_inclusive_add(x)  MIRAGE_SG_OP((x), 4)
#define sub_group_reduce_max(x)          (int)MIRAGE_SG_OP((x), 5)
#define sub_group_broadcast(x, lane)                                                               \
	mirage_slots[MIRAGE_SG_EXCHANGE(mirage_slots, (uint)(x)) + (lane)]
