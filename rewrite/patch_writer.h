/*
 * The patch writer's two steps, shared by patch_layout.c and patch_emit.c only: the
 * layout decides where every relocated or new piece goes and what the new header tables
 * say; the emit step copies bytes to those places.  Nothing here knows a pass.
 */
#ifndef HS_PATCH_WRITER_H
#define HS_PATCH_WRITER_H

#include "writer.h"

/* A string table copied to the tail with names appended (a name already there is reused). */
struct hs_strtab_append {
	size_t sec;         /* the table's section index */
	uint64_t off;       /* where the copy starts in the output */
	const char **names; /* n names to add (not owned) */
	uint32_t *offs;     /* their offsets in the new table */
	bool *appended;     /* false: found in the old table */
	size_t n;
	uint64_t size; /* the new table's size */
};

/* A metadata record re-encoded with the plan's updates. */
struct hs_note_edit {
	uint64_t rec_off, rec_size; /* the old record in the input */
	uint8_t *rec;               /* the new one */
	size_t size;
};

struct hs_patch_layout {
	/* the metadata records the plan updates, in file order */
	struct hs_note_edit *edit;
	size_t n_edit;
	size_t note_sec;   /* their section (one, when they move) */
	bool note_moves;   /* a record of another size moves its whole section into the pool */
	uint64_t note_off; /* the moved section's new file offset */
	/* the pool segment */
	bool pool;
	uint64_t pool_vaddr, pool_off, pool_size;
	uint64_t phoff; /* the program header table, inside the pool */
	GElf_Phdr *ph;
	size_t phnum;
	size_t pool_sec, prov_sec; /* new section indices, 0 when absent */
	uint64_t prov_off;
	struct hs_strtab_append shstr; /* names of the new sections */
	/* symbols */
	struct hs_strtab_append str;
	uint64_t symtab_off;
	/* the section header table, when it grows or moves */
	bool new_shdrs;
	uint64_t shoff;
	GElf_Shdr *sh;
	size_t shnum;
	size_t size; /* of the whole output */
};

HS_INTERNAL enum hs_status hs_patch_layout(const struct hs_object *o, const struct hs_plan *p,
                                           struct hs_patch_layout *l);
HS_INTERNAL void hs_patch_layout_free(struct hs_patch_layout *l);
HS_INTERNAL enum hs_status hs_patch_emit(const struct hs_object *o, const struct hs_plan *p,
                                         const struct hs_patch_layout *l, uint8_t *out);

/* The 4-aligned provenance record: header, "AMDGPU" padded to 8, the 32-byte desc. */
#define HS_PROV_RECORD_SIZE (12u + 8u + HS_PROV_DESC_SIZE)

#endif
