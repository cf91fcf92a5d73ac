/* The build identity (build_identity.h). */
#include "build_identity.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_header.h"
#include "hotswap_contract.h"

#define BUILD_ID_MAX 64 /* bytes; sha1 is 20, md5 16, uuid 16 */
/* A PT_NOTE segment larger than this is not read.  Ours hold the build-id, the ABI tag and
 * the GNU properties, well under it; the buffer is on the stack of whatever thread of a
 * workload first loads code, so it stays small. */
#define NOTES_MAX      4096
#define PHDRS_MAX      64
#define GNU_NOTE_NAME  "GNU"
#define GNU_BUILD_TYPE 3 /* NT_GNU_BUILD_ID */

static bool read_at(int fd, void *buf, size_t size, uint64_t off)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = pread(fd, (char *)buf + got, size - got, (off_t)(off + got));
		if (n <= 0)
			return false;
		got += (size_t)n;
	}
	return true;
}

/* The build-id among the notes in buf (ELF note records, each field aligned to align). */
static bool find_build_id(const uint8_t *buf, size_t size, size_t align, char *out, size_t out_size)
{
	size_t pos = 0;

	while (size - pos >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_at = pos + 12, desc_at, next;
		memcpy(&namesz, buf + pos, 4);
		memcpy(&descsz, buf + pos + 4, 4);
		memcpy(&type, buf + pos + 8, 4);
		desc_at = name_at + ((namesz + align - 1) & ~(align - 1));
		next = desc_at + ((descsz + align - 1) & ~(align - 1));
		if (desc_at > size || next > size || next <= pos)
			return false;
		if (type == GNU_BUILD_TYPE && namesz == sizeof(GNU_NOTE_NAME) &&
		    !memcmp(buf + name_at, GNU_NOTE_NAME, sizeof(GNU_NOTE_NAME)) && descsz &&
		    descsz <= BUILD_ID_MAX && 2 * (size_t)descsz < out_size) {
			for (size_t i = 0; i < descsz; i++)
				snprintf(out + 2 * i, out_size - 2 * i, "%02x", buf[desc_at + i]);
			return true;
		}
		pos = next;
	}
	return false;
}

/*
 * One pread of the file's first page finds the header, the program headers and the notes of
 * a library ld wrote (it puts them there); anything outside it is read on its own.  The cache
 * key needs three of these on a workload's first load, so each system call counts.
 */
static bool build_id_of_fd(int fd, char *out, size_t out_size)
{
	uint8_t page[NOTES_MAX];
	Elf64_Phdr ph[PHDRS_MAX];
	Elf64_Ehdr eh;
	struct stat st;
	ssize_t got;
	size_t have, phsize;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	do
		got = pread(fd, page, sizeof(page), 0);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return false;
	have = (size_t)got;
	if (!elf64_header_read(page, have, &eh) || eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    eh.e_phnum == 0 || eh.e_phnum > PHDRS_MAX)
		return false;
	phsize = eh.e_phnum * sizeof(Elf64_Phdr);
	if (eh.e_phoff <= have && phsize <= have - eh.e_phoff)
		memcpy(ph, page + eh.e_phoff, phsize);
	else if (!read_at(fd, ph, phsize, eh.e_phoff))
		return false;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		size_t align = ph[i].p_align == 8 ? 8 : 4;
		const uint8_t *notes = page;
		if (ph[i].p_type != PT_NOTE || ph[i].p_filesz > sizeof(page) ||
		    ph[i].p_offset > (uint64_t)st.st_size ||
		    ph[i].p_filesz > (uint64_t)st.st_size - ph[i].p_offset)
			continue;
		if (ph[i].p_offset > have || ph[i].p_filesz > have - ph[i].p_offset) {
			/* Past the first page: read into it (the headers are copied out). */
			if (!read_at(fd, page, ph[i].p_filesz, ph[i].p_offset))
				continue;
			have = 0; /* the page no longer holds the file's start */
		} else {
			notes = page + ph[i].p_offset;
		}
		if (find_build_id(notes, ph[i].p_filesz, align, out, out_size))
			return true;
	}
	return false;
}

bool elf_build_id_hex(const char *path, char *out, size_t size)
{
	/* O_NONBLOCK: a FIFO planted in a library's place must not hang the open. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	bool ok;

	if (fd < 0)
		return false;
	ok = build_id_of_fd(fd, out, size);
	close(fd);
	return ok;
}

/* " name=<build-id>", or " name=none". */
static void add_library(const char *name, const char *lib_dir, const char *file, char *out,
                        size_t size)
{
	char path[4096], id[2 * BUILD_ID_MAX + 1];
	size_t len = strlen(out);

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", lib_dir, file) >= sizeof(path) ||
	    !elf_build_id_hex(path, id, sizeof(id)))
		snprintf(id, sizeof(id), "none");
	snprintf(out + len, size - len, " %s=%s", name, id);
}

void build_identity_format(const char *version, const char *lib_dir, char *out, size_t size)
{
	snprintf(out, size, "%s", version);
	if (!lib_dir)
		return;
	add_library("rewrite", lib_dir, HOTSWAP_REWRITE_LIB, out, size);
	add_library("mc", lib_dir, HOTSWAP_MC_LIB, out, size);
	add_library("translate", lib_dir, HOTSWAP_TRANSLATE_LIB, out, size);
}
