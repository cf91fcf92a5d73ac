/* elf64_header_read: an ELF64 little-endian header, by field name. */
#include "elf_header.h"

#include <string.h>

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "elf64_header_read copies little-endian headers into native structs");

bool elf64_header_read(const void *p, size_t size, Elf64_Ehdr *eh)
{
	if (!p || size < sizeof(*eh))
		return false;
	memcpy(eh, p, sizeof(*eh));
	return !memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
	       eh->e_ident[EI_DATA] == ELFDATA2LSB;
}
