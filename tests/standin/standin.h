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

#ifdef __cplusplus
}
#endif

#endif
