/* valmap.h: linear probing over a power-of-two table, grown at half load. */
#include "valmap.h"

#include <stdint.h>
#include <stdlib.h>

static size_t slot_of(const void *key, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)key * UINT64_C(0x9e3779b97f4a7c15);
	return (size_t)(h >> 20) & (cap - 1);
}

int valmap_get(const struct valmap *m, const void *key)
{
	if (!m->cap)
		return -1;
	for (size_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->keys[i])
			return -1;
		if (m->keys[i] == key)
			return m->vals[i];
	}
}

static int grow(struct valmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64;
	const void **keys = calloc(cap, sizeof(*keys));
	int *vals = calloc(cap, sizeof(*vals));
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;
		if (!m->keys[i])
			continue;
		for (j = slot_of(m->keys[i], cap); keys[j]; j = (j + 1) & (cap - 1))
			;
		keys[j] = m->keys[i];
		vals[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int valmap_put(struct valmap *m, const void *key, int val)
{
	size_t i;
	if (2 * (m->n + 1) > m->cap && grow(m))
		return -1;
	for (i = slot_of(key, m->cap); m->keys[i] && m->keys[i] != key; i = (i + 1) & (m->cap - 1))
		;
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

void valmap_free(struct valmap *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = NULL;
	m->vals = NULL;
	m->cap = m->n = 0;
}
