/* Whole strings of an ELF string table by content, so appending n names costs O(table + n). */
#include "hs_internal.h"

#include <stdlib.h>
#include <string.h>

struct strtab_key {
	const struct hs_strtab_index *s;
	const char *name;
};

static bool strtab_eq(const void *ctx, size_t i)
{
	const struct strtab_key *key = ctx;

	return !strcmp((const char *)key->s->tab + key->s->off[i], key->name);
}

/* The entry holding name, or HASH_INDEX_NONE. */
static size_t lookup(const struct hs_strtab_index *s, const char *name, size_t len)
{
	struct strtab_key key = {s, name};

	return hash_index_find(&s->index, hash_bytes(name, len), strtab_eq, &key);
}

enum hs_status hs_strtab_index_build(struct hs_strtab_index *s, const uint8_t *tab, size_t size)
{
	size_t pos = 0, nuls = 0;
	const uint8_t *p;

	memset(s, 0, sizeof(*s));
	s->tab = tab;
	/* Every indexed string ends at its own NUL: their count bounds the entries. */
	for (pos = 0; pos < size && (p = memchr(tab + pos, 0, size - pos)); pos = p - tab + 1)
		nuls++;
	s->off = malloc((nuls ? nuls : 1) * sizeof(*s->off));
	if (!s->off)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	/*
	 * A string starts at offset 0 or right after a NUL and must end with a NUL
	 * inside the table (an unterminated tail is no string); suffixes of longer
	 * strings are not strings of their own.  The first copy of each wins.
	 */
	for (pos = 0; pos < size && (p = memchr(tab + pos, 0, size - pos)); pos = p - tab + 1) {
		const char *str = (const char *)tab + pos;
		size_t len = (size_t)(p - (tab + pos));
		enum hs_status st;

		if (lookup(s, str, len) != HASH_INDEX_NONE)
			continue;
		st = hs_index_insert(&s->index, hash_bytes(str, len), s->n);
		if (st)
			return st;
		s->off[s->n++] = pos;
	}
	return HS_OK;
}

size_t hs_strtab_index_find(const struct hs_strtab_index *s, const char *name)
{
	size_t i = lookup(s, name, strlen(name));

	return i == HASH_INDEX_NONE ? HASH_INDEX_NONE : s->off[i];
}

void hs_strtab_index_free(struct hs_strtab_index *s)
{
	free(s->off);
	hash_index_free(&s->index);
	memset(s, 0, sizeof(*s));
}
