/* dlopen() of libmirage_translate.so beside the running mirage, and its API version check. */
#include "translate_dl.h"

#include <stdlib.h>
#include <string.h>

#include "fetch_dl.h"
#include "plugin.h"

#define TRANSLATE_FIX                                                                              \
	"reinstall mirage, or rebuild it (`cmake --build`) so that "                               \
	"lib/mirage/" TRANSLATE_LIBRARY_NAME " lies beside bin/mirage"

PLUGIN_ENTRY_CALLER(call_translate_entry, translate_get_api_fn)

/* RTLD_LOCAL (the loader's default): libLLVM's symbols stay out of the launcher's namespace. */
static const struct plugin_spec translate_spec = {
    .file = TRANSLATE_LIBRARY_NAME,
    .entry = TRANSLATE_ENTRY_SYMBOL,
    .version = TRANSLATE_API_VERSION,
    .call_entry = call_translate_entry,
};

const struct translate_api *translate_dl_load(const char *self_exe, struct diag *err)
{
	static const struct translate_api *loaded;
	struct plugin_error perr;
	char *fetch_path, *path, *slash;

	if (loaded)
		return loaded;
	/* The same directory as the fetch module: <prefix>/lib/mirage (fetch_dl.c says why). */
	fetch_path = fetch_dl_path(self_exe);
	slash = fetch_path ? strrchr(fetch_path, '/') : NULL;
	if (!slash) {
		free(fetch_path);
		diag_set(err, "cannot find " TRANSLATE_LIBRARY_NAME
		              ": the path of the running mirage is unknown (is /proc mounted?)");
		diag_hint(err, "mirage's installation is incomplete: " TRANSLATE_FIX);
		return NULL;
	}
	path = xstrfmt("%.*s/" TRANSLATE_LIBRARY_NAME, (int)(slash - fetch_path), fetch_path);
	free(fetch_path);
	loaded = plugin_load(path, &translate_spec, &perr);
	free(path);
	if (!loaded) {
		diag_set(err, "%s", perr.text);
		diag_hint(err, perr.failure == PLUGIN_CANNOT_LOAD
		                   ? "mirage's installation is incomplete: " TRANSLATE_FIX
		                   : "it belongs to another mirage build: " TRANSLATE_FIX);
	}
	return loaded;
}
