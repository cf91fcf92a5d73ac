/* dlopen() of libmirage_fetch.so next to the running mirage, and the check of its API version. */
#include "fetch_dl.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

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

const struct fetch_api *fetch_dl_load(const char *self_exe, struct diag *err)
{
	static const struct fetch_api *loaded;
	const struct fetch_api *api = NULL;
	fetch_get_api_fn get;
	char *path;
	void *handle, *sym;

	if (loaded)
		return loaded;
	path = fetch_dl_path(self_exe);
	if (!path) {
		diag_set(err, "cannot find " FETCH_LIBRARY_NAME
		              ": the path of the running mirage is unknown (is /proc mounted?)");
		diag_hint(err, "mirage's installation is incomplete: " FETCH_FIX);
		return NULL;
	}
	/* RTLD_LOCAL: curl's and libarchive's symbols stay out of the launcher's namespace. */
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		const char *why = dlerror();
		size_t len = strlen(path);
		/* glibc starts with "<path>: ", which the message already says. */
		if (!why)
			why = "unknown error";
		else if (!strncmp(why, path, len) && !strncmp(why + len, ": ", 2))
			why += len + 2;
		diag_set(err, "cannot load '%s', which `hotswap install` needs: %s", path, why);
		diag_hint(err, "mirage's installation is incomplete: " FETCH_FIX);
		goto cleanup;
	}
	/* POSIX lets dlsym's object pointer become a function pointer; memcpy says so without a
	 * cast warning. */
	sym = dlsym(handle, FETCH_ENTRY_SYMBOL);
	if (sym) {
		memcpy(&get, &sym, sizeof(get));
		api = get();
	}
	if (!api || api->version != FETCH_API_VERSION) {
		diag_set(err, "cannot use '%s': it has no usable %s (API version %u, need %u)",
		         path, FETCH_ENTRY_SYMBOL, api ? (unsigned)api->version : 0u,
		         (unsigned)FETCH_API_VERSION);
		diag_hint(err, "it belongs to another mirage build: " FETCH_FIX);
		dlclose(handle);
		api = NULL;
		goto cleanup;
	}
	loaded = api;
cleanup:
	free(path);
	return api;
}
