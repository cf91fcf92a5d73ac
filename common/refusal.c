/* The refused-kernel sentence (refusal.h). */
#include "refusal.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *text_or(const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

int refusal_format(char *buf, size_t size, const struct refusal *r)
{
	const char *detail = text_or(r->detail, NULL);

	return snprintf(buf, size, "kernel '%s' is refused at 0x%" PRIx64 " (%s): %s: %s%s%s",
	                text_or(r->kernel, "?"), r->address, text_or(r->mnemonic, "-"),
	                text_or(r->reason, "refused"), text_or(r->reason_text, "no reason given"),
	                detail ? ": " : "", detail ? detail : "");
}

const char *refusal_lines_add(char **lines, const struct refusal *r)
{
	size_t len = *lines ? strlen(*lines) : 0, at = len + (len > 0);
	char *grown = realloc(*lines, at + REFUSAL_MAX);

	if (!grown)
		return NULL;
	if (len)
		grown[len] = '\n';
	refusal_format(grown + at, REFUSAL_MAX, r);
	*lines = grown;
	return grown + at;
}
