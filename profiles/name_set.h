/* A set of names, for refusing duplicates in linear time (an [env] table may be long). */
#ifndef MIRAGE_NAME_SET_H
#define MIRAGE_NAME_SET_H

#include <stdbool.h>
#include <stddef.h>

/* Open addressing over copies of the names.  Release with name_set_release(). */
struct name_set {
	char **slots; /* cap entries, NULL when free */
	size_t nr, cap;
};
#define NAME_SET_INIT                                                                              \
	{                                                                                          \
		NULL, 0, 0                                                                         \
	}

/* Adds a copy of name; returns false (and adds nothing) when it is there already. */
bool name_set_add(struct name_set *s, const char *name);
void name_set_release(struct name_set *s);

#endif
