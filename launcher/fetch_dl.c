/* dlopen() of libmirage_fetch.so next to the running mirage, and the check of its API version. */
#include "fetch_dl.h"

#include "module_dl.h"

PLUGIN_ENTRY_CALLER(call_fetch_entry, fetch_get_api_fn)

/* RTLD_LOCAL (the loader's default): curl's and libarchive's symbols stay out of the launcher's
 * namespace. */
static const struct plugin_spec fetch_spec = {
    .file = FETCH_LIBRARY_NAME,
    .entry = FETCH_ENTRY_SYMBOL,
    .version = FETCH_API_VERSION,
    .call_entry = call_fetch_entry,
};

static struct plugin_slot fetch_slot = PLUGIN_SLOT_INIT;

const struct fetch_api *fetch_dl_load(const char *self_exe, struct diag *err)
{
	return module_dl_load(&fetch_slot, &fetch_spec, self_exe, err);
}
