#include "stderr_line.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

/* Length of the valid UTF-8 sequence at s when it encodes a code point >= U+00A0, else 0. */
static size_t utf8_printable(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (s[0] == 0xc2 || s[0] == 0xe0) /* C1 controls U+0080..U+009F; overlong forms */
		lo = 0xa0;
	else if (s[0] == 0xed) /* UTF-16 surrogates */
		hi = 0x9f;
	else if (s[0] == 0xf0) /* overlong */
		lo = 0x90;
	else if (s[0] == 0xf4) /* beyond U+10FFFF */
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	/* In order: a NUL fails the test before anything past it is read. */
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

size_t stderr_escape(char *out, size_t size, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = 0;

	while (*p) {
		char esc[5];
		const char *piece = esc;
		size_t n = utf8_printable(p), step = n ? n : 1;

		if (n || (*p >= 0x20 && *p < 0x7f && *p != '\\')) {
			piece = (const char *)p;
			n = step;
		} else if (*p == '\\' || *p == '\n' || *p == '\r' || *p == '\t') {
			esc[0] = '\\';
			esc[1] = *p == '\\' ? '\\' : *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
			n = 2;
		} else {
			snprintf(esc, sizeof(esc), "\\x%02x", *p);
			n = 4;
		}
		if (len + n >= size)
			break;
		for (size_t i = 0; i < n; i++)
			out[len++] = piece[i];
		p += step;
	}
	out[len] = '\0';
	return len;
}

void stderr_line_v(const char *prefix, const char *fmt, va_list ap)
{
	char text[1024], line[1024];
	int saved = errno;
	int n = snprintf(line, sizeof(line), "%s", prefix);
	size_t len;

	if (n < 0)
		n = 0;
	if ((size_t)n > sizeof(line) - 2)
		n = (int)(sizeof(line) - 2);
	if (vsnprintf(text, sizeof(text), fmt, ap) < 0)
		text[0] = '\0';
	/* One byte stays free for the newline. */
	len = (size_t)n + stderr_escape(line + n, sizeof(line) - 1 - (size_t)n, text);
	line[len++] = '\n';
	ssize_t w = write(STDERR_FILENO, line, len);
	(void)w;
	errno = saved;
}
