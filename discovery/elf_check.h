/*
 * Checks that a file is an ELF shared object this process could load and that
 * it defines a given entry point, by reading its headers and .dynsym with
 * libelf (never dlopen(): loading a library runs its constructors).
 */
#ifndef MIRAGE_ELF_CHECK_H
#define MIRAGE_ELF_CHECK_H

#include "hotswap_tree.h"
#include "strbuf.h"

/*
 * Returns PART_OK, PART_MISSING, PART_NOT_ELF, PART_WRONG_MACHINE or
 * PART_MISSING_SYMBOL; for anything but PART_OK a one-line reason is appended
 * to detail.  symbol may be NULL (only the header is checked).
 */
enum hotswap_part_status elf_check_shared_object(const char *path, const char *symbol,
                                                 struct strbuf *detail);

#endif
