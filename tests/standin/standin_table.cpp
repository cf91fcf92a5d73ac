// The stand-in runtime's API table, built from the real hsa_api_trace.h (a
// C++ header), and the exported hsa_* functions, which dispatch through it
// exactly like ROCr's so that tools replacing entries see every call.
#include <hsa/hsa.h>
#include <hsa/hsa_api_trace.h>

#include <cstdlib>
#include <cstring>

#include "standin.h"

#define EXPORT __attribute__((visibility("default")))

namespace
{

CoreApiTable core;
HsaApiTable root;
bool built;

void build()
{
	if (built)
		return;
	core.version.major_id = HSA_CORE_API_TABLE_MAJOR_VERSION;
	core.version.minor_id = sizeof(CoreApiTable);
	core.version.step_id = HSA_CORE_API_TABLE_STEP_VERSION;
	// STANDIN_CORE_TABLE_SIZE pretends to be an older runtime with a shorter table.
	if (const char *s = getenv("STANDIN_CORE_TABLE_SIZE"))
		core.version.minor_id = (uint32_t)strtoul(s, nullptr, 0);
	core.hsa_init_fn = si_init;
	core.hsa_shut_down_fn = si_shut_down;
	core.hsa_status_string_fn = si_status_string;
	core.hsa_iterate_agents_fn = si_iterate_agents;
	core.hsa_agent_get_info_fn = si_agent_get_info;
	core.hsa_agent_iterate_isas_fn = si_agent_iterate_isas;
	core.hsa_isa_get_info_alt_fn = si_isa_get_info_alt;
	core.hsa_code_object_reader_create_from_file_fn = si_reader_create_from_file;
	core.hsa_code_object_reader_create_from_memory_fn = si_reader_create_from_memory;
	core.hsa_code_object_reader_destroy_fn = si_reader_destroy;
	core.hsa_executable_create_fn = si_executable_create;
	core.hsa_executable_create_alt_fn = si_executable_create_alt;
	core.hsa_executable_destroy_fn = si_executable_destroy;
	core.hsa_executable_freeze_fn = si_executable_freeze;
	core.hsa_executable_load_agent_code_object_fn = si_executable_load_agent_code_object;
	core.hsa_executable_load_code_object_fn = si_executable_load_code_object;
	core.hsa_code_object_deserialize_fn = si_code_object_deserialize;
	core.hsa_code_object_destroy_fn = si_code_object_destroy;
	// The dispatch path (standin_dispatch.c).
	core.hsa_executable_get_symbol_by_name_fn = si_executable_get_symbol_by_name;
	core.hsa_executable_symbol_get_info_fn = si_executable_symbol_get_info;
	core.hsa_agent_iterate_regions_fn = si_agent_iterate_regions;
	core.hsa_region_get_info_fn = si_region_get_info;
	core.hsa_memory_allocate_fn = si_memory_allocate;
	core.hsa_memory_free_fn = si_memory_free;
	core.hsa_signal_create_fn = si_signal_create;
	core.hsa_signal_destroy_fn = si_signal_destroy;
	core.hsa_signal_load_relaxed_fn = si_signal_load;
	core.hsa_signal_load_scacquire_fn = si_signal_load;
	core.hsa_signal_store_relaxed_fn = si_signal_store;
	core.hsa_signal_store_screlease_fn = si_signal_store;
	core.hsa_signal_subtract_relaxed_fn = si_signal_subtract;
	core.hsa_signal_subtract_screlease_fn = si_signal_subtract;
	core.hsa_signal_wait_relaxed_fn = si_signal_wait;
	core.hsa_signal_wait_scacquire_fn = si_signal_wait;
	core.hsa_queue_create_fn = si_queue_create;
	core.hsa_queue_destroy_fn = si_queue_destroy;
	core.hsa_queue_load_read_index_relaxed_fn = si_queue_load_read_index;
	core.hsa_queue_load_read_index_scacquire_fn = si_queue_load_read_index;
	core.hsa_queue_load_write_index_relaxed_fn = si_queue_load_write_index;
	core.hsa_queue_load_write_index_scacquire_fn = si_queue_load_write_index;
	core.hsa_queue_store_write_index_relaxed_fn = si_queue_store_write_index;
	core.hsa_queue_store_write_index_screlease_fn = si_queue_store_write_index;
	core.hsa_queue_add_write_index_relaxed_fn = si_queue_add_write_index;
	core.hsa_queue_add_write_index_screlease_fn = si_queue_add_write_index;
	root.version.major_id = HSA_API_TABLE_MAJOR_VERSION;
	root.version.minor_id = sizeof(HsaApiTable);
	root.version.step_id = HSA_API_TABLE_STEP_VERSION;
	root.core_ = &core;
	built = true;
}

} // namespace

extern "C" void *standin_api_table(void)
{
	build();
	return &root;
}

extern "C" unsigned standin_api_major(void)
{
	return HSA_API_TABLE_MAJOR_VERSION;
}

// Every public entry point goes through the (possibly tool-modified) table.
extern "C" {

EXPORT hsa_status_t hsa_init(void)
{
	build();
	return core.hsa_init_fn();
}

EXPORT hsa_status_t hsa_shut_down(void)
{
	return core.hsa_shut_down_fn();
}

EXPORT hsa_status_t hsa_status_string(hsa_status_t status, const char **string)
{
	return core.hsa_status_string_fn(status, string);
}

EXPORT hsa_status_t hsa_iterate_agents(hsa_status_t (*cb)(hsa_agent_t, void *), void *data)
{
	return core.hsa_iterate_agents_fn(cb, data);
}

EXPORT hsa_status_t hsa_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value)
{
	return core.hsa_agent_get_info_fn(agent, attribute, value);
}

EXPORT hsa_status_t hsa_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*cb)(hsa_isa_t, void *),
                                           void *data)
{
	return core.hsa_agent_iterate_isas_fn(agent, cb, data);
}

EXPORT hsa_status_t hsa_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value)
{
	return core.hsa_isa_get_info_alt_fn(isa, attribute, value);
}

EXPORT hsa_status_t hsa_code_object_reader_create_from_file(hsa_file_t file,
                                                            hsa_code_object_reader_t *reader)
{
	return core.hsa_code_object_reader_create_from_file_fn(file, reader);
}

EXPORT hsa_status_t hsa_code_object_reader_create_from_memory(const void *code_object, size_t size,
                                                              hsa_code_object_reader_t *reader)
{
	return core.hsa_code_object_reader_create_from_memory_fn(code_object, size, reader);
}

EXPORT hsa_status_t hsa_code_object_reader_destroy(hsa_code_object_reader_t reader)
{
	return core.hsa_code_object_reader_destroy_fn(reader);
}

EXPORT hsa_status_t hsa_executable_create(hsa_profile_t profile, hsa_executable_state_t state,
                                          const char *options, hsa_executable_t *executable)
{
	return core.hsa_executable_create_fn(profile, state, options, executable);
}

EXPORT hsa_status_t hsa_executable_create_alt(hsa_profile_t profile,
                                              hsa_default_float_rounding_mode_t rounding,
                                              const char *options, hsa_executable_t *executable)
{
	return core.hsa_executable_create_alt_fn(profile, rounding, options, executable);
}

EXPORT hsa_status_t hsa_executable_destroy(hsa_executable_t executable)
{
	return core.hsa_executable_destroy_fn(executable);
}

EXPORT hsa_status_t hsa_executable_freeze(hsa_executable_t executable, const char *options)
{
	return core.hsa_executable_freeze_fn(executable, options);
}

EXPORT hsa_status_t hsa_executable_load_agent_code_object(hsa_executable_t executable,
                                                          hsa_agent_t agent,
                                                          hsa_code_object_reader_t reader,
                                                          const char *options,
                                                          hsa_loaded_code_object_t *loaded)
{
	return core.hsa_executable_load_agent_code_object_fn(executable, agent, reader, options,
	                                                     loaded);
}

EXPORT hsa_status_t hsa_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                    hsa_code_object_t code_object,
                                                    const char *options)
{
	return core.hsa_executable_load_code_object_fn(executable, agent, code_object, options);
}

EXPORT hsa_status_t hsa_code_object_deserialize(void *serialized, size_t size, const char *options,
                                                hsa_code_object_t *code_object)
{
	return core.hsa_code_object_deserialize_fn(serialized, size, options, code_object);
}

EXPORT hsa_status_t hsa_code_object_destroy(hsa_code_object_t code_object)
{
	return core.hsa_code_object_destroy_fn(code_object);
}

// The dispatch path: one implementation per call, whatever its memory order (the stand-in's
// atomics are sequentially consistent).
#define FORWARD(ret, name, params, args)                                                           \
	EXPORT ret name params                                                                     \
	{                                                                                          \
		return core.name##_fn args;                                                        \
	}
FORWARD(hsa_status_t, hsa_executable_get_symbol_by_name,
        (hsa_executable_t e, const char *n, const hsa_agent_t *a, hsa_executable_symbol_t *s),
        (e, n, a, s))
FORWARD(hsa_status_t, hsa_executable_symbol_get_info,
        (hsa_executable_symbol_t s, hsa_executable_symbol_info_t i, void *v), (s, i, v))
FORWARD(hsa_status_t, hsa_agent_iterate_regions,
        (hsa_agent_t a, hsa_status_t (*cb)(hsa_region_t, void *), void *d), (a, cb, d))
FORWARD(hsa_status_t, hsa_region_get_info, (hsa_region_t r, hsa_region_info_t i, void *v),
        (r, i, v))
FORWARD(hsa_status_t, hsa_memory_allocate, (hsa_region_t r, size_t n, void **p), (r, n, p))
FORWARD(hsa_status_t, hsa_memory_free, (void *p), (p))
FORWARD(hsa_status_t, hsa_signal_create,
        (hsa_signal_value_t v, uint32_t n, const hsa_agent_t *c, hsa_signal_t *s), (v, n, c, s))
FORWARD(hsa_status_t, hsa_signal_destroy, (hsa_signal_t s), (s))
FORWARD(hsa_signal_value_t, hsa_signal_load_relaxed, (hsa_signal_t s), (s))
FORWARD(hsa_signal_value_t, hsa_signal_load_scacquire, (hsa_signal_t s), (s))
FORWARD(void, hsa_signal_store_relaxed, (hsa_signal_t s, hsa_signal_value_t v), (s, v))
FORWARD(void, hsa_signal_store_screlease, (hsa_signal_t s, hsa_signal_value_t v), (s, v))
FORWARD(void, hsa_signal_subtract_relaxed, (hsa_signal_t s, hsa_signal_value_t v), (s, v))
FORWARD(void, hsa_signal_subtract_screlease, (hsa_signal_t s, hsa_signal_value_t v), (s, v))
FORWARD(hsa_signal_value_t, hsa_signal_wait_relaxed,
        (hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t v, uint64_t t,
         hsa_wait_state_t w),
        (s, c, v, t, w))
FORWARD(hsa_signal_value_t, hsa_signal_wait_scacquire,
        (hsa_signal_t s, hsa_signal_condition_t c, hsa_signal_value_t v, uint64_t t,
         hsa_wait_state_t w),
        (s, c, v, t, w))
FORWARD(hsa_status_t, hsa_queue_create,
        (hsa_agent_t a, uint32_t n, hsa_queue_type32_t t,
         void (*cb)(hsa_status_t, hsa_queue_t *, void *), void *d, uint32_t p, uint32_t g,
         hsa_queue_t **q),
        (a, n, t, cb, d, p, g, q))
FORWARD(hsa_status_t, hsa_queue_destroy, (hsa_queue_t * q), (q))
FORWARD(uint64_t, hsa_queue_load_read_index_relaxed, (const hsa_queue_t *q), (q))
FORWARD(uint64_t, hsa_queue_load_read_index_scacquire, (const hsa_queue_t *q), (q))
FORWARD(uint64_t, hsa_queue_load_write_index_relaxed, (const hsa_queue_t *q), (q))
FORWARD(uint64_t, hsa_queue_load_write_index_scacquire, (const hsa_queue_t *q), (q))
FORWARD(void, hsa_queue_store_write_index_relaxed, (const hsa_queue_t *q, uint64_t v), (q, v))
FORWARD(void, hsa_queue_store_write_index_screlease, (const hsa_queue_t *q, uint64_t v), (q, v))
FORWARD(uint64_t, hsa_queue_add_write_index_relaxed, (const hsa_queue_t *q, uint64_t v), (q, v))
FORWARD(uint64_t, hsa_queue_add_write_index_screlease, (const hsa_queue_t *q, uint64_t v), (q, v))
#undef FORWARD

} // extern "C"
