/* ELF header peeks for the load hooks. */
#include "elf_peek.h"

#include <string.h>

#include "elf_header.h"
#include "gfx_table.h"

bool hsi_elf_maybe_gfx125x(const void *p, size_t size)
{
	Elf64_Ehdr eh;
	const struct gfx_info *g;

	if (!elf64_header_read(p, size, &eh) || eh.e_machine != EM_AMDGPU)
		return false;
	g = gfx_by_mach((uint8_t)(eh.e_flags & 0xff));
	return g && !strcmp(g->family, "gfx12.5");
}

static void grow(size_t *end, uint64_t off, uint64_t len)
{
	if (off + len >= off && off + len > *end)
		*end = (size_t)(off + len);
}

size_t hsi_elf_extent(const void *p)
{
	const unsigned char *base = p;
	Elf64_Ehdr eh;
	size_t end = sizeof(eh);

	/* The size is what we are after: the header's own bytes must be readable. */
	if (!elf64_header_read(p, sizeof(eh), &eh))
		return 0;
	grow(&end, eh.e_phoff, (uint64_t)eh.e_phnum * eh.e_phentsize);
	grow(&end, eh.e_shoff, (uint64_t)eh.e_shnum * eh.e_shentsize);
	if (eh.e_phentsize == sizeof(Elf64_Phdr)) {
		for (unsigned i = 0; i < eh.e_phnum; i++) {
			Elf64_Phdr ph;
			memcpy(&ph, base + eh.e_phoff + (size_t)i * sizeof(ph), sizeof(ph));
			grow(&end, ph.p_offset, ph.p_filesz);
		}
	}
	if (eh.e_shentsize == sizeof(Elf64_Shdr)) {
		for (unsigned i = 0; i < eh.e_shnum; i++) {
			Elf64_Shdr sh;
			memcpy(&sh, base + eh.e_shoff + (size_t)i * sizeof(sh), sizeof(sh));
			if (sh.sh_type != SHT_NOBITS)
				grow(&end, sh.sh_offset, sh.sh_size);
		}
	}
	return end;
}
