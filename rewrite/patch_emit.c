/* The patch writer's emit step: the input's bytes, the plan's edits, the layout's tables. */
#include "patch_writer.h"

#include <stdlib.h>
#include <string.h>

/* The tables handed to libelf below must have the file's entry sizes. */
_Static_assert(sizeof(GElf_Phdr) == sizeof(Elf64_Phdr) && sizeof(GElf_Shdr) == sizeof(Elf64_Shdr) &&
                   sizeof(GElf_Sym) == sizeof(Elf64_Sym),
               "GElf types are not the ELF64 file types");

/* Writes n entries of an ELF type (ELF_T_PHDR, _SHDR, _SYM) at p in the file's byte order. */
static enum hs_status put_table(uint8_t *p, const void *v, size_t size, Elf_Type type)
{
	Elf_Data src = {
	    .d_buf = (void *)v, .d_type = type, .d_size = size, .d_version = EV_CURRENT};
	Elf_Data dst = {.d_buf = p, .d_size = size, .d_version = EV_CURRENT};

	if (!elf64_xlatetof(&dst, &src, ELFDATA2LSB))
		return hs_fail(HS_ERROR, "libelf: elf64_xlatetof: %s", elf_errmsg(-1));
	return HS_OK;
}

static void put_strtab(uint8_t *out, const struct cob_elf *e, const struct hs_strtab_append *t,
                       const char *(*name)(const void *ctx, size_t i), const void *ctx)
{
	const GElf_Shdr *sh = &e->sec[t->sec].sh;
	uint8_t *q = out + t->off + sh->sh_size;

	memcpy(out + t->off, e->buf + sh->sh_offset, sh->sh_size);
	for (size_t i = 0; i < t->n; i++) {
		const char *s = name(ctx, i);
		size_t len = strlen(s) + 1;
		if (!t->appended[i])
			continue;
		memcpy(q, s, len);
		q += len;
	}
}

static const char *layout_name(const void *ctx, size_t i)
{
	return ((const struct hs_strtab_append *)ctx)->names[i];
}

static const char *symbol_name(const void *ctx, size_t i)
{
	return ((const struct hs_plan *)ctx)->sym[i].name;
}

/* The provenance note: which transforms made this pool, for which stepping, where. */
static void put_provenance(uint8_t *r, const struct hs_plan *p, const struct hs_patch_layout *l)
{
	uint8_t *d = r + hs_note_put_header(r, HS_NT_PROVENANCE, HS_PROV_DESC_SIZE, 4);

	hs_wr32(d, HS_PROVENANCE_VERSION);
	hs_wr32(d + 4, p->transforms);
	hs_wr32(d + 8, p->state);
	hs_wr64(d + 16, l->pool_vaddr);
	hs_wr64(d + 24, l->pool_size);
}

static enum hs_status put_symbols(const struct hs_object *o, const struct hs_plan *p,
                                  const struct hs_patch_layout *l, uint8_t *out)
{
	const GElf_Shdr *old = &o->e.sec[o->e.symtab].sh;
	GElf_Sym *syms = calloc(p->n_sym, sizeof(*syms));
	enum hs_status st;

	if (!syms)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	put_strtab(out, &o->e, &l->str, symbol_name, p);
	memcpy(out + l->symtab_off, o->e.buf + old->sh_offset, old->sh_size);
	for (size_t i = 0; i < p->n_sym; i++)
		syms[i] = (GElf_Sym){
		    .st_name = l->str.offs[i],
		    .st_info = GELF_ST_INFO(STB_GLOBAL, STT_FUNC),
		    .st_other = STV_DEFAULT,
		    .st_shndx = p->sym[i].in_pool ? (uint16_t)l->pool_sec : p->sym[i].shndx,
		    .st_value = p->sym[i].value,
		    .st_size = p->sym[i].size,
		};
	st = put_table(out + l->symtab_off + old->sh_size, syms, p->n_sym * sizeof(*syms),
	               ELF_T_SYM);
	free(syms);
	return st;
}

/* The moved note section: its records as they were, the updated metadata records replaced. */
static void put_moved_note(const struct hs_object *o, const struct hs_patch_layout *l, uint8_t *out)
{
	const GElf_Shdr *sh = &o->e.sec[l->note_sec].sh;
	uint64_t from = sh->sh_offset, end = sh->sh_offset + sh->sh_size;
	uint8_t *q = out + l->note_off;

	for (size_t i = 0; i < l->n_edit; i++) {
		const struct hs_note_edit *ed = &l->edit[i];
		memcpy(q, o->e.buf + from, ed->rec_off - from);
		q += ed->rec_off - from;
		memcpy(q, ed->rec, ed->size);
		q += ed->size;
		from = ed->rec_off + ed->rec_size;
	}
	memcpy(q, o->e.buf + from, end - from);
}

enum hs_status hs_patch_emit(const struct hs_object *o, const struct hs_plan *p,
                             const struct hs_patch_layout *l, uint8_t *out)
{
	enum hs_status st;

	/* out is zeroed: every gap between the pieces below stays zero (deterministic). */
	memcpy(out, o->e.buf, o->e.size);
	for (size_t i = 0; i < p->n_patch; i++)
		memcpy(out + p->patch[i].off, p->patch[i].bytes, p->patch[i].len);
	for (size_t i = 0; i < l->n_edit && !l->note_moves; i++)
		memcpy(out + l->edit[i].rec_off, l->edit[i].rec, l->edit[i].size);
	if (l->pool) {
		if (p->pool.used) /* a pool holding only a moved note has no reserved bytes */
			memcpy(out + l->pool_off, p->pool.bytes, p->pool.used);
		if (l->note_moves)
			put_moved_note(o, l, out);
		st = put_table(out + l->phoff, l->ph, l->phnum * sizeof(*l->ph), ELF_T_PHDR);
		if (st)
			return st;
		put_provenance(out + l->prov_off, p, l);
		if (p->xlat_note_size)
			memcpy(out + l->prov_off + HS_PROV_RECORD_SIZE, p->xlat_note,
			       p->xlat_note_size);
		put_strtab(out, &o->e, &l->shstr, layout_name, &l->shstr);
		hs_wr64(out + offsetof(Elf64_Ehdr, e_phoff), l->phoff);
		/* An input without program headers may state any entry size; ours are 56 bytes. */
		hs_wr16(out + offsetof(Elf64_Ehdr, e_phentsize), sizeof(Elf64_Phdr));
		hs_wr16(out + offsetof(Elf64_Ehdr, e_phnum), (uint16_t)l->phnum);
	}
	if (p->n_sym) {
		st = put_symbols(o, p, l, out);
		if (st)
			return st;
	}
	if (l->new_shdrs) {
		st = put_table(out + l->shoff, l->sh, l->shnum * sizeof(*l->sh), ELF_T_SHDR);
		if (st)
			return st;
		hs_wr64(out + offsetof(Elf64_Ehdr, e_shoff), l->shoff);
		hs_wr16(out + offsetof(Elf64_Ehdr, e_shnum), (uint16_t)l->shnum);
	}
	return HS_OK;
}

static enum hs_status patch_write(const struct hs_object *o, const struct hs_plan *p,
                                  struct hs_written *w)
{
	struct hs_patch_layout l;
	enum hs_status st;
	uint8_t *out = NULL;

	memset(w, 0, sizeof(*w));
	st = hs_patch_layout(o, p, &l);
	if (!st) {
		out = calloc(1, l.size);
		if (!out)
			st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory building the output");
	}
	if (!st)
		st = hs_patch_emit(o, p, &l, out);
	if (!st) {
		w->data = out;
		w->size = l.size;
		if (l.pool) {
			w->pool_vaddr = l.pool_vaddr;
			w->pool_size = l.pool_size;
		}
		out = NULL;
	}
	free(out);
	hs_patch_layout_free(&l);
	return st;
}

const struct hs_writer hs_patch_writer = {.name = "patch", .write = patch_write};
