/* NULL-terminated string vectors. */
#include "strvec.h"

#include "strbuf.h"

#include <stdarg.h>
#include <string.h>
#include <stdlib.h>

const char *strvec_empty_[] = {NULL};

void strvec_init(struct strvec *sv)
{
	sv->v = strvec_empty_;
	sv->nr = 0;
	sv->alloc = 0;
}

void strvec_clear(struct strvec *sv)
{
	if (sv->v != strvec_empty_) {
		for (size_t i = 0; i < sv->nr; i++)
			free((char *)sv->v[i]);
		free(sv->v);
	}
	strvec_init(sv);
}

static void strvec_reserve(struct strvec *sv, size_t extra)
{
	if (sv->nr + extra + 1 <= sv->alloc)
		return;
	size_t n = sv->alloc ? sv->alloc * 2 : 8;
	while (n < sv->nr + extra + 1)
		n *= 2;
	if (sv->v == strvec_empty_) {
		sv->v = xcalloc(n, sizeof(*sv->v));
	} else {
		sv->v = xrealloc(sv->v, n * sizeof(*sv->v));
	}
	sv->alloc = n;
}

const char *strvec_push_nodup(struct strvec *sv, char *s)
{
	strvec_reserve(sv, 1);
	sv->v[sv->nr++] = s;
	sv->v[sv->nr] = NULL;
	return s;
}

const char *strvec_push(struct strvec *sv, const char *s)
{
	return strvec_push_nodup(sv, xstrdup(s));
}

const char *strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strvec_push_nodup(sv, strbuf_detach(&sb, NULL));
}

void strvec_pushv(struct strvec *sv, const char *const *items)
{
	for (; *items; items++)
		strvec_push(sv, *items);
}

void strvec_insert(struct strvec *sv, size_t i, const char *s)
{
	strvec_reserve(sv, 1);
	memmove(&sv->v[i + 1], &sv->v[i], (sv->nr - i + 1) * sizeof(*sv->v));
	sv->v[i] = xstrdup(s);
	sv->nr++;
}

void strvec_remove(struct strvec *sv, size_t i)
{
	free((char *)sv->v[i]);
	memmove(&sv->v[i], &sv->v[i + 1], (sv->nr - i) * sizeof(*sv->v));
	sv->nr--;
}

void strvec_replace(struct strvec *sv, size_t i, const char *s)
{
	char *copy = xstrdup(s);
	free((char *)sv->v[i]);
	sv->v[i] = copy;
}

long strvec_find(const struct strvec *sv, const char *s)
{
	for (size_t i = 0; i < sv->nr; i++)
		if (!strcmp(sv->v[i], s))
			return (long)i;
	return -1;
}

long strvec_find_key(const struct strvec *sv, const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < sv->nr; i++)
		if (!strncmp(sv->v[i], name, len) && sv->v[i][len] == '=')
			return (long)i;
	return -1;
}

void strvec_split(struct strvec *sv, const char *s, const char *seps)
{
	while (*s) {
		size_t n = strcspn(s, seps);
		if (n)
			strvec_push_nodup(sv, xstrndup(s, n));
		s += n;
		if (*s)
			s++;
	}
}

char *strvec_join(const struct strvec *sv, const char *sep)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < sv->nr; i++) {
		if (i)
			strbuf_addstr(&sb, sep);
		strbuf_addstr(&sb, sv->v[i]);
	}
	return strbuf_detach(&sb, NULL);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void strvec_sort(struct strvec *sv, size_t from)
{
	if (from < sv->nr)
		qsort(sv->v + from, sv->nr - from, sizeof(*sv->v), cmp_str);
}
