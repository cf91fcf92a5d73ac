/* The replaced CoreApiTable entries and the runtime's originals they forward to. */
#ifndef HOTSWAP_INTERCEPT_HOOKS_H
#define HOTSWAP_INTERCEPT_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "decide.h"
#include "hsa_table.h"

/* The runtime's own entries, saved by OnLoad before any hook is installed. */
extern struct hsa_core_table hsi_orig;
/* The switches, read once by hsi_core_setup. */
extern struct hsi_config hsi_cfg;
/* Reads the switches and sets the rewriter's log, once, for whichever entry comes first:
 * OnLoad, or a HIP call (a fat binary registers before main, long before hsa_init). */
void hsi_core_setup(void);

/*
 * True when p[0..size) starts like an AMDGPU ELF64 of a gfx12.5 processor (codeobj's
 * cob_elf_processor): the only objects the decision table can ever rewrite, so the only ones
 * worth copying.
 */
bool hsi_maybe_gfx125x(const void *p, size_t size);

hsa_status_t hsi_reader_create_from_memory(const void *code_object, size_t size,
                                           hsa_code_object_reader_t *reader);
hsa_status_t hsi_reader_create_from_file(hsa_file_t file, hsa_code_object_reader_t *reader);
hsa_status_t hsi_reader_destroy(hsa_code_object_reader_t reader);
hsa_status_t hsi_load_agent_code_object(hsa_executable_t exec, hsa_agent_t agent,
                                        hsa_code_object_reader_t reader, const char *options,
                                        hsa_loaded_code_object_t *loaded);
hsa_status_t hsi_load_code_object(hsa_executable_t exec, hsa_agent_t agent,
                                  hsa_code_object_t code_object, const char *options);

/* Agent facts from the runtime (cached per agent handle); 0 or -1. */
int hsi_agent_facts(hsa_agent_t agent, struct hsi_agent_facts *out);

#endif
