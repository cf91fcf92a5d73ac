/*
 * A code object opened and validated once, failing closed (libmirage_codeobj): a private copy
 * of the bytes opened with libelf, the header checked by field name first (elf_isa.h) so libelf
 * never reads outside the file, then every section and segment: sections inside the file and
 * not overlapping in it or in the address space, names inside the section name table (which is
 * not allocated), symbol tables linked to string tables, segments inside the file, `.text`
 * present.  Nothing that reads the model later re-checks a bound checked here.  The rewriter's
 * loader is built on it (docs/rewriter.md); a reader, never a writer.
 */
#ifndef MIRAGE_CODEOBJ_ELF_VIEW_H
#define MIRAGE_CODEOBJ_ELF_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include <gelf.h>
#include <libelf.h>

#include "note.h"

struct cob_section {
	GElf_Shdr sh;
	const char *name; /* points into the model's copy; "" when unnamed */
};

struct cob_elf {
	uint8_t *buf; /* private copy of the input, owned */
	size_t size;
	Elf *elf;
	GElf_Ehdr eh;
	size_t phnum, shnum, shstrndx;
	GElf_Phdr *ph;
	struct cob_section *sec;
	size_t text;                         /* index of .text */
	size_t symtab;                       /* index of the last SHT_SYMTAB, 0 if none */
	size_t dynsym;                       /* index of SHT_DYNSYM, 0 if none */
	Elf_Data *symtab_data, *dynsym_data; /* their entries, as libelf reads them */
	uint64_t max_alloc_end;              /* max end of SHF_ALLOC sections and PT_LOADs */
};

/* elf_version() once per process: 0, or -ENOSYS with libelf's reason in err. */
int cob_libelf_init(char *err, size_t err_size);
/*
 * Copies in[0..size) into e, opens it with libelf and validates it.  0, or with the reason in
 * err (e is then empty): -EINVAL for a bad object, -ENOMEM, -ENOSYS when libelf is unusable.
 */
int cob_elf_open(struct cob_elf *e, const void *in, size_t size, char *err, size_t err_size);
void cob_elf_close(struct cob_elf *e);
/* The section named name, 0 if none. */
size_t cob_elf_section(const struct cob_elf *e, const char *name);
/*
 * Maps [vaddr, vaddr+len) to a file offset through an allocatable, non-NOBITS section that
 * contains all of it.  Returns the section index, 0 if none.
 */
size_t cob_elf_vaddr_to_off(const struct cob_elf *e, uint64_t vaddr, uint64_t len, uint64_t *off);
/* A symbol table's entries (validated by cob_elf_open, read through gelf_getsym). */
size_t cob_elf_sym_count(const struct cob_elf *e, size_t secidx);
void cob_elf_sym(const struct cob_elf *e, size_t secidx, size_t i, GElf_Sym *sym);
/* The name of a symbol (NUL-terminated inside its string table), or NULL when it is not. */
const char *cob_elf_sym_name(const struct cob_elf *e, size_t secidx, const GElf_Sym *sym);
/* Walks the records of note section sec (note.h), padded as the section pads them. */
void cob_elf_notes(struct cob_note_iter *it, const struct cob_elf *e, size_t sec);

#endif
