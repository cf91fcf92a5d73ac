/*
 * This translator build's identity (translate_api build_id): the GNU build-id of
 * libmirage_translate.so itself, read from its own loaded PT_NOTE segments, so it changes with
 * every change of the code and not otherwise.  A cache keyed on it never serves a translation
 * an older translator made.
 */
#include "build_id.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PREFIX "mirage-translate-"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char identity[sizeof(PREFIX) + 2 * 64] = PREFIX "unknown";

/* The build-id note in one PT_NOTE segment of size n at p, as hex into identity. */
static int note_build_id(const unsigned char *p, size_t n)
{
	while (n >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
		size_t name = (nh->n_namesz + 3) & ~(size_t)3,
		       desc = (nh->n_descsz + 3) & ~(size_t)3;
		if (sizeof(*nh) + name + desc > n)
			return 0;
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
		    !memcmp(p + sizeof(*nh), "GNU", 4) && nh->n_descsz && nh->n_descsz <= 64) {
			const unsigned char *d = p + sizeof(*nh) + name;
			size_t len = strlen(PREFIX);
			for (size_t i = 0; i < nh->n_descsz; i++, len += 2)
				snprintf(identity + len, sizeof(identity) - len, "%02x", d[i]);
			return 1;
		}
		p += sizeof(*nh) + name + desc;
		n -= sizeof(*nh) + name + desc;
	}
	return 0;
}

/* dl_iterate_phdr: the module holding this function, then its notes. */
static int find_self(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t self = (uintptr_t)data;
	int mine = 0;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && self >= start && self - start < ph->p_memsz)
			mine = 1;
	}
	for (int i = 0; mine && i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_NOTE &&
		    note_build_id((const unsigned char *)(info->dlpi_addr + ph->p_vaddr),
		                  ph->p_memsz))
			return 1;
	}
	return mine;
}

static void compute(void)
{
	dl_iterate_phdr(find_self, (void *)(uintptr_t)find_self);
}

const char *translate_build_id(void)
{
	pthread_once(&once, compute);
	return identity;
}
