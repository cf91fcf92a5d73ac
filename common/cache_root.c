#include "cache_root.h"

#include "xdg_dir.h"

#include <stdio.h>
#include <stdlib.h>

static char *under(const char *base, const char *leaf)
{
	char *s = NULL;
	return asprintf(&s, "%s/%s", base, leaf) < 0 ? NULL : s;
}

char *translation_cache_default_root(void)
{
	const char *base = xdg_base_dir("XDG_CACHE_HOME");

	if (base)
		return under(base, "mirage/hotswap");
	base = getenv("HOME");
	if (base && base[0] == '/')
		return under(base, ".cache/mirage/hotswap");
	return NULL;
}
