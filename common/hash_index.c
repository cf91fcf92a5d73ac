/* An open-addressing hash table of indices into a caller's array, for linear-time joins by key. */
#include "hash_index.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* idx1 is the stored index + 1, so a zeroed slot is empty without a separate flag. */
struct hash_index_slot {
	uint64_t hash;
	size_t idx1;
};

#define MIN_SLOTS 16u

/* The murmur3 finalizer: spreads every input bit over the low bits the mask keeps. */
static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= UINT64_C(0xff51afd7ed558ccd);
	h ^= h >> 33;
	h *= UINT64_C(0xc4ceb9fe1a85ec53);
	h ^= h >> 33;
	return h;
}

/* FNV-1a over p[0..n), continuing from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h;
}

#define FNV_BASIS UINT64_C(0xcbf29ce484222325)

uint64_t hash_bytes(const void *p, size_t n)
{
	return mix(fnv(FNV_BASIS, p, n));
}

uint64_t hash_concat(const void *a, size_t na, const void *b, size_t nb)
{
	return mix(fnv(fnv(FNV_BASIS, a, na), b, nb));
}

uint64_t hash_u64(uint64_t v)
{
	return mix(v);
}

void hash_index_free(struct hash_index *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static void place(struct hash_index_slot *slot, size_t mask, uint64_t hash, size_t idx1)
{
	size_t p = (size_t)hash & mask;

	while (slot[p].idx1)
		p = (p + 1) & mask;
	slot[p] = (struct hash_index_slot){hash, idx1};
}

static int grow(struct hash_index *t)
{
	size_t cap = t->slot ? (t->mask + 1) * 2 : MIN_SLOTS;
	struct hash_index_slot *ns;

	if (cap == 0 || cap > SIZE_MAX / sizeof(*ns) || !(ns = calloc(cap, sizeof(*ns))))
		return -ENOMEM;
	for (size_t i = 0; t->slot && i <= t->mask; i++)
		if (t->slot[i].idx1)
			place(ns, cap - 1, t->slot[i].hash, t->slot[i].idx1);
	free(t->slot);
	t->slot = ns;
	t->mask = cap - 1;
	return 0;
}

int hash_index_insert(struct hash_index *t, uint64_t hash, size_t idx)
{
	int rc;

	/* At most half full: probe chains stay short and always end at an empty slot. */
	if (!t->slot || (t->n + 1) * 2 > t->mask + 1) {
		rc = grow(t);
		if (rc)
			return rc;
	}
	place(t->slot, t->mask, hash, idx + 1);
	t->n++;
	return 0;
}

size_t hash_index_find(const struct hash_index *t, uint64_t hash, hash_index_eq_fn eq,
                       const void *ctx)
{
	if (!t->slot)
		return HASH_INDEX_NONE;
	for (size_t p = (size_t)hash & t->mask; t->slot[p].idx1; p = (p + 1) & t->mask)
		if (t->slot[p].hash == hash && eq(ctx, t->slot[p].idx1 - 1))
			return t->slot[p].idx1 - 1;
	return HASH_INDEX_NONE;
}
