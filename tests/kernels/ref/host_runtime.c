/* The host-C reference's work-item threads, barriers and sub-group exchange. */
#include "host_runtime.h"
#include "work_item.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned int uint;
_Thread_local struct mirage_work_item mirage_wi;
unsigned mirage_sub_group_size = 32;

struct mirage_workgroup {
	pthread_barrier_t barrier;
	pthread_barrier_t sub_group[MIRAGE_MAX_WORKGROUP / 32]; /* the narrowest sub-groups */
	uint slots[MIRAGE_MAX_WORKGROUP];
};

struct thread_arg {
	const struct mirage_host_kernel *kernel;
	void *const *args;
	struct mirage_work_item wi;
};

void mirage_barrier(void)
{
	pthread_barrier_wait(&mirage_wi.group->barrier);
}

/* The second rendezvous keeps the slots until every work-item of the sub-group has read
 * them. */
uint mirage_sub_group_exchange(uint x, uint *all)
{
	struct mirage_workgroup *g = mirage_wi.group;
	uint sg = mirage_wi.linear_local_id / mirage_sub_group_size;
	uint base = sg * mirage_sub_group_size, n = mirage_wi.sub_group_size;
	g->slots[mirage_wi.linear_local_id] = x;
	pthread_barrier_wait(&g->sub_group[sg]);
	memcpy(all, &g->slots[base], n * sizeof *all);
	pthread_barrier_wait(&g->sub_group[sg]);
	return n;
}

static void *work_item(void *p)
{
	struct thread_arg *t = p;
	mirage_wi = t->wi;
	t->kernel->entry(t->args);
	return NULL;
}

int mirage_host_run(const struct mirage_host_kernel *k, void *const *args, const uint32_t grid[3],
                    const uint32_t workgroup[3], const char **err)
{
	size_t groups[3];
	struct mirage_workgroup *g = calloc(1, sizeof *g);
	struct thread_arg *t = calloc(MIRAGE_MAX_WORKGROUP, sizeof *t);
	pthread_t *th = calloc(MIRAGE_MAX_WORKGROUP, sizeof *th);
	pthread_attr_t attr;
	int rc = -1;
	*err = "out of memory";
	if (!g || !t || !th)
		goto done;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 1 << 20);
	for (int d = 0; d < 3; d++)
		groups[d] = (grid[d] + workgroup[d] - 1) / workgroup[d];
	for (size_t gz = 0; gz < groups[2]; gz++)
		for (size_t gy = 0; gy < groups[1]; gy++)
			for (size_t gx = 0; gx < groups[0]; gx++) {
				size_t gid[3] = {gx, gy, gz}, size[3];
				uint items = 1, started = 0;
				for (int d = 0; d < 3; d++) {
					size_t rest = grid[d] - gid[d] * workgroup[d];
					size[d] = rest < workgroup[d] ? rest : workgroup[d];
					items *= (uint)size[d];
				}
				pthread_barrier_init(&g->barrier, NULL, items);
				for (uint s = 0; s * mirage_sub_group_size < items; s++) {
					uint left = items - s * mirage_sub_group_size;
					pthread_barrier_init(&g->sub_group[s], NULL,
					                     left < mirage_sub_group_size
					                         ? left
					                         : mirage_sub_group_size);
				}
				for (uint i = 0; i < items; i++) {
					struct mirage_work_item *wi = &t[i].wi;
					size_t lid[3] = {i % size[0], i / size[0] % size[1],
					                 i / size[0] / size[1]};
					uint sg_base =
					    i / mirage_sub_group_size * mirage_sub_group_size;
					memset(wi, 0, sizeof *wi);
					for (int d = 0; d < 3; d++) {
						wi->local_id[d] = lid[d];
						wi->group_id[d] = gid[d];
						wi->local_size[d] = size[d];
						wi->group_size[d] = workgroup[d];
						wi->global_size[d] = grid[d];
						wi->num_groups[d] = groups[d];
						wi->global_id[d] = gid[d] * workgroup[d] + lid[d];
					}
					wi->linear_local_id = i;
					wi->sub_group_size = items - sg_base < mirage_sub_group_size
					                         ? items - sg_base
					                         : mirage_sub_group_size;
					wi->group = g;
					t[i].kernel = k;
					t[i].args = args;
				}
				for (; started < items; started++) {
					if (pthread_create(&th[started], &attr, work_item,
					                   &t[started]))
						break;
				}
				if (started < items) {
					/* Threads already started wait at a barrier nobody else
					 * reaches: stop here rather than hang (the process exits).
					 */
					*err = "cannot start a thread per work-item";
					goto done_attr;
				}
				for (uint i = 0; i < items; i++)
					pthread_join(th[i], NULL);
				pthread_barrier_destroy(&g->barrier);
				for (uint s = 0; s * mirage_sub_group_size < items; s++)
					pthread_barrier_destroy(&g->sub_group[s]);
			}
	rc = 0;
	*err = NULL;
done_attr:
	pthread_attr_destroy(&attr);
done:
	if (rc == 0) {
		free(g);
		free(t);
		free(th);
	}
	return rc;
}
