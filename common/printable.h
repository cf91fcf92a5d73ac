/*
 * Text from outside (archive entry names, URLs, a server's or libcurl's
 * words) made safe to print: control characters escaped, so a name cannot
 * move the cursor, recolour or retitle the user's terminal, and the userinfo
 * of URLs ("user:token@") redacted, so a credential never reaches a message,
 * a log or a --json document.  Abort on OOM like strbuf.
 */
#ifndef MIRAGE_PRINTABLE_H
#define MIRAGE_PRINTABLE_H

#include "strbuf.h"

/* What a redacted userinfo reads as, as in "https://" PRINTABLE_REDACTED "@host". */
#define PRINTABLE_REDACTED "***"

/*
 * Appends s escaped as stderr_escape does (the one escaping of outside text):
 * '\\' doubled, newline, CR and tab as \n, \r, \t, and every other C0 control,
 * DEL, C1 control (U+0080-U+009F) or byte not part of valid UTF-8 as \xNN, so
 * the result is one line of printable text that names s unambiguously.
 */
void strbuf_add_printable(struct strbuf *sb, const char *s);
/*
 * Appends s with the userinfo of every "scheme://userinfo@host" in it
 * replaced by PRINTABLE_REDACTED; the rest is copied as it is.
 */
void strbuf_add_redacted(struct strbuf *sb, const char *s);
/* Both, redacted then made printable: how any URL or outside text is shown.  Caller frees. */
char *printable_text(const char *s);

#endif
