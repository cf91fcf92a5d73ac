/* dlopen() of libmirage_translate.so beside the running mirage, and its API version check. */
#include "translate_dl.h"

#include "fetch_dl.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#define TRANSLATE_FIX                                                                              \
	"reinstall mirage, or rebuild it (`cmake --build`) so that "                               \
	"lib/mirage/" TRANSLATE_LIBRARY_NAME " lies beside bin/mirage"

const struct translate_api *translate_dl_load(const char *self_exe, struct diag *err)
{
	static const struct translate_api *loaded;
	const struct translate_api *api = NULL;
	translate_get_api_fn get;
	char *fetch_path, *path, *slash;
	void *handle, *sym;

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
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		const char *why = dlerror();
		size_t len = strlen(path);
		if (!why)
			why = "unknown error";
		else if (!strncmp(why, path, len) && !strncmp(why + len, ": ", 2))
			why += len + 2;
		diag_set(err, "cannot load '%s': %s", path, why);
		diag_hint(err, "mirage's installation is incomplete: " TRANSLATE_FIX);
		free(path);
		return NULL;
	}
	sym = dlsym(handle, TRANSLATE_ENTRY_SYMBOL);
	if (sym) {
		memcpy(&get, &sym, sizeof(get));
		api = get();
	}
	if (!api || api->version != TRANSLATE_API_VERSION) {
		diag_set(err, "cannot use '%s': it has no usable %s (API version %u, need %u)",
		         path, TRANSLATE_ENTRY_SYMBOL, api ? api->version : 0u,
		         (unsigned)TRANSLATE_API_VERSION);
		diag_hint(err, "it belongs to another mirage build: " TRANSLATE_FIX);
		dlclose(handle);
		free(path);
		return NULL;
	}
	free(path);
	loaded = api;
	return api;
}
