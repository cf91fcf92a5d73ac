/* Loads libhotswap_mc.so (the only LLVM user) from this library's directory, once, on demand. */
#include "hs_internal.h"
#include "decoder.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "hs_mc.h"
#include "object_path.h"

static pthread_once_t mc_once = PTHREAD_ONCE_INIT;
static const struct hs_mc_api *mc_api;
static char mc_error[2048];

static void load_mc(void)
{
	char path[4096];
	void *handle;
	hs_mc_get_api_fn get;
	const struct hs_mc_api *api;

	if (object_sibling_path((const void *)load_mc, HS_MC_LIBRARY_NAME, path, sizeof(path)) <
	    0) {
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
