/*
 * A C mirror of the parts of ROCr's hsa_api_trace.h (a C++ header) that the
 * intercept touches: the root table and the core table, in header order.
 * test_intercept_table_layout.cpp proves every offset against the real header.
 */
#ifndef HOTSWAP_INTERCEPT_HSA_TABLE_H
#define HOTSWAP_INTERCEPT_HSA_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <hsa/hsa.h>

/* Every table starts with this; minor_id is the table's sizeof in the runtime that filled it. */
struct hsa_table_version {
	uint32_t major_id;
	uint32_t minor_id;
	uint32_t step_id;
	uint32_t reserved;
};

/* Entries we never call keep their slot with a generic pointer type. */
typedef void (*hsa_table_fn)(void);

struct hsa_core_table {
	struct hsa_table_version version;
	hsa_table_fn hsa_init_fn;
	hsa_table_fn hsa_shut_down_fn;
	hsa_table_fn hsa_system_get_info_fn;
	hsa_table_fn hsa_system_extension_supported_fn;
	hsa_table_fn hsa_system_get_extension_table_fn;
	hsa_table_fn hsa_iterate_agents_fn;
	hsa_status_t (*hsa_agent_get_info_fn)(hsa_agent_t agent, hsa_agent_info_t attribute,
	                                      void *value);
	hsa_table_fn hsa_queue_create_fn;
	hsa_table_fn hsa_soft_queue_create_fn;
	hsa_table_fn hsa_queue_destroy_fn;
	hsa_table_fn hsa_queue_inactivate_fn;
	hsa_table_fn hsa_queue_load_read_index_scacquire_fn;
	hsa_table_fn hsa_queue_load_read_index_relaxed_fn;
	hsa_table_fn hsa_queue_load_write_index_scacquire_fn;
	hsa_table_fn hsa_queue_load_write_index_relaxed_fn;
	hsa_table_fn hsa_queue_store_write_index_relaxed_fn;
	hsa_table_fn hsa_queue_store_write_index_screlease_fn;
	hsa_table_fn hsa_queue_cas_write_index_scacq_screl_fn;
	hsa_table_fn hsa_queue_cas_write_index_scacquire_fn;
	hsa_table_fn hsa_queue_cas_write_index_relaxed_fn;
	hsa_table_fn hsa_queue_cas_write_index_screlease_fn;
	hsa_table_fn hsa_queue_add_write_index_scacq_screl_fn;
	hsa_table_fn hsa_queue_add_write_index_scacquire_fn;
	hsa_table_fn hsa_queue_add_write_index_relaxed_fn;
	hsa_table_fn hsa_queue_add_write_index_screlease_fn;
	hsa_table_fn hsa_queue_store_read_index_relaxed_fn;
	hsa_table_fn hsa_queue_store_read_index_screlease_fn;
	hsa_table_fn hsa_agent_iterate_regions_fn;
	hsa_table_fn hsa_region_get_info_fn;
	hsa_table_fn hsa_agent_get_exception_policies_fn;
	hsa_table_fn hsa_agent_extension_supported_fn;
	hsa_table_fn hsa_memory_register_fn;
	hsa_table_fn hsa_memory_deregister_fn;
	hsa_table_fn hsa_memory_allocate_fn;
	hsa_table_fn hsa_memory_free_fn;
	hsa_table_fn hsa_memory_copy_fn;
	hsa_table_fn hsa_memory_assign_agent_fn;
	hsa_table_fn hsa_signal_create_fn;
	hsa_table_fn hsa_signal_destroy_fn;
	hsa_table_fn hsa_signal_load_relaxed_fn;
	hsa_table_fn hsa_signal_load_scacquire_fn;
	hsa_table_fn hsa_signal_store_relaxed_fn;
	hsa_table_fn hsa_signal_store_screlease_fn;
	hsa_table_fn hsa_signal_wait_relaxed_fn;
	hsa_table_fn hsa_signal_wait_scacquire_fn;
	hsa_table_fn hsa_signal_and_relaxed_fn;
	hsa_table_fn hsa_signal_and_scacquire_fn;
	hsa_table_fn hsa_signal_and_screlease_fn;
	hsa_table_fn hsa_signal_and_scacq_screl_fn;
	hsa_table_fn hsa_signal_or_relaxed_fn;
	hsa_table_fn hsa_signal_or_scacquire_fn;
	hsa_table_fn hsa_signal_or_screlease_fn;
	hsa_table_fn hsa_signal_or_scacq_screl_fn;
	hsa_table_fn hsa_signal_xor_relaxed_fn;
	hsa_table_fn hsa_signal_xor_scacquire_fn;
	hsa_table_fn hsa_signal_xor_screlease_fn;
	hsa_table_fn hsa_signal_xor_scacq_screl_fn;
	hsa_table_fn hsa_signal_exchange_relaxed_fn;
	hsa_table_fn hsa_signal_exchange_scacquire_fn;
	hsa_table_fn hsa_signal_exchange_screlease_fn;
	hsa_table_fn hsa_signal_exchange_scacq_screl_fn;
	hsa_table_fn hsa_signal_add_relaxed_fn;
	hsa_table_fn hsa_signal_add_scacquire_fn;
	hsa_table_fn hsa_signal_add_screlease_fn;
	hsa_table_fn hsa_signal_add_scacq_screl_fn;
	hsa_table_fn hsa_signal_subtract_relaxed_fn;
	hsa_table_fn hsa_signal_subtract_scacquire_fn;
	hsa_table_fn hsa_signal_subtract_screlease_fn;
	hsa_table_fn hsa_signal_subtract_scacq_screl_fn;
	hsa_table_fn hsa_signal_cas_relaxed_fn;
	hsa_table_fn hsa_signal_cas_scacquire_fn;
	hsa_table_fn hsa_signal_cas_screlease_fn;
	hsa_table_fn hsa_signal_cas_scacq_screl_fn;
	hsa_table_fn hsa_isa_from_name_fn;
	hsa_table_fn hsa_isa_get_info_fn;
	hsa_table_fn hsa_isa_compatible_fn;
	hsa_table_fn hsa_code_object_serialize_fn;
	hsa_table_fn hsa_code_object_deserialize_fn;
	hsa_table_fn hsa_code_object_destroy_fn;
	hsa_table_fn hsa_code_object_get_info_fn;
	hsa_table_fn hsa_code_object_get_symbol_fn;
	hsa_table_fn hsa_code_symbol_get_info_fn;
	hsa_table_fn hsa_code_object_iterate_symbols_fn;
	hsa_table_fn hsa_executable_create_fn;
	hsa_table_fn hsa_executable_destroy_fn;
	hsa_status_t (*hsa_executable_load_code_object_fn)(hsa_executable_t executable,
	                                                   hsa_agent_t agent,
	                                                   hsa_code_object_t code_object,
	                                                   const char *options);
	hsa_table_fn hsa_executable_freeze_fn;
	hsa_table_fn hsa_executable_get_info_fn;
	hsa_table_fn hsa_executable_global_variable_define_fn;
	hsa_table_fn hsa_executable_agent_global_variable_define_fn;
	hsa_table_fn hsa_executable_readonly_variable_define_fn;
	hsa_table_fn hsa_executable_validate_fn;
	hsa_table_fn hsa_executable_get_symbol_fn;
	hsa_table_fn hsa_executable_symbol_get_info_fn;
	hsa_table_fn hsa_executable_iterate_symbols_fn;
	hsa_table_fn hsa_status_string_fn;
	hsa_table_fn hsa_extension_get_name_fn;
	hsa_table_fn hsa_system_major_extension_supported_fn;
	hsa_table_fn hsa_system_get_major_extension_table_fn;
	hsa_table_fn hsa_agent_major_extension_supported_fn;
	hsa_table_fn hsa_cache_get_info_fn;
	hsa_table_fn hsa_agent_iterate_caches_fn;
	hsa_table_fn hsa_signal_silent_store_relaxed_fn;
	hsa_table_fn hsa_signal_silent_store_screlease_fn;
	hsa_table_fn hsa_signal_group_create_fn;
	hsa_table_fn hsa_signal_group_destroy_fn;
	hsa_table_fn hsa_signal_group_wait_any_scacquire_fn;
	hsa_table_fn hsa_signal_group_wait_any_relaxed_fn;
	hsa_status_t (*hsa_agent_iterate_isas_fn)(
	    hsa_agent_t agent, hsa_status_t (*callback)(hsa_isa_t isa, void *data), void *data);
	hsa_status_t (*hsa_isa_get_info_alt_fn)(hsa_isa_t isa, hsa_isa_info_t attribute,
	                                        void *value);
	hsa_table_fn hsa_isa_get_exception_policies_fn;
	hsa_table_fn hsa_isa_get_round_method_fn;
	hsa_table_fn hsa_wavefront_get_info_fn;
	hsa_table_fn hsa_isa_iterate_wavefronts_fn;
	hsa_table_fn hsa_code_object_get_symbol_from_name_fn;
	hsa_status_t (*hsa_code_object_reader_create_from_file_fn)(
	    hsa_file_t file, hsa_code_object_reader_t *code_object_reader);
	hsa_status_t (*hsa_code_object_reader_create_from_memory_fn)(
	    const void *code_object, size_t size, hsa_code_object_reader_t *code_object_reader);
	hsa_status_t (*hsa_code_object_reader_destroy_fn)(
	    hsa_code_object_reader_t code_object_reader);
	hsa_table_fn hsa_executable_create_alt_fn;
	hsa_table_fn hsa_executable_load_program_code_object_fn;
	hsa_status_t (*hsa_executable_load_agent_code_object_fn)(
	    hsa_executable_t executable, hsa_agent_t agent,
	    hsa_code_object_reader_t code_object_reader, const char *options,
	    hsa_loaded_code_object_t *loaded_code_object);
	hsa_table_fn hsa_executable_validate_alt_fn;
	hsa_table_fn hsa_executable_get_symbol_by_name_fn;
	hsa_table_fn hsa_executable_iterate_agent_symbols_fn;
	hsa_table_fn hsa_executable_iterate_program_symbols_fn;
};

/* HsaApiTable: the root handed to OnLoad. */
struct hsa_api_table {
	struct hsa_table_version version;
	struct hsa_core_table *core_;
	void *amd_ext_;
	void *finalizer_ext_;
	void *image_ext_;
};

/* The major ids this mirror was written against (hsa_api_trace.h). */
#define HSA_TABLE_ROOT_MAJOR 1u
#define HSA_TABLE_CORE_MAJOR 1u

/*
 * True when the entry at offset off (a pointer) exists in a table whose
 * runtime size is minor_id: the tables only ever grow at the end.
 */
static inline bool hsa_table_has(const struct hsa_table_version *v, size_t off)
{
	return off + sizeof(void *) <= v->minor_id;
}

#define HSA_CORE_HAS(core, field)                                                                  \
	hsa_table_has(&(core)->version, offsetof(struct hsa_core_table, field))

/* The core table of a root table of the major versions this mirror knows, or NULL. */
static inline struct hsa_core_table *hsa_table_core(const struct hsa_api_table *api)
{
	if (!api || api->version.major_id != HSA_TABLE_ROOT_MAJOR ||
	    !hsa_table_has(&api->version, offsetof(struct hsa_api_table, core_)) || !api->core_ ||
	    api->core_->version.major_id != HSA_TABLE_CORE_MAJOR)
		return NULL;
	return api->core_;
}

#endif
