// Proves intercept/hsa_table.h, the intercept's C mirror of ROCr's
// C++ hsa_api_trace.h, against the real header: every offset and size.
#include <cstddef>
#include <cstdint>
#include <setjmp.h>
#include <stdarg.h>
extern "C" {
#include <cmocka.h>
}

#include <hsa/hsa_api_trace.h>

#include "hsa_table.h"

namespace
{

struct field {
	const char *name;
	size_t mirror;
	size_t real;
};

#define CORE(f)                                                                                    \
	{                                                                                          \
#f, offsetof(struct hsa_core_table, f), offsetof(CoreApiTable, f)                  \
	}
#define ROOT(m, r)                                                                                 \
	{                                                                                          \
#r, offsetof(struct hsa_api_table, m), offsetof(HsaApiTable, r)                    \
	}

const field fields[] = {
    {"version.major_id", offsetof(struct hsa_table_version, major_id),
     offsetof(ApiTableVersion, major_id)},
    {"version.minor_id", offsetof(struct hsa_table_version, minor_id),
     offsetof(ApiTableVersion, minor_id)},
    {"version.step_id", offsetof(struct hsa_table_version, step_id),
     offsetof(ApiTableVersion, step_id)},
    ROOT(version, version),
    ROOT(core_, core_),
    ROOT(amd_ext_, amd_ext_),
    ROOT(finalizer_ext_, finalizer_ext_),
    ROOT(image_ext_, image_ext_),
    CORE(version),
    CORE(hsa_init_fn),
    CORE(hsa_shut_down_fn),
    CORE(hsa_system_get_info_fn),
    CORE(hsa_system_extension_supported_fn),
    CORE(hsa_system_get_extension_table_fn),
    CORE(hsa_iterate_agents_fn),
    CORE(hsa_agent_get_info_fn),
    CORE(hsa_queue_create_fn),
    CORE(hsa_soft_queue_create_fn),
    CORE(hsa_queue_destroy_fn),
    CORE(hsa_queue_inactivate_fn),
    CORE(hsa_queue_load_read_index_scacquire_fn),
    CORE(hsa_queue_load_read_index_relaxed_fn),
    CORE(hsa_queue_load_write_index_scacquire_fn),
    CORE(hsa_queue_load_write_index_relaxed_fn),
    CORE(hsa_queue_store_write_index_relaxed_fn),
    CORE(hsa_queue_store_write_index_screlease_fn),
    CORE(hsa_queue_cas_write_index_scacq_screl_fn),
    CORE(hsa_queue_cas_write_index_scacquire_fn),
    CORE(hsa_queue_cas_write_index_relaxed_fn),
    CORE(hsa_queue_cas_write_index_screlease_fn),
    CORE(hsa_queue_add_write_index_scacq_screl_fn),
    CORE(hsa_queue_add_write_index_scacquire_fn),
    CORE(hsa_queue_add_write_index_relaxed_fn),
    CORE(hsa_queue_add_write_index_screlease_fn),
    CORE(hsa_queue_store_read_index_relaxed_fn),
    CORE(hsa_queue_store_read_index_screlease_fn),
    CORE(hsa_agent_iterate_regions_fn),
    CORE(hsa_region_get_info_fn),
    CORE(hsa_agent_get_exception_policies_fn),
    CORE(hsa_agent_extension_supported_fn),
    CORE(hsa_memory_register_fn),
    CORE(hsa_memory_deregister_fn),
    CORE(hsa_memory_allocate_fn),
    CORE(hsa_memory_free_fn),
    CORE(hsa_memory_copy_fn),
    CORE(hsa_memory_assign_agent_fn),
    CORE(hsa_signal_create_fn),
    CORE(hsa_signal_destroy_fn),
    CORE(hsa_signal_load_relaxed_fn),
    CORE(hsa_signal_load_scacquire_fn),
    CORE(hsa_signal_store_relaxed_fn),
    CORE(hsa_signal_store_screlease_fn),
    CORE(hsa_signal_wait_relaxed_fn),
    CORE(hsa_signal_wait_scacquire_fn),
    CORE(hsa_signal_and_relaxed_fn),
    CORE(hsa_signal_and_scacquire_fn),
    CORE(hsa_signal_and_screlease_fn),
    CORE(hsa_signal_and_scacq_screl_fn),
    CORE(hsa_signal_or_relaxed_fn),
    CORE(hsa_signal_or_scacquire_fn),
    CORE(hsa_signal_or_screlease_fn),
    CORE(hsa_signal_or_scacq_screl_fn),
    CORE(hsa_signal_xor_relaxed_fn),
    CORE(hsa_signal_xor_scacquire_fn),
    CORE(hsa_signal_xor_screlease_fn),
    CORE(hsa_signal_xor_scacq_screl_fn),
    CORE(hsa_signal_exchange_relaxed_fn),
    CORE(hsa_signal_exchange_scacquire_fn),
    CORE(hsa_signal_exchange_screlease_fn),
    CORE(hsa_signal_exchange_scacq_screl_fn),
    CORE(hsa_signal_add_relaxed_fn),
    CORE(hsa_signal_add_scacquire_fn),
    CORE(hsa_signal_add_screlease_fn),
    CORE(hsa_signal_add_scacq_screl_fn),
    CORE(hsa_signal_subtract_relaxed_fn),
    CORE(hsa_signal_subtract_scacquire_fn),
    CORE(hsa_signal_subtract_screlease_fn),
    CORE(hsa_signal_subtract_scacq_screl_fn),
    CORE(hsa_signal_cas_relaxed_fn),
    CORE(hsa_signal_cas_scacquire_fn),
    CORE(hsa_signal_cas_screlease_fn),
    CORE(hsa_signal_cas_scacq_screl_fn),
    CORE(hsa_isa_from_name_fn),
    CORE(hsa_isa_get_info_fn),
    CORE(hsa_isa_compatible_fn),
    CORE(hsa_code_object_serialize_fn),
    CORE(hsa_code_object_deserialize_fn),
    CORE(hsa_code_object_destroy_fn),
    CORE(hsa_code_object_get_info_fn),
    CORE(hsa_code_object_get_symbol_fn),
    CORE(hsa_code_symbol_get_info_fn),
    CORE(hsa_code_object_iterate_symbols_fn),
    CORE(hsa_executable_create_fn),
    CORE(hsa_executable_destroy_fn),
    CORE(hsa_executable_load_code_object_fn),
    CORE(hsa_executable_freeze_fn),
    CORE(hsa_executable_get_info_fn),
    CORE(hsa_executable_global_variable_define_fn),
    CORE(hsa_executable_agent_global_variable_define_fn),
    CORE(hsa_executable_readonly_variable_define_fn),
    CORE(hsa_executable_validate_fn),
    CORE(hsa_executable_get_symbol_fn),
    CORE(hsa_executable_symbol_get_info_fn),
    CORE(hsa_executable_iterate_symbols_fn),
    CORE(hsa_status_string_fn),
    CORE(hsa_extension_get_name_fn),
    CORE(hsa_system_major_extension_supported_fn),
    CORE(hsa_system_get_major_extension_table_fn),
    CORE(hsa_agent_major_extension_supported_fn),
    CORE(hsa_cache_get_info_fn),
    CORE(hsa_agent_iterate_caches_fn),
    CORE(hsa_signal_silent_store_relaxed_fn),
    CORE(hsa_signal_silent_store_screlease_fn),
    CORE(hsa_signal_group_create_fn),
    CORE(hsa_signal_group_destroy_fn),
    CORE(hsa_signal_group_wait_any_scacquire_fn),
    CORE(hsa_signal_group_wait_any_relaxed_fn),
    CORE(hsa_agent_iterate_isas_fn),
    CORE(hsa_isa_get_info_alt_fn),
    CORE(hsa_isa_get_exception_policies_fn),
    CORE(hsa_isa_get_round_method_fn),
    CORE(hsa_wavefront_get_info_fn),
    CORE(hsa_isa_iterate_wavefronts_fn),
    CORE(hsa_code_object_get_symbol_from_name_fn),
    CORE(hsa_code_object_reader_create_from_file_fn),
    CORE(hsa_code_object_reader_create_from_memory_fn),
    CORE(hsa_code_object_reader_destroy_fn),
    CORE(hsa_executable_create_alt_fn),
    CORE(hsa_executable_load_program_code_object_fn),
    CORE(hsa_executable_load_agent_code_object_fn),
    CORE(hsa_executable_validate_alt_fn),
    CORE(hsa_executable_get_symbol_by_name_fn),
    CORE(hsa_executable_iterate_agent_symbols_fn),
    CORE(hsa_executable_iterate_program_symbols_fn),
};

void test_offsets(void **state)
{
	for (const field &f : fields) {
		if (f.mirror != f.real)
			fail_msg("%s: mirror offset %zu, hsa_api_trace.h offset %zu", f.name,
			         f.mirror, f.real);
	}
}

void test_sizes(void **state)
{
	assert_int_equal(sizeof(struct hsa_table_version), sizeof(ApiTableVersion));
	assert_int_equal(sizeof(struct hsa_api_table), sizeof(HsaApiTable));
	assert_int_equal(sizeof(struct hsa_core_table), sizeof(CoreApiTable));
	// The mirror names every entry: the count matches the real table's pointer slots.
	assert_int_equal((sizeof(CoreApiTable) - sizeof(ApiTableVersion)) / sizeof(void *), 125);
}

// An entry exists iff its offset + pointer size fits the runtime's minor_id.
void test_has(void **state)
{
	struct hsa_table_version v = {1, (uint32_t)sizeof(CoreApiTable), 0, 0};
	assert_true(hsa_table_has(
	    &v, offsetof(struct hsa_core_table, hsa_executable_iterate_program_symbols_fn)));
	v.minor_id = (uint32_t)offsetof(CoreApiTable, hsa_executable_load_agent_code_object_fn);
	assert_false(hsa_table_has(
	    &v, offsetof(struct hsa_core_table, hsa_executable_load_agent_code_object_fn)));
	v.minor_id += sizeof(void *);
	assert_true(hsa_table_has(
	    &v, offsetof(struct hsa_core_table, hsa_executable_load_agent_code_object_fn)));
}

} // namespace

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_offsets),
	    cmocka_unit_test(test_sizes),
	    cmocka_unit_test(test_has),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
