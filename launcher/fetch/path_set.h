/*
 * A set of strings (the entry paths extraction has written as symlinks or as
 * files) with O(1) insertion and lookup, so checking every entry against
 * every earlier one stays linear in the archive's size.  Open addressing,
 * keys copied; aborts on OOM like strbuf.
 */
#ifndef MIRAGE_FETCH_PATH_SET_H
#define MIRAGE_FETCH_PATH_SET_H

#include <stdbool.h>
#include <stddef.h>

struct path_set {
	char **slots; /* NULL or an owned key; capacity is a power of two */
	size_t cap, nr;
};
#define PATH_SET_INIT                                                                              \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Adds a copy of key (no-op when present). */
void path_set_add(struct path_set *set, const char *key);
/* True when the first len bytes of key are in the set. */
bool path_set_has(const struct path_set *set, const char *key, size_t len);
/* Frees every key and the table; the set is empty and reusable after. */
void path_set_clear(struct path_set *set);

#endif
