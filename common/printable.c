/* Escaping of control characters and redaction of URL userinfo in text that is about to be shown.
 */
#include "printable.h"

#include "stderr_line.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void strbuf_add_printable(struct strbuf *sb, const char *s)
{
	while (*s) {
		char esc[5];
		const char *piece;
		size_t step = text_escape_step(s, esc, &piece);
		if (piece == esc)
			strbuf_addstr(sb, esc);
		else
			strbuf_add(sb, s, step);
		s += step;
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
