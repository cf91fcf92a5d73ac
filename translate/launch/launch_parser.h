/*
 * The launch file parser's shared parts (inside mirage_launch only): the parse in progress, the
 * one error convention (lp_fail: "PATH: FIELD: what", -EINVAL) and the JSON field readers the
 * top level (launch_file.c) and the explicit arguments (launch_args.c) both use.
 */
#ifndef MIRAGE_LAUNCH_PARSER_H
#define MIRAGE_LAUNCH_PARSER_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "launch_file.h"

/* One parse in progress: the file name for messages, its directory for relative paths. */
struct parser {
	const char *path;
	char *dir; /* NULL when the launch file's path has no directory part */
	char **err;
};

/* A field name like "buffers.out.size" or "args[2]", built in a fixed buffer: names are
 * bounded (LAUNCH_MAX_NAME), so it never truncates. */
struct field {
	char s[LAUNCH_MAX_NAME + 64];
};

/* Sets *p->err to "PATH: FIELD: <fmt>" (FIELD may be NULL) and returns -EINVAL. */
int lp_fail(struct parser *p, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "out of memory" through lp_fail; returns -ENOMEM. */
int lp_oom(struct parser *p);
/* rel against the launch file's directory (absolute paths as they are); NULL when out of memory. */
char *lp_resolve(const struct parser *p, const char *rel);
/* Formats a field name into f and returns f->s. */
const char *lp_fieldf(struct field *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "an object", "a string", ...: what a JSON value is, for messages. */
const char *lp_json_kind(const cJSON *j);
/* Every key of obj must be in allowed (NULL-terminated) and appear once. */
int lp_check_keys(struct parser *p, const cJSON *obj, const char *where,
                  const char *const *allowed);
/* A JSON number that is an integer in [lo, hi] (hi at most 2^53, where doubles stay exact). */
int lp_get_uint(struct parser *p, const cJSON *j, const char *field, uint64_t lo, uint64_t hi,
                uint64_t *out);
/* obj[key] as a non-empty string of at most 4096 bytes. */
int lp_get_string(struct parser *p, const cJSON *obj, const char *key, const char *field,
                  const char **out);
/* root[key] as 1 to 3 counts from 1 to max; the missing ones are 1. */
int lp_get_dims(struct parser *p, const cJSON *root, const char *key, uint64_t max,
                uint32_t dims[3]);
/* The "args" array into lf->args (launch_args.c). */
int lp_parse_args(struct parser *p, const cJSON *root, struct launch_file *lf);

#endif
