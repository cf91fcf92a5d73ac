/* NULL-terminated vectors of owned strings, for argv and envp (after git's strvec). */
#ifndef MIRAGE_STRVEC_H
#define MIRAGE_STRVEC_H

#include <stddef.h>

/*
 * Invariants: v is never NULL and v[nr] == NULL, so v can be passed straight
 * to execve().  Every element is owned by the vector.  Release with
 * strvec_clear().
 */
struct strvec {
	const char **v;
	size_t nr;
	size_t alloc;
};

extern const char *strvec_empty_[];
#define STRVEC_INIT                                                                                \
	{                                                                                          \
		strvec_empty_, 0, 0                                                                \
	}

void strvec_init(struct strvec *sv);
void strvec_clear(struct strvec *sv);
/* Appends a copy of s. */
const char *strvec_push(struct strvec *sv, const char *s);
/* Appends s and takes ownership of it (s must come from malloc). */
const char *strvec_push_nodup(struct strvec *sv, char *s);
const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strvec_pushv(struct strvec *sv, const char *const *items);
/* Inserts a copy of s at index i (0 <= i <= nr). */
void strvec_insert(struct strvec *sv, size_t i, const char *s);
/* Removes and frees element i. */
void strvec_remove(struct strvec *sv, size_t i);
/* Replaces element i with a copy of s. */
void strvec_replace(struct strvec *sv, size_t i, const char *s);
/* Returns the index of the first element equal to s, or -1. */
long strvec_find(const struct strvec *sv, const char *s);
/* Returns the index of the first "name=..." element (an environment lookup), or -1. */
long strvec_find_key(const struct strvec *sv, const char *name);
/* Splits s at any of the bytes in seps, dropping empty fields, and appends each field. */
void strvec_split(struct strvec *sv, const char *s, const char *seps);
/* Sorts the elements from index from to the end, bytewise (strcmp order). */
void strvec_sort(struct strvec *sv, size_t from);
/* Joins the elements with sep into a new string the caller frees. */
char *strvec_join(const struct strvec *sv, const char *sep);

#endif
