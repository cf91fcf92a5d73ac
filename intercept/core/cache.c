/* In-process, single-flight translation cache (see cache.h for the contract). */
#include "cache.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum entry_state {
	ENTRY_PENDING,
	ENTRY_READY,
	ENTRY_FAILED,   /* unlinked; freed by the last waiter of its flight */
	ENTRY_REJECTED, /* stays in the table: every later lookup fails with its reason */
};

struct entry {
	uint8_t key[HSI_KEY_LEN];
	enum entry_state state;
	unsigned waiters;     /* threads sleeping on this flight (keep a failed entry alive) */
	struct hsi_blob blob; /* READY */
	char err[256];        /* FAILED, REJECTED */
	struct entry *next;
};

#define NBUCKETS 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
static struct entry *buckets[NBUCKETS];
static size_t ready_count, rejected_count;

static struct entry **slot_of(const uint8_t *key)
{
	struct entry **p = &buckets[key[0] % NBUCKETS];
	while (*p && memcmp((*p)->key, key, HSI_KEY_LEN))
		p = &(*p)->next;
	return p;
}

static void unlink_entry(struct entry *e)
{
	struct entry **p = slot_of(e->key);
	if (*p == e)
		*p = e->next;
}

enum hsi_cache_outcome hsi_cache_get(const uint8_t key[HSI_KEY_LEN], hsi_produce_fn produce,
                                     void *ctx, struct hsi_blob *out, char *err, size_t err_size)
{
	struct entry *e;
	struct hsi_blob blob = {0};
	char perr[256] = "";
	int rc;

	pthread_mutex_lock(&lock);
	e = *slot_of(key);
	if (e) {
		e->waiters++;
		while (e->state == ENTRY_PENDING)
			pthread_cond_wait(&done, &lock);
		e->waiters--;
		if (e->state == ENTRY_READY) {
			*out = e->blob;
			pthread_mutex_unlock(&lock);
			return HSI_CACHE_HIT;
		}
		/* The flight failed: report its reason; the last waiter frees an unlinked entry. */
		snprintf(err, err_size, "%s", e->err);
		if (e->state == ENTRY_FAILED && !e->waiters)
			free(e);
		pthread_mutex_unlock(&lock);
		return HSI_CACHE_FAILED;
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		pthread_mutex_unlock(&lock);
		snprintf(err, err_size, "out of memory");
		return HSI_CACHE_FAILED;
	}
	memcpy(e->key, key, HSI_KEY_LEN);
	e->state = ENTRY_PENDING;
	e->next = buckets[key[0] % NBUCKETS];
	buckets[key[0] % NBUCKETS] = e;
	pthread_mutex_unlock(&lock);

	rc = produce(ctx, &blob, perr, sizeof(perr));

	pthread_mutex_lock(&lock);
	if (rc == HSI_PRODUCED) {
		e->blob = blob;
		e->state = ENTRY_READY;
		ready_count++;
		*out = blob;
	} else {
		snprintf(e->err, sizeof(e->err), "%s", perr);
		snprintf(err, err_size, "%s", perr);
		if (rc == HSI_PRODUCE_REJECTED) {
			/* The same bytes fail the same way: keep the failure, not retry it per
			 * load. */
			e->state = ENTRY_REJECTED;
			rejected_count++;
		} else {
			/* Maybe transient: unlink now so the next load tries again. */
			unlink_entry(e);
			e->state = ENTRY_FAILED;
		}
	}
	pthread_cond_broadcast(&done);
	if (e->state == ENTRY_FAILED && !e->waiters)
		free(e);
	pthread_mutex_unlock(&lock);
	return rc == HSI_PRODUCED ? HSI_CACHE_PRODUCED : HSI_CACHE_FAILED;
}

static size_t read_count(const size_t *count)
{
	size_t n;
	pthread_mutex_lock(&lock);
	n = *count;
	pthread_mutex_unlock(&lock);
	return n;
}

size_t hsi_cache_size(void)
{
	return read_count(&ready_count);
}

size_t hsi_cache_rejected(void)
{
	return read_count(&rejected_count);
}

#ifdef MIRAGE_UNIT_TESTS
void hsi_cache_reset(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < NBUCKETS; i++) {
		struct entry *e = buckets[i];
		while (e) {
			struct entry *next = e->next;
			free((void *)e->blob.data);
			free((void *)e->blob.refused);
			free(e);
			e = next;
		}
		buckets[i] = NULL;
	}
	ready_count = rejected_count = 0;
	pthread_mutex_unlock(&lock);
}
#endif
