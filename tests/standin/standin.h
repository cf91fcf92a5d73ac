/*
 * Internals shared by the stand-in HSA runtime's C implementation
 * (standin_impl.c, standin_tools.c) and its C++ API table
 * (standin_table.cpp, which needs the real hsa_api_trace.h).
 */
#ifndef MIRAGE_STANDIN_H
#define MIRAGE_STANDIN_H

#include <hsa/hsa.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The table handed to tools' OnLoad (a struct HsaApiTable *); built by standin_table.cpp. */
void *standin_api_table(void);
/* Its root major id, passed to OnLoad as the runtime version like ROCr does. */
unsigned standin_api_major(void);

/* Loads HSA_TOOLS_LIB (and already-loaded tools) and calls OnLoad; OnUnload on unload. */
void standin_tools_load(void);
void standin_tools_unload(void);

/* Implementations behind the table (same signatures as the hsa_* functions). */
hsa_status_t si_init(void);
hsa_status_t si_shut_down(void);
hsa_status_t si_status_string(hsa_status_t status, const char **string);
hsa_status_t si_iterate_agents(hsa_status_t (*cb)(hsa_agent_t, void *), void *data);
hsa_status_t si_agent_get_info(hsa_agent_t agent, hsa_agent_info_t attribute, void *value);
hsa_status_t si_agent_iterate_isas(hsa_agent_t agent, hsa_status_t (*cb)(hsa_isa_t, void *),
                                   void *data);
hsa_status_t si_isa_get_info_alt(hsa_isa_t isa, hsa_isa_info_t attribute, void *value);
hsa_status_t si_reader_create_from_file(hsa_file_t file, hsa_code_object_reader_t *reader);
hsa_status_t si_reader_create_from_memory(const void *code_object, size_t size,
                                          hsa_code_object_reader_t *reader);
hsa_status_t si_reader_destroy(hsa_code_object_reader_t reader);
hsa_status_t si_executable_create(hsa_profile_t profile, hsa_executable_state_t state,
                                  const char *options, hsa_executable_t *executable);
hsa_status_t si_executable_create_alt(hsa_profile_t profile,
                                      hsa_default_float_rounding_mode_t rounding,
                                      const char *options, hsa_executable_t *executable);
hsa_status_t si_executable_destroy(hsa_executable_t executable);
hsa_status_t si_executable_freeze(hsa_executable_t executable, const char *options);
hsa_status_t si_executable_load_agent_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                                  hsa_code_object_reader_t reader,
                                                  const char *options,
                                                  hsa_loaded_code_object_t *loaded);
hsa_status_t si_executable_load_code_object(hsa_executable_t executable, hsa_agent_t agent,
                                            hsa_code_object_t code_object, const char *options);
hsa_status_t si_code_object_deserialize(void *serialized, size_t size, const char *options,
                                        hsa_code_object_t *code_object);
hsa_status_t si_code_object_destroy(hsa_code_object_t code_object);

int standin_agent_valid(hsa_agent_t agent);

/* The dispatch path (standin_dispatch.c): each loaded object's bytes, kept per executable. */
void standin_keep_loaded(const void *exec, const void *bytes, size_t size);
void standin_drop_loaded(const void *exec);
hsa_status_t si_executable_get_symbol_by_name(hsa_executable_t executable, const char *symbol_name,
                                              const hsa_agent_t *agent,
                                              hsa_executable_symbol_t *symbol);
hsa_status_t si_executable_symbol_get_info(hsa_executable_symbol_t symbol,
                                           hsa_executable_symbol_info_t attribute, void *value);
hsa_status_t si_agent_iterate_regions(hsa_agent_t agent, hsa_status_t (*cb)(hsa_region_t, void *),
                                      void *data);
hsa_status_t si_region_get_info(hsa_region_t region, hsa_region_info_t attribute, void *value);
hsa_status_t si_memory_allocate(hsa_region_t region, size_t size, void **ptr);
hsa_status_t si_memory_free(void *ptr);
hsa_status_t si_signal_create(hsa_signal_value_t initial_value, uint32_t num_consumers,
                              const hsa_agent_t *consumers, hsa_signal_t *signal);
hsa_status_t si_signal_destroy(hsa_signal_t signal);
hsa_signal_value_t si_signal_load(hsa_signal_t signal);
void si_signal_store(hsa_signal_t signal, hsa_signal_value_t value);
void si_signal_subtract(hsa_signal_t signal, hsa_signal_value_t value);
hsa_signal_value_t si_signal_wait(hsa_signal_t signal, hsa_signal_condition_t condition,
                                  hsa_signal_value_t compare_value, uint64_t timeout_hint,
                                  hsa_wait_state_t wait_state_hint);
hsa_status_t si_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                             void (*callback)(hsa_status_t, hsa_queue_t *, void *), void *data,
                             uint32_t private_segment_size, uint32_t group_segment_size,
                             hsa_queue_t **queue);
hsa_status_t si_queue_destroy(hsa_queue_t *queue);
uint64_t si_queue_load_read_index(const hsa_queue_t *queue);
uint64_t si_queue_load_write_index(const hsa_queue_t *queue);
void si_queue_store_write_index(const hsa_queue_t *queue, uint64_t value);
uint64_t si_queue_add_write_index(const hsa_queue_t *queue, uint64_t value);

#ifdef __cplusplus
}
#endif

#endif
