/*
 * The contract between a kernel compiled as host C (prelude/host.h) and the runtime that runs
 * it (host_runtime.c): the calling work-item's geometry, and the two rendezvous.
 */
#ifndef MIRAGE_REF_WORK_ITEM_H
#define MIRAGE_REF_WORK_ITEM_H

#include <stddef.h>

/* Sub-groups are mirage_sub_group_size consecutive work-items in linear order: a wave, 32
 * (gfx1250) or 64 (gfx942, --sub-group-size 64); at most MIRAGE_SUB_GROUP_MAX. */
#define MIRAGE_SUB_GROUP_MAX 64
extern unsigned mirage_sub_group_size;
#define MIRAGE_MAX_WORKGROUP 1024 /* work-items in a workgroup */

struct mirage_workgroup;

/* The calling work-item, set by host_runtime.c before the kernel runs. */
struct mirage_work_item {
	size_t global_id[3], local_id[3], group_id[3], local_size[3], global_size[3];
	size_t num_groups[3], group_size[3];
	unsigned linear_local_id;
	unsigned sub_group_size; /* work-items in this one's sub-group (the last may be short) */
	struct mirage_workgroup *group;
};
extern _Thread_local struct mirage_work_item mirage_wi;

/* Waits for every work-item of the workgroup. */
void mirage_barrier(void);

/* Every work-item of the sub-group publishes x; all[] gets the sub-group's values in lane
 * order.  Returns the sub-group's size. */
unsigned mirage_sub_group_exchange(unsigned x, unsigned *all);

#endif
