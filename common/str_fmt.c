/* vasprintf() with NULL for failure, the one way the libraries build a message. */
#include "str_fmt.h"

#include <stdio.h>

char *str_vfmt(const char *fmt, va_list ap)
{
	char *s = NULL;

	/* On failure vasprintf() leaves s undefined: say NULL ourselves. */
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	return s;
}

char *str_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = str_vfmt(fmt, ap);
	va_end(ap);
	return s;
}

int str_fail(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (buf && size) {
		va_start(ap, fmt);
		vsnprintf(buf, size, fmt, ap);
		va_end(ap);
	}
	return -1;
}
