/*
 * The .hip_fatbin section of a host executable or library (bundle.h), found through libelf.
 * Its own file, so that what links the bundle reader alone (the intercept core) does not
 * load libelf for it.
 */
#include "bundle.h"

#include <gelf.h>
#include <libelf.h>
#include <string.h>

#include "str_fmt.h"

int cob_find_hip_fatbin(const void *elf, size_t size, const uint8_t **sec, size_t *sec_size,
                        char **err)
{
	Elf *e;
	Elf_Scn *s = NULL;
	size_t shstrndx;
	int rc = 0;

	if (err)
		*err = NULL;
	elf_version(EV_CURRENT);
	e = elf_memory((char *)elf, size);
	if (!e || elf_kind(e) != ELF_K_ELF || gelf_getclass(e) != ELFCLASS64 ||
	    elf_getshdrstrndx(e, &shstrndx) != 0) {
		if (err)
			*err = str_fmt("not a 64-bit ELF file: %s", elf_errmsg(-1));
		rc = -1;
		goto out;
	}
	while ((s = elf_nextscn(e, s))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(s, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (strcmp(name, ".hip_fatbin"))
			continue;
		if (sh.sh_type == SHT_NOBITS || sh.sh_offset > size ||
		    sh.sh_size > size - sh.sh_offset) {
			if (err)
				*err =
				    str_fmt(".hip_fatbin: offset 0x%llx, %llu bytes, lies outside "
				            "the file's %zu bytes",
				            (unsigned long long)sh.sh_offset,
				            (unsigned long long)sh.sh_size, size);
			rc = -1;
			goto out;
		}
		*sec = (const uint8_t *)elf + sh.sh_offset;
		*sec_size = (size_t)sh.sh_size;
		rc = 1;
		break;
	}
out:
	if (e)
		elf_end(e);
	return rc;
}
