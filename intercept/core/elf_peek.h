/* Cheap looks at a code object's ELF header, before any copy or rewrite. */
#ifndef HOTSWAP_INTERCEPT_ELF_PEEK_H
#define HOTSWAP_INTERCEPT_ELF_PEEK_H

#include <stdbool.h>
#include <stddef.h>

/*
 * True when p[0..size) starts like an AMDGPU ELF64 whose processor is in the
 * gfx12.5 family: the only objects the decision table can ever rewrite, so
 * the only ones worth copying.
 */
bool hsi_elf_maybe_gfx125x(const void *p, size_t size);

/*
 * The extent of an in-memory ELF64 whose size nobody told us (the deprecated
 * hsa_code_object_t is a bare pointer): the furthest end of the headers,
 * segments and sections.  0 when p is not an ELF64.
 */
size_t hsi_elf_extent(const void *p);

#endif
