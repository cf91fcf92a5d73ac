/*
 * The one way the tree reads an ELF64 header from bytes in memory, before (or instead of)
 * handing the whole file to libelf: copied into an Elf64_Ehdr and read by field name,
 * never at literal offsets.  Whole files are read through libelf (gelf_getehdr,
 * gelf_getshdr, ...).  Pure: no allocation, safe in any process (the intercept uses it).
 */
#ifndef MIRAGE_ELF_HEADER_H
#define MIRAGE_ELF_HEADER_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>

#ifndef EM_AMDGPU
#define EM_AMDGPU 224
#endif

/*
 * Copies the header at p[0..size) into *eh when p starts with an ELF64 little-endian
 * identification (magic, class, data); false otherwise, or when size is too short.
 * The fields are then native: every host we build for is little-endian.
 */
bool elf64_header_read(const void *p, size_t size, Elf64_Ehdr *eh);

#endif
