/*
 * The HSA tool the runtime loads (libhotswap_intercept.so): libc only, so
 * preloading it into every process of a workload costs next to nothing; the
 * first OnLoad loads the real intercept (libhotswap_intercept_core.so) from
 * this library's directory and forwards to it.  Without its core nothing is
 * rewritten: under HSA_HOTSWAP_STRICT the shim then fails closed, refusing
 * every code object load, since the runtime (ROCr) only drops a tool whose
 * OnLoad returns false and starts without it.
 */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "shim.h"

#include "hsa_table.h"
#include "hotswap_contract.h"
#include "plugin.h"
#include "plugin_slot.h"
#include "stderr_line.h"
#include "truthy.h"

/*
 * ROCr looks this up in every loaded object to find tools that came in some
 * other way (LD_PRELOAD) and to order them; a plain const so the loader
 * initialises it, not code.
 */
HSI_EXPORT extern const uint32_t HSA_AMD_TOOL_PRIORITY;
const uint32_t HSA_AMD_TOOL_PRIORITY = 25;

HSI_EXPORT bool OnLoad(void *table, uint64_t runtime_version, uint64_t failed_tool_count,
                       const char *const *failed_tool_names);
HSI_EXPORT void OnUnload(void);

/* The core, loaded once by load_core; OnUnload looks without loading it. */
static struct plugin_slot core_slot = PLUGIN_SLOT_INIT;
/* HSA_HOTSWAP_STRICT, read once by load_core: a missing core then closes the table. */
static bool strict;

/* The core's log.c is not loaded yet here: the same line through the shared writer. */
void shim_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stderr_line_v("hotswap: ", fmt, ap);
	va_end(ap);
}

/* What a missing core means, for the line that says why it is missing. */
static const char *without_core(void)
{
	return strict ? HOTSWAP_ENV_STRICT " is set: refusing every code object load"
	              : "running without the HotSwap hooks";
}

PLUGIN_ENTRY_CALLER(call_core_entry, hsi_core_get_api_fn)

/* NODELETE: code objects we rewrote, and the hooks, live as long as the process. */
static const struct plugin_spec core_spec = {
    .file = HSI_CORE_LIBRARY_NAME,
    .owner = HOTSWAP_INTERCEPT_LIB,
    .entry = HSI_CORE_ENTRY_SYMBOL,
    .version = HSI_CORE_API_VERSION,
    .dlopen_flags = RTLD_NODELETE,
    .call_entry = call_core_entry,
};

/*
 * Runs once, on the first OnLoad or HIP call that needs it: the core's dependencies
 * (the rewriter, libelf, zstd) come in here.
 */
static const void *load_core(struct plugin_error *err, const void *arg)
{
	const struct hsi_core_api *api;

	(void)arg;
	strict = env_flag(HOTSWAP_ENV_STRICT);
	/* The core sits next to us, wherever the tree is. */
	api = plugin_load_beside((const void *)load_core, &core_spec, err);
	if (!api) {
		shim_warn("%s; %s", err->text, without_core());
		return NULL;
	}
	if (!api->on_load || !api->on_unload || !api->hip_fatbin || !api->hip_image ||
	    !api->hip_file) {
		shim_warn("'%s' has no usable %s (an entry of its table is missing); %s",
		          HSI_CORE_LIBRARY_NAME, HSI_CORE_ENTRY_SYMBOL, without_core());
		return NULL;
	}
	return api;
}

/* The loads a strict workload without the core gets: nothing may run unrewritten. */
static hsa_status_t refuse_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                  hsa_code_object_reader_t reader,
                                                  const char *options,
                                                  hsa_loaded_code_object_t *loaded)
{
	(void)executable, (void)agent, (void)reader, (void)options, (void)loaded;
	shim_warn("refusing the load: the HotSwap core is not loaded (" HOTSWAP_ENV_STRICT
	          " is set)");
	return HSA_STATUS_ERROR_INVALID_CODE_OBJECT;
}

static hsa_status_t refuse_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                            hsa_code_object_t code_object, const char *options)
{
	(void)code_object;
	return refuse_load_agent_code_object(executable, agent, (hsa_code_object_reader_t){0},
	                                     options, NULL);
}

/*
 * Points the runtime's load entries at the refusals.  True keeps us loaded
 * (the table now points into us); false when the table cannot be closed.
 */
static bool close_table(void *table)
{
	struct hsa_core_table *core_table = hsa_table_core(table);

	if (!core_table || !HSA_CORE_HAS(core_table, hsa_executable_load_agent_code_object_fn)) {
		shim_warn("the runtime's HSA API table is too old to refuse loads in; "
		          "code objects will load unrewritten although " HOTSWAP_ENV_STRICT
		          " is set");
		return false;
	}
	core_table->hsa_executable_load_agent_code_object_fn = refuse_load_agent_code_object;
	if (HSA_CORE_HAS(core_table, hsa_executable_load_code_object_fn))
		core_table->hsa_executable_load_code_object_fn = refuse_load_code_object;
	return true;
}

const struct hsi_core_api *shim_core(void)
{
	return plugin_slot_get(&core_slot, load_core, NULL);
}

bool shim_strict(void)
{
	shim_core();
	return strict;
}

bool OnLoad(void *table, uint64_t runtime_version, uint64_t failed_tool_count,
            const char *const *failed_tool_names)
{
	const struct hsi_core_api *api = shim_core();

	if (api)
		return api->on_load(table, runtime_version, failed_tool_count, failed_tool_names);
	/* Not strict: false, and the runtime carries on without us. */
	return strict && close_table(table);
}

void OnUnload(void)
{
	const struct hsi_core_api *api = plugin_slot_loaded(&core_slot);

	/* Never loads the core: without it, no hook was installed, so nothing to undo. */
	if (api)
		api->on_unload();
}
