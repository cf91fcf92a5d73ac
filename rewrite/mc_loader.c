/* Loads libhotswap_mc.so (the only LLVM user) from this library's directory, once, on demand. */
#include "hs_internal.h"
#include "decoder.h"

#include "hs_mc.h"
#include "object_path.h"
#include "plugin.h"
#include "plugin_slot.h"

static struct plugin_slot mc_slot = PLUGIN_SLOT_INIT;

PLUGIN_ENTRY_CALLER(call_mc_entry, hs_mc_get_api_fn)

static const struct plugin_spec mc_spec = {
    .file = HS_MC_LIBRARY_NAME,
    .owner = HOTSWAP_REWRITE_LIB,
    .entry = HS_MC_ENTRY_SYMBOL,
    .version = HS_MC_API_VERSION,
    .call_entry = call_mc_entry,
};

static const void *load_mc(struct plugin_error *err, const void *arg)
{
	const struct hs_mc_api *api;

	(void)arg;
	/* Never unloaded: decoders created from it may live in other threads. */
	api = plugin_load_beside((const void *)load_mc, &mc_spec, err);
	if (api)
		hs_log(HS_LOG_INFO, "loaded %s", object_path(api));
	return api;
}

const struct hs_mc_api *hs_mc_get(void)
{
	const struct hs_mc_api *api = plugin_slot_get(&mc_slot, load_mc, NULL);

	if (!api)
		hs_fail(HS_ERROR, "%s", mc_slot.error.text);
	return api;
}
