/* FNV-1a and linear probing, kept at most half full. */
#include "name_set.h"

#include "strbuf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t hash(const char *name)
{
	uint64_t h = 14695981039346656037u;
	for (const unsigned char *c = (const unsigned char *)name; *c; c++)
		h = (h ^ *c) * 1099511628211u;
	return (size_t)h;
}

/* The slot holding name, or the free slot where it belongs. */
static char **find(char **slots, size_t cap, const char *name)
{
	size_t i = hash(name) & (cap - 1);
	while (slots[i] && strcmp(slots[i], name))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void grow(struct name_set *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	char **slots = xcalloc(cap, sizeof(*slots));
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i])
			*find(slots, cap, s->slots[i]) = s->slots[i];
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
}

bool name_set_add(struct name_set *s, const char *name)
{
	char **slot;
	if (2 * (s->nr + 1) > s->cap)
		grow(s);
	slot = find(s->slots, s->cap, name);
	if (*slot)
		return false;
	*slot = xstrdup(name);
	s->nr++;
	return true;
}

void name_set_release(struct name_set *s)
{
	for (size_t i = 0; i < s->cap; i++)
		free(s->slots[i]);
	free(s->slots);
	s->slots = NULL;
	s->nr = s->cap = 0;
}
