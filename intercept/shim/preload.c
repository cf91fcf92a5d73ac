/*
 * When LD_PRELOADed, register ourselves as an HSA tool too, so the runtime
 * calls OnLoad whichever way we came in (OnLoad itself ignores a second call).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hotswap_contract.h"
#include "object_path.h"

/* Does one HSA_TOOLS_LIB entry name this very file? */
static bool names_self(const char *tok, size_t len, const char *self, const struct stat *self_st)
{
	char path[4096];
	struct stat st;
	const char *base = strrchr(self, '/');

	base = base ? base + 1 : self;
	if (len >= sizeof(path))
		return false;
	memcpy(path, tok, len);
	path[len] = '\0';
	if (!strchr(path, '/'))
		return !strcmp(path, base); /* a bare soname the runtime would dlopen */
	if (!strcmp(path, self))
		return true; /* what `mirage run` sets: no stat needed */
	return stat(path, &st) == 0 && st.st_dev == self_st->st_dev && st.st_ino == self_st->st_ino;
}

static bool listed(const char *list, const char *self, const struct stat *self_st)
{
	const char *p = list;
	while (*p) {
		size_t n;
		p += strspn(p, " :");
		n = strcspn(p, " :");
		if (n && names_self(p, n, self, self_st))
			return true;
		p += n;
	}
	return false;
}

/*
 * Runs before main, hence before any hsa_init.  No output, and the only
 * allocation is setenv's copy of the new value.
 */
__attribute__((constructor)) static void hsi_register_as_tool(void)
{
	const char *self = object_path((const void *)hsi_register_as_tool);
	struct stat self_st;
	const char *cur;
	char *val;
	size_t lc, ls;

	if (!self || !strchr(self, '/') || stat(self, &self_st) < 0)
		return;
	cur = getenv(HOTSWAP_ENV_TOOLS_LIB);
	if (cur && listed(cur, self, &self_st))
		return;
	lc = cur ? strlen(cur) : 0;
	ls = strlen(self);
	val = malloc(lc + ls + 2);
	if (!val)
		return;
	if (lc) {
		memcpy(val, cur, lc);
		val[lc++] = ' ';
	}
	memcpy(val + lc, self, ls + 1);
	setenv(HOTSWAP_ENV_TOOLS_LIB, val, 1);
	free(val);
}
