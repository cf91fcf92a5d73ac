/* Diagnostics passed from lower layers to the launcher. */
#include "diag.h"

#include "printable.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int diag_set(struct diag *d, const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(&d->msg);
	va_start(ap, fmt);
	strbuf_vaddf(&d->msg, fmt, ap);
	va_end(ap);
	return -1;
}

void diag_hint(struct diag *d, const char *fmt, ...)
{
	va_list ap;
	strbuf_reset(&d->hint);
	va_start(ap, fmt);
	strbuf_vaddf(&d->hint, fmt, ap);
	va_end(ap);
}

void diag_release(struct diag *d)
{
	strbuf_release(&d->msg);
	strbuf_release(&d->hint);
}

void strbuf_add_quoted_name(struct strbuf *sb, const char *name)
{
	size_t len = strlen(name);
	char *cut = xstrndup(name, 48);
	/* A name may come from an archive or a directory listing: never print its escapes raw. */
	strbuf_addch(sb, '\'');
	strbuf_add_printable(sb, cut);
	strbuf_addstr(sb, len <= 48 ? "'" : "...'");
	if (len > 48)
		strbuf_addf(sb, " (%zu characters)", len);
	free(cut);
}
