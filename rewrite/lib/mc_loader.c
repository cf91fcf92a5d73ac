/* Loads libhotswap_mc.so (the only LLVM user) from this library's directory, once, on demand. */
#include "hs_internal.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hs_mc.h"

static pthread_once_t mc_once = PTHREAD_ONCE_INIT;
static const struct hs_mc_api *mc_api;
static char mc_error[2048];

/* dladdr() on anything in this library names the file we were loaded from. */
int hs_self_path(char *buf, size_t size)
{
	Dl_info info;

	if (!dladdr((void *)hs_self_path, &info) || !info.dli_fname)
		return -1;
	return (size_t)snprintf(buf, size, "%s", info.dli_fname) < size ? 0 : -1;
}

int hs_sibling_path(const char *name, char *buf, size_t size)
{
	char self[4096];
	const char *slash;
	int n;

	if (hs_self_path(self, sizeof(self)) < 0)
		return -1;
	slash = strrchr(self, '/');
	if (slash)
		n = snprintf(buf, size, "%.*s/%s", (int)(slash - self), self, name);
	else
		n = snprintf(buf, size, "./%s", name);
	return n >= 0 && (size_t)n < size ? 0 : -1;
}

static void load_mc(void)
{
	char path[4096];
	void *handle;
	hs_mc_get_api_fn get;
	const struct hs_mc_api *api;

	if (hs_sibling_path(HS_MC_LIBRARY_NAME, path, sizeof(path)) < 0) {
		snprintf(mc_error, sizeof(mc_error),
		         "cannot find the directory of "
		         "libhotswap_rewrite to load %s",
		         HS_MC_LIBRARY_NAME);
		return;
	}
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(mc_error, sizeof(mc_error), "cannot load '%.1024s': %.256s", path,
		         dlerror());
		return;
	}
	get = (hs_mc_get_api_fn)dlsym(handle, HS_MC_ENTRY_SYMBOL);
	api = get ? get() : NULL;
	if (!api || api->version != HS_MC_API_VERSION) {
		snprintf(mc_error, sizeof(mc_error),
		         "'%.1024s' has no usable %s (API version %u, "
		         "need %u)",
		         path, HS_MC_ENTRY_SYMBOL, api ? api->version : 0u, HS_MC_API_VERSION);
		dlclose(handle);
		return;
	}
	/* Never unloaded: decoders created from it may live in other threads. */
	mc_api = api;
	hs_log(HS_LOG_INFO, "loaded %s", path);
}

const struct hs_mc_api *hs_mc_get(void)
{
	pthread_once(&mc_once, load_mc);
	if (!mc_api)
		hs_fail(HS_ERROR, "%s", mc_error);
	return mc_api;
}
