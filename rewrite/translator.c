/* Loads libmirage_translate.so from this library's directory, once, on the first translation. */
#include "hs_internal.h"
#include "translator.h"

#include "hotswap_contract.h"
#include "object_path.h"
#include "plugin.h"
#include "plugin_slot.h"

static struct plugin_slot translator_slot = PLUGIN_SLOT_INIT;

PLUGIN_ENTRY_CALLER(call_translate_entry, translate_get_api_fn)

/* RTLD_LOCAL (plugin_open's default): libLLVM's symbols stay out of the host's namespace. */
static const struct plugin_spec translator_spec = {
    .file = TRANSLATE_LIBRARY_NAME,
    .owner = HOTSWAP_REWRITE_LIB,
    .entry = TRANSLATE_ENTRY_SYMBOL,
    .version = TRANSLATE_API_VERSION,
    .call_entry = call_translate_entry,
};

static const void *load_translator(struct plugin_error *err, const void *arg)
{
	const struct translate_api *api;

	(void)arg;
	/* Never unloaded: another thread may be inside it. */
	api = plugin_load_beside((const void *)load_translator, &translator_spec, err);
	if (api)
		hs_log(HS_LOG_INFO, "loaded %s (%s)", object_path(api),
		       api->build_id ? api->build_id() : "no build id");
	return api;
}

const struct translate_api *hs_translator_get(void)
{
	const struct translate_api *api = plugin_slot_get(&translator_slot, load_translator, NULL);

	if (!api)
		hs_fail_why(HS_ERROR, HS_REASON_NO_TRANSLATOR, "%s", translator_slot.error.text);
	return api;
}
