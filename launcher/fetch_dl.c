/* dlopen() of libmirage_fetch.so next to the running mirage, and the check of its API version. */
#include "fetch_dl.h"

#include <stdlib.h>
#include <string.h>

#include "plugin.h"

/*
 * CMake puts the module at <prefix>/lib/mirage next to <prefix>/bin/mirage, in
 * the build tree and in an install alike.  self_exe comes from /proc/self/exe
 * and has no symlinks or dot components, so dropping its last two components
 * is the same as <mirage dir>/.. and reads better in messages.
 */
#define FETCH_SUBDIR "lib/mirage"

/* How to get a module that matches this mirage, in both failure hints. */
#define FETCH_FIX                                                                                  \
	"reinstall mirage, or rebuild it (`cmake --build`) so that " FETCH_SUBDIR                  \
	"/" FETCH_LIBRARY_NAME " lies beside bin/mirage"

char *fetch_dl_path(const char *self_exe)
{
	const char *end = self_exe ? strrchr(self_exe, '/') : NULL;

	if (!end)
		return NULL;
	/* Step out of the bin directory: back to the slash before it, or to the root. */
	while (end > self_exe && *--end != '/')
		;
	return xstrfmt("%.*s/" FETCH_SUBDIR "/" FETCH_LIBRARY_NAME, (int)(end - self_exe),
	               self_exe);
}

PLUGIN_ENTRY_CALLER(call_fetch_entry, fetch_get_api_fn)

/* RTLD_LOCAL (the loader's default): curl's and libarchive's symbols stay out of the launcher's
 * namespace. */
static const struct plugin_spec fetch_spec = {
    .file = FETCH_LIBRARY_NAME,
    .entry = FETCH_ENTRY_SYMBOL,
    .version = FETCH_API_VERSION,
    .call_entry = call_fetch_entry,
};

const struct fetch_api *fetch_dl_load(const char *self_exe, struct diag *err)
{
	static const struct fetch_api *loaded;
	struct plugin_error perr;
	char *path;

	if (loaded)
		return loaded;
	path = fetch_dl_path(self_exe);
	if (!path) {
		diag_set(err, "cannot find " FETCH_LIBRARY_NAME
		              ": the path of the running mirage is unknown (is /proc mounted?)");
		diag_hint(err, "mirage's installation is incomplete: " FETCH_FIX);
		return NULL;
	}
	loaded = plugin_load(path, &fetch_spec, &perr);
	free(path);
	if (!loaded) {
		diag_set(err, "%s", perr.text);
		diag_hint(err, perr.failure == PLUGIN_CANNOT_LOAD
		                   ? "mirage's installation is incomplete: " FETCH_FIX
		                   : "it belongs to another mirage build: " FETCH_FIX);
	}
	return loaded;
}
