/* Escaping of control characters and redaction of URL userinfo in text that is about to be shown.
 */
#include "printable.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s that is printable (no C1 control), or 0. */
static size_t printable_utf8(const unsigned char *s)
{
	size_t len;
	unsigned cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0; /* a continuation byte, an overlong lead or past U+10FFFF */
	len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	cp = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp <= 0x9f))
		return 0;
	return len;
}

void strbuf_add_printable(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n;
		if (*p == '\\') {
			strbuf_addstr(sb, "\\\\");
			p++;
		} else if (*p >= 0x20 && *p < 0x7f) {
			strbuf_addch(sb, (char)*p++);
		} else if ((n = printable_utf8(p))) {
			strbuf_add(sb, p, n);
			p += n;
		} else {
			strbuf_addf(sb, "\\x%02x", *p++);
		}
	}
}

/* True for the characters RFC 3986 allows in a scheme after its first letter. */
static bool scheme_char(char c)
{
	return isalnum((unsigned char)c) || c == '+' || c == '-' || c == '.';
}

void strbuf_add_redacted(struct strbuf *sb, const char *s)
{
	const char *copied = s, *p = s;

	while ((p = strstr(p, "://"))) {
		const char *authority = p + 3, *end, *at = NULL;
		const char *scheme = p;
		/* Only a real scheme (a letter, then scheme characters) starts a URL. */
		while (scheme > copied && scheme_char(scheme[-1]))
			scheme--;
		while (scheme < p && !isalpha((unsigned char)*scheme))
			scheme++;
		p = authority;
		if (scheme == authority - 3)
			continue;
		/*
		 * The authority ends at the path, query or fragment, or at blank
		 * text; not at a quote, which a password may hold.
		 */
		end = authority + strcspn(authority, "/?# \t\r\n");
		for (const char *c = authority; c < end; c++)
			if (*c == '@')
				at = c; /* the last '@': the userinfo may itself hold an unescaped
				           one */
		if (!at)
			continue;
		strbuf_add(sb, copied, (size_t)(authority - copied));
		strbuf_addstr(sb, PRINTABLE_REDACTED);
		copied = at;
		p = end;
	}
	strbuf_addstr(sb, copied);
}

char *printable_text(const char *s)
{
	struct strbuf redacted = STRBUF_INIT, shown = STRBUF_INIT;
	strbuf_add_redacted(&redacted, s);
	strbuf_add_printable(&shown, redacted.buf);
	strbuf_release(&redacted);
	return strbuf_detach(&shown, NULL);
}
