/* A small locked hash map from reader handle to the reader's bytes. */
#include "readers.h"

#include <pthread.h>
#include <stdlib.h>

#define NBUCKETS 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct hsi_reader *buckets[NBUCKETS];

static struct hsi_reader **slot_of(uint64_t handle)
{
	struct hsi_reader **p = &buckets[(handle >> 4) % NBUCKETS];
	while (*p && (*p)->handle != handle)
		p = &(*p)->next;
	return p;
}

static void destroy(struct hsi_reader *r)
{
	free(r->bytes);
	free(r->uri);
	free(r);
}

static void unlink_locked(uint64_t handle)
{
	struct hsi_reader **p = slot_of(handle), *r = *p;
	if (!r)
		return;
	*p = r->next;
	r->removed = 1;
	if (!r->refs)
		destroy(r);
}

int hsi_readers_add(uint64_t handle, void *bytes, size_t size, char *uri)
{
	struct hsi_reader *r = calloc(1, sizeof(*r));
	if (!r) {
		free(bytes);
		free(uri);
		return -1;
	}
	r->handle = handle;
	r->bytes = bytes;
	r->size = size;
	r->uri = uri;
	pthread_mutex_lock(&lock);
	/* A handle the runtime reuses after a destroy we did not see replaces the stale entry. */
	unlink_locked(handle);
	r->next = buckets[(handle >> 4) % NBUCKETS];
	buckets[(handle >> 4) % NBUCKETS] = r;
	pthread_mutex_unlock(&lock);
	return 0;
}

struct hsi_reader *hsi_readers_get(uint64_t handle)
{
	struct hsi_reader *r;
	pthread_mutex_lock(&lock);
	r = *slot_of(handle);
	if (r)
		r->refs++;
	pthread_mutex_unlock(&lock);
	return r;
}

void hsi_readers_put(struct hsi_reader *r)
{
	if (!r)
		return;
	pthread_mutex_lock(&lock);
	if (--r->refs == 0 && r->removed)
		destroy(r);
	pthread_mutex_unlock(&lock);
}

void hsi_readers_remove(uint64_t handle)
{
	pthread_mutex_lock(&lock);
	unlink_locked(handle);
	pthread_mutex_unlock(&lock);
}
