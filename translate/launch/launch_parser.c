/* The launch file parser's error convention and JSON field readers (launch_parser.h). */
#include "launch_parser.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "str_fmt.h"

int lp_fail(struct parser *p, const char *field, const char *fmt, ...)
{
	va_list ap;
	char *what;
	va_start(ap, fmt);
	what = str_vfmt(fmt, ap);
	va_end(ap);
	if (p->err) {
		if (asprintf(p->err, "%s: %s%s%s", p->path, field ? field : "", field ? ": " : "",
		             what ? what : "out of memory") < 0)
			*p->err = NULL;
	}
	free(what);
	return -EINVAL;
}

int lp_oom(struct parser *p)
{
	lp_fail(p, NULL, "out of memory");
	return -ENOMEM;
}

char *lp_resolve(const struct parser *p, const char *rel)
{
	char *out;
	if (rel[0] == '/' || !p->dir)
		return strdup(rel);
	if (asprintf(&out, "%s%s%s", p->dir, strcmp(p->dir, "/") ? "/" : "", rel) < 0)
		return NULL;
	return out;
}

const char *lp_fieldf(struct field *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->s, sizeof f->s, fmt, ap);
	va_end(ap);
	return f->s;
}

const char *lp_json_kind(const cJSON *j)
{
	if (cJSON_IsObject(j))
		return "an object";
	if (cJSON_IsArray(j))
		return "an array";
	if (cJSON_IsString(j))
		return "a string";
	if (cJSON_IsNumber(j))
		return "a number";
	if (cJSON_IsBool(j))
		return "a boolean";
	return "null";
}

/* Every key of obj must be in allowed (NULL-terminated) and appear once. */
int lp_check_keys(struct parser *p, const cJSON *obj, const char *where, const char *const *allowed)
{
	const cJSON *k, *k2;
	struct field f;
	cJSON_ArrayForEach(k, obj)
	{
		int known = 0;
		for (const char *const *a = allowed; *a; a++)
			known |= strcmp(*a, k->string) == 0;
		if (!known) {
			char list[256] = "";
			for (const char *const *a = allowed; *a; a++) {
				strncat(list, *a, sizeof list - strlen(list) - 1);
				if (a[1])
					strncat(list, ", ", sizeof list - strlen(list) - 1);
			}
			return lp_fail(p, where ? where : NULL,
			               "unknown field '%.64s' (expected %s)", k->string, list);
		}
		for (k2 = obj->child; k2 != k; k2 = k2->next) {
			if (strcmp(k2->string, k->string) == 0)
				return lp_fail(
				    p, where ? lp_fieldf(&f, "%s.%s", where, k->string) : k->string,
				    "given twice");
		}
	}
	return 0;
}

/* A JSON number that is an integer in [lo, hi] (hi at most 2^53, where doubles stay exact). */
int lp_get_uint(struct parser *p, const cJSON *j, const char *field, uint64_t lo, uint64_t hi,
                uint64_t *out)
{
	double d;
	if (!cJSON_IsNumber(j))
		goto bad;
	d = j->valuedouble;
	if (!(d >= (double)lo && d <= (double)hi) || floor(d) != d)
		goto bad;
	*out = (uint64_t)d;
	return 0;
bad:
	if (lo == 1 && hi > LAUNCH_MAX_WORKGROUP)
		return lp_fail(p, field, "expected a positive integer up to %llu",
		               (unsigned long long)hi);
	return lp_fail(p, field, "expected an integer from %llu to %llu", (unsigned long long)lo,
	               (unsigned long long)hi);
}

int lp_get_string(struct parser *p, const cJSON *obj, const char *key, const char *field,
                  const char **out)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!j)
		return lp_fail(p, field, "missing");
	if (!cJSON_IsString(j) || !j->valuestring[0])
		return lp_fail(p, field, "expected a non-empty string, got %s",
		               cJSON_IsString(j) ? "an empty string" : lp_json_kind(j));
	if (strlen(j->valuestring) > 4096)
		return lp_fail(p, field, "longer than 4096 bytes");
	*out = j->valuestring;
	return 0;
}

int lp_get_dims(struct parser *p, const cJSON *root, const char *key, uint64_t max,
                uint32_t dims[3])
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(root, key), *e;
	int n = 0, rc;
	struct field f;
	if (!j)
		return lp_fail(p, key, "missing");
	if (!cJSON_IsArray(j) || cJSON_GetArraySize(j) < 1 || cJSON_GetArraySize(j) > 3)
		return lp_fail(p, key, "expected an array of 1 to 3 work-item counts");
	dims[0] = dims[1] = dims[2] = 1;
	cJSON_ArrayForEach(e, j)
	{
		uint64_t v;
		if ((rc = lp_get_uint(p, e, lp_fieldf(&f, "%s[%d]", key, n), 1, max, &v)))
			return rc;
		dims[n++] = (uint32_t)v;
	}
	return 0;
}
