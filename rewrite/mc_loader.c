/* Loads libhotswap_mc.so (the only LLVM user) from this library's directory, once, on demand. */
#include "hs_internal.h"
#include "decoder.h"

#include <pthread.h>

#include "hs_mc.h"
#include "object_path.h"
#include "plugin.h"

static pthread_once_t mc_once = PTHREAD_ONCE_INIT;
static const struct hs_mc_api *mc_api;
static struct plugin_error mc_error;

PLUGIN_ENTRY_CALLER(call_mc_entry, hs_mc_get_api_fn)

static const struct plugin_spec mc_spec = {
    .file = HS_MC_LIBRARY_NAME,
    .owner = HOTSWAP_REWRITE_LIB,
    .entry = HS_MC_ENTRY_SYMBOL,
    .version = HS_MC_API_VERSION,
    .call_entry = call_mc_entry,
};

static void load_mc(void)
{
	/* Never unloaded: decoders created from it may live in other threads. */
	mc_api = plugin_load_beside((const void *)load_mc, &mc_spec, &mc_error);
	if (mc_api)
		hs_log(HS_LOG_INFO, "loaded %s", object_path(mc_api));
}

const struct hs_mc_api *hs_mc_get(void)
{
	pthread_once(&mc_once, load_mc);
	if (!mc_api)
		hs_fail(HS_ERROR, "%s", mc_error.text);
	return mc_api;
}
