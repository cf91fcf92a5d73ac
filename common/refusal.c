/* The refused-kernel sentence (refusal.h). */
#include "refusal.h"

#include <inttypes.h>
#include <stdio.h>

static const char * or (const char *s, const char *dflt)
{
	return s && *s ? s : dflt;
}

int refusal_format(char *buf, size_t size, const struct refusal *r)
{
	const char *detail = or (r->detail, NULL);

	return snprintf(buf, size, "kernel '%s' is refused at 0x%" PRIx64 " (%s): %s: %s%s%s",
	                or (r->kernel, "?"), r->address, or (r->mnemonic, "-"),
	                or (r->reason, "refused"), or (r->reason_text, "no reason given"),
	                detail ? ": " : "", detail ? detail : "");
}
