/*
 * printf into a new string for code that reports running out of memory instead of aborting
 * (the libraries; the launcher has strbuf.h's aborting xstrfmt()).  Never prints, never aborts.
 */
#ifndef MIRAGE_STR_FMT_H
#define MIRAGE_STR_FMT_H

#include <stdarg.h>

/* The formatted string (free() it), or NULL when it cannot be allocated. */
char *str_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *str_vfmt(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#include <stddef.h>

/* The reason into a caller's buffer (none when buf is NULL or size 0), then -1: the one shape
 * of "0, or -1 with the reason in err" for code that must not allocate. */
int str_fail(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
