/*
 * The core's side of the HSA tools interface: on_load checks the runtime's
 * API table and swaps in our hooks exactly once, on_unload puts the
 * runtime's entries back; the shim (shim.c) forwards OnLoad/OnUnload here.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <pthread.h>

#include "core_api.h"
#include "hip.h"
#include "hooks.h"
#include "log.h"

HSI_CORE_EXPORT const struct hsi_core_api *hsi_core_get_api(void);

static atomic_bool installed;
static struct hsa_core_table *hooked;

/* An entry we need: present in the runtime's table and filled in. */
#define NEED(core, field) (HSA_CORE_HAS(core, field) && (core)->field)

static bool table_usable(const struct hsa_api_table *api)
{
	const struct hsa_core_table *core = hsa_table_core(api);

	if (!core) {
		hsi_warn("the runtime's HSA API table is missing or of another major version; "
		         "not installing the HotSwap hooks");
		return false;
	}
	if (!NEED(core, hsa_agent_get_info_fn) || !NEED(core, hsa_agent_iterate_isas_fn) ||
	    !NEED(core, hsa_isa_get_info_alt_fn) ||
	    !NEED(core, hsa_code_object_reader_create_from_file_fn) ||
	    !NEED(core, hsa_code_object_reader_create_from_memory_fn) ||
	    !NEED(core, hsa_code_object_reader_destroy_fn) ||
	    !NEED(core, hsa_executable_load_agent_code_object_fn)) {
		hsi_warn("the runtime's core API table is too old (major %u, %u bytes; need %zu); "
		         "not installing the HotSwap hooks",
		         core->version.major_id, core->version.minor_id,
		         offsetof(struct hsa_core_table, hsa_executable_load_agent_code_object_fn) +
		             sizeof(void *));
		return false;
	}
	return true;
}

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

static void setup(void)
{
	hsi_config_from_env(&hsi_cfg);
	if (hsi_cfg.stepping_invalid)
		hsi_warn(HOTSWAP_ENV_STEPPING " must be a0 or b0; using the agent's ASIC revision");
}

void hsi_core_setup(void)
{
	pthread_once(&setup_once, setup);
}

static bool on_load(void *table, uint64_t runtime_version, uint64_t failed_tool_count,
                    const char *const *failed_tool_names)
{
	struct hsa_api_table *api = table;
	struct hsa_core_table *core;
	size_t have;

	/* Preloaded and named in HSA_TOOLS_LIB (or listed twice): hook once. */
	if (atomic_exchange(&installed, true)) {
		hsi_info("OnLoad called again; the hooks are already installed");
		return true;
	}
	if (!table_usable(api)) {
		atomic_store(&installed, false);
		return false;
	}
	core = api->core_;
	hsi_core_setup();

	/* Snapshot only what the runtime filled: later entries stay NULL. */
	have =
	    core->version.minor_id < sizeof(hsi_orig) ? core->version.minor_id : sizeof(hsi_orig);
	memcpy(&hsi_orig, core, have);
	if (!HSA_CORE_HAS(core, hsa_executable_load_code_object_fn))
		hsi_orig.hsa_executable_load_code_object_fn = NULL;

	core->hsa_code_object_reader_create_from_memory_fn = hsi_reader_create_from_memory;
	core->hsa_code_object_reader_create_from_file_fn = hsi_reader_create_from_file;
	core->hsa_code_object_reader_destroy_fn = hsi_reader_destroy;
	core->hsa_executable_load_agent_code_object_fn = hsi_load_agent_code_object;
	if (hsi_orig.hsa_executable_load_code_object_fn)
		core->hsa_executable_load_code_object_fn = hsi_load_code_object;
	hooked = core;
	hsi_info("hooks installed (runtime table v%llu, core table %u bytes%s)",
	         (unsigned long long)runtime_version, core->version.minor_id,
	         hsi_cfg.disable ? ", " HOTSWAP_ENV_DISABLE " set: passing everything through"
	                         : "");
	return true;
}

/* Restores an entry only if it is still ours (another tool may have wrapped us since). */
#define RESTORE(field, ours)                                                                       \
	do {                                                                                       \
		if (hooked->field == (ours))                                                       \
			hooked->field = hsi_orig.field;                                            \
	} while (0)

static void on_unload(void)
{
	if (!atomic_load(&installed) || !hooked)
		return;
	RESTORE(hsa_code_object_reader_create_from_memory_fn, hsi_reader_create_from_memory);
	RESTORE(hsa_code_object_reader_create_from_file_fn, hsi_reader_create_from_file);
	RESTORE(hsa_code_object_reader_destroy_fn, hsi_reader_destroy);
	RESTORE(hsa_executable_load_agent_code_object_fn, hsi_load_agent_code_object);
	if (hsi_orig.hsa_executable_load_code_object_fn)
		RESTORE(hsa_executable_load_code_object_fn, hsi_load_code_object);
	hooked = NULL;
	atomic_store(&installed, false);
	hsi_info("hooks removed");
}

const struct hsi_core_api *hsi_core_get_api(void)
{
	static const struct hsi_core_api api = {
	    .version = HSI_CORE_API_VERSION,
	    .on_load = on_load,
	    .on_unload = on_unload,
	    .hip_fatbin = hsi_hip_fatbin,
	    .hip_image = hsi_hip_image,
	    .hip_file = hsi_hip_file,
	};
	return &api;
}
