/* Open-addressing string set with FNV-1a hashing and linear probing. */
#include "path_set.h"

#include "strbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t hash(const char *key, size_t len)
{
	uint64_t h = UINT64_C(14695981039346656037);
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * UINT64_C(1099511628211);
	return (size_t)h;
}

/* The slot holding key[0..len), or the empty slot where it belongs. */
static size_t find(char *const *slots, size_t cap, const char *key, size_t len)
{
	size_t i = hash(key, len) & (cap - 1);
	while (slots[i] && !(strlen(slots[i]) == len && !memcmp(slots[i], key, len)))
		i = (i + 1) & (cap - 1);
	return i;
}

static void grow(struct path_set *set)
{
	size_t cap = set->cap ? set->cap * 2 : 64;
	char **slots = xcalloc(cap, sizeof(*slots));
	for (size_t i = 0; i < set->cap; i++)
		if (set->slots[i])
			slots[find(slots, cap, set->slots[i], strlen(set->slots[i]))] =
			    set->slots[i];
	free(set->slots);
	set->slots = slots;
	set->cap = cap;
}

void path_set_add(struct path_set *set, const char *key)
{
	size_t len = strlen(key), i;
	/* At most half full, so probes stay short and find() always meets an empty slot. */
	if (2 * (set->nr + 1) > set->cap)
		grow(set);
	i = find(set->slots, set->cap, key, len);
	if (set->slots[i])
		return;
	set->slots[i] = xstrdup(key);
	set->nr++;
}

bool path_set_has(const struct path_set *set, const char *key, size_t len)
{
	return set->nr && set->slots[find(set->slots, set->cap, key, len)];
}

void path_set_clear(struct path_set *set)
{
	for (size_t i = 0; i < set->cap; i++)
		free(set->slots[i]);
	free(set->slots);
	set->slots = NULL;
	set->cap = set->nr = 0;
}
