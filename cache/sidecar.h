/*
 * The sidecar beside every cache entry: one flat JSON object whose values are strings and
 * integers (docs/intercept.md lists its fields).  Written and read here, without a JSON
 * library, because the intercept core reads one on every cache hit and each library it
 * loads is a dlopen in every rank of a job (about 0.1 ms apiece in a VM).
 *
 * The reader takes any JSON text of that shape, as cJSON_Print wrote it in earlier
 * versions too: any whitespace and key order, every string escape (\uXXXX and surrogate
 * pairs), numbers of any form and the literals.  It refuses what no sidecar holds: nested
 * objects and arrays, a field named twice, more than SIDECAR_MAX_FIELDS fields, and a
 * string with a NUL in it.  Errors name the byte offset.
 */
#ifndef MIRAGE_SIDECAR_H
#define MIRAGE_SIDECAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIDECAR_MAX_FIELDS 32

struct sidecar_field {
	const char *name;
	const char *str; /* the value when it is a string, else NULL */
	bool is_uint;    /* the value is a non-negative integer written without fraction or
	                    exponent, at most UINT64_MAX */
	uint64_t uint;
};

struct sidecar {
	size_t n;
	struct sidecar_field field[SIDECAR_MAX_FIELDS];
	char *pool; /* the decoded names and strings */
};

/* 0, or -1 with why ("at byte N: ..."); free with sidecar_free either way. */
int sidecar_parse(struct sidecar *s, const char *text, size_t len, char *why, size_t why_size);
/* The string value of name; NULL when it is absent or not a string. */
const char *sidecar_str(const struct sidecar *s, const char *name);
/* The integer value of name; false when it is absent or not such an integer. */
bool sidecar_uint(const struct sidecar *s, const char *name, uint64_t *out);
void sidecar_free(struct sidecar *s);

/* One field to write: a string when str is set, else the integer. */
struct sidecar_item {
	const char *name;
	const char *str;
	uint64_t uint;
};

/* The object as text (tab-indented, one field a line, as cJSON_Print lays it out), malloc'ed;
 * NULL when out of memory. */
char *sidecar_format(const struct sidecar_item *items, size_t n);

#endif
