/* dlopen() of libmirage_translate.so beside the running mirage, and its API version check. */
#include "translate_dl.h"

#include "module_dl.h"

PLUGIN_ENTRY_CALLER(call_translate_entry, translate_get_api_fn)

/* RTLD_LOCAL (the loader's default): libLLVM's symbols stay out of the launcher's namespace. */
static const struct plugin_spec translate_spec = {
    .file = TRANSLATE_LIBRARY_NAME,
    .entry = TRANSLATE_ENTRY_SYMBOL,
    .version = TRANSLATE_API_VERSION,
    .call_entry = call_translate_entry,
};

static struct plugin_slot translate_slot = PLUGIN_SLOT_INIT;

const struct translate_api *translate_dl_load(const char *self_exe, struct diag *err)
{
	return module_dl_load(&translate_slot, &translate_spec, self_exe, err);
}
