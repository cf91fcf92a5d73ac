/*
 * A diagnostic on its way up to the launcher: one message plus an optional
 * "how to fix it" hint.  Lower layers (profiles, discovery) fill one in and
 * return -1; the launcher prints it through msg.h.  Never printed here.
 */
#ifndef MIRAGE_DIAG_H
#define MIRAGE_DIAG_H

#include "strbuf.h"

struct diag {
	struct strbuf msg;
	struct strbuf hint;
};
#define DIAG_INIT                                                                                  \
	{                                                                                          \
		STRBUF_INIT, STRBUF_INIT                                                           \
	}

/* Replaces the message; returns -1 so callers can `return diag_set(d, ...)`. */
int diag_set(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Replaces the hint. */
void diag_hint(struct diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag_release(struct diag *d);
/*
 * Appends name to sb quoted, cut to 48 bytes with the full length noted when
 * longer, its control characters escaped (strbuf_add_printable()).
 */
void strbuf_add_quoted_name(struct strbuf *sb, const char *name);

#endif
