/* Loads libmirage_translate.so from this library's directory, once, on the first translation. */
#include "hs_internal.h"
#include "translator.h"

#include <pthread.h>

#include "hotswap_contract.h"
#include "object_path.h"
#include "plugin.h"

static pthread_once_t translator_once = PTHREAD_ONCE_INIT;
static const struct translate_api *translator_api;
static struct plugin_error translator_error;

PLUGIN_ENTRY_CALLER(call_translate_entry, translate_get_api_fn)

/* RTLD_LOCAL (plugin_open's default): libLLVM's symbols stay out of the host's namespace. */
static const struct plugin_spec translator_spec = {
    .file = TRANSLATE_LIBRARY_NAME,
    .owner = HOTSWAP_REWRITE_LIB,
    .entry = TRANSLATE_ENTRY_SYMBOL,
    .version = TRANSLATE_API_VERSION,
    .call_entry = call_translate_entry,
};

static void load_translator(void)
{
	/* Never unloaded: another thread may be inside it. */
	translator_api =
	    plugin_load_beside((const void *)load_translator, &translator_spec, &translator_error);
	if (translator_api)
		hs_log(HS_LOG_INFO, "loaded %s (%s)", object_path(translator_api),
		       translator_api->build_id ? translator_api->build_id() : "no build id");
}

const struct translate_api *hs_translator_get(void)
{
	pthread_once(&translator_once, load_translator);
	if (!translator_api)
		hs_fail_why(HS_ERROR, HS_REASON_NO_TRANSLATOR, "%s", translator_error.text);
	return translator_api;
}
