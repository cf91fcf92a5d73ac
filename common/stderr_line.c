#include "stderr_line.h"

#include "utf8.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Length of the valid UTF-8 sequence at s when it encodes a code point >= U+00A0, else 0. */
static size_t utf8_printable(const unsigned char *s)
{
	size_t n = utf8_seq_len(s, 4);
	return n == 2 && s[0] == 0xc2 && s[1] < 0xa0 ? 0 : n; /* C1 controls U+0080..U+009F */
}

size_t text_escape_step(const char *s, char esc[static 5], const char **piece)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = utf8_printable(p);

	if (n || (*p >= 0x20 && *p < 0x7f && *p != '\\')) {
		*piece = s;
		return n ? n : 1;
	}
	*piece = esc;
	if (*p == '\\' || *p == '\n' || *p == '\r' || *p == '\t') {
		esc[0] = '\\';
		esc[1] = *p == '\\' ? '\\' : *p == '\n' ? 'n' : *p == '\r' ? 'r' : 't';
		esc[2] = '\0';
	} else {
		snprintf(esc, 5, "\\x%02x", *p);
	}
	return 1;
}

size_t stderr_escape(char *out, size_t size, const char *s)
{
	size_t len = 0;

	while (*s) {
		char esc[5];
		const char *piece;
		size_t step = text_escape_step(s, esc, &piece);
		size_t n = piece == esc ? strlen(esc) : step;

		if (len + n >= size)
			break;
		memcpy(out + len, piece, n);
		len += n;
		s += step;
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
