/* The patch writer's layout step: where the pool, a moved note and every new table go. */
#include "patch_writer.h"

#include <stdlib.h>
#include <string.h>

static uint64_t align_to(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Plans the copy of string table sec at *pos with names appended; advances *pos. */
static enum hs_status plan_strtab(const struct cob_elf *e, size_t sec, const char **names, size_t n,
                                  struct hs_strtab_append *t, uint64_t *pos)
{
	const GElf_Shdr *sh = &e->sec[sec].sh;
	struct hs_strtab_index ix;
	uint64_t size = sh->sh_size;
	enum hs_status st;

	t->sec = sec;
	t->off = *pos;
	t->names = names;
	t->n = n;
	t->offs = calloc(n ? n : 1, sizeof(*t->offs));
	t->appended = calloc(n ? n : 1, sizeof(*t->appended));
	if (!t->offs || !t->appended)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	st = hs_strtab_index_build(&ix, e->buf + sh->sh_offset, sh->sh_size);
	for (size_t i = 0; i < n && !st; i++) {
		size_t at = hs_strtab_index_find(&ix, names[i]);
		if (at != HASH_INDEX_NONE) {
			t->offs[i] = (uint32_t)at;
			continue;
		}
		t->offs[i] = (uint32_t)size;
		t->appended[i] = true;
		size += strlen(names[i]) + 1;
	}
	hs_strtab_index_free(&ix);
	t->size = size;
	*pos += size;
	return st;
}

static void strtab_free(struct hs_strtab_append *t)
{
	free(t->offs);
	free(t->appended);
}

/* Re-encodes every metadata record the plan updates; decides whether their section moves. */
static enum hs_status plan_note_edits(const struct hs_object *o, const struct hs_plan *p,
                                      struct hs_patch_layout *l)
{
	size_t n = hs_meta_note_count(o->meta), sec = 0;
	bool two_sections = false;
	enum hs_status st;

	l->edit = calloc(n ? n : 1, sizeof(*l->edit));
	if (!l->edit)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct hs_note_edit *ed = &l->edit[l->n_edit];
		if (!hs_meta_note_updated(o->meta, i, p->meta, p->n_meta))
			continue;
		st = hs_meta_encode_record(o->meta, i, p->meta, p->n_meta, &ed->rec, &ed->size);
		if (st)
			return st;
		hs_meta_location(o->meta, i, &ed->rec_off, &ed->rec_size, &sec);
		two_sections |= l->n_edit && sec != l->note_sec;
		l->note_sec = sec;
		/* A record of another size cannot stay: later notes and sections would move. */
		l->note_moves |= ed->size != ed->rec_size;
		l->n_edit++;
	}
	if (l->note_moves && two_sections)
		return hs_fail(HS_ERROR,
		               "cannot move AMDGPU metadata records of two note sections");
	return HS_OK;
}

/* The moved metadata note section: its new place in the pool, PT_NOTE repointed. */
static enum hs_status plan_note_move(const struct hs_object *o, struct hs_patch_layout *l,
                                     uint64_t *pos)
{
	GElf_Shdr *sh = &l->sh[l->note_sec];
	uint64_t new_vaddr, new_size;

	/* Where its reader expects it: an 8-aligned note section pads its records to 8. */
	*pos = align_to(*pos, cob_note_align(sh->sh_addralign));
	l->note_off = *pos;
	new_vaddr = l->pool_vaddr + (l->note_off - l->pool_off);
	new_size = sh->sh_size;
	for (size_t i = 0; i < l->n_edit; i++)
		new_size += l->edit[i].size - l->edit[i].rec_size;
	for (size_t i = 0; i < o->e.phnum; i++) {
		GElf_Phdr *p = &l->ph[i];
		if (p->p_type != PT_NOTE)
			continue;
		if (p->p_offset == sh->sh_offset && p->p_filesz == sh->sh_size) {
			p->p_offset = l->note_off;
			p->p_vaddr = p->p_paddr = new_vaddr;
			p->p_filesz = p->p_memsz = new_size;
		} else if (p->p_offset < sh->sh_offset + sh->sh_size &&
		           sh->sh_offset < p->p_offset + p->p_filesz) {
			return hs_fail(HS_ERROR,
			               "cannot move the AMDGPU metadata note: its PT_NOTE "
			               "segment %zu also covers other notes",
			               i);
		}
	}
	sh->sh_offset = l->note_off;
	sh->sh_addr = new_vaddr;
	sh->sh_size = new_size;
	*pos += new_size;
	return HS_OK;
}

/* The pool segment: reserved bytes, a moved note, the program headers; its PT_LOAD. */
static enum hs_status plan_pool(const struct hs_object *o, const struct hs_plan *p,
                                struct hs_patch_layout *l, uint64_t *pos)
{
	const struct cob_elf *e = &o->e;
	size_t load_after = 0;
	enum hs_status st;

	if (p->pool.open) {
		l->pool_vaddr = p->pool.vaddr;
		l->pool_off = p->pool.off;
	} else {
		st = hs_pool_place(e, &l->pool_vaddr, &l->pool_off);
		if (st)
			return st;
	}
	*pos = l->pool_off + p->pool.used;
	if (l->note_moves) {
		st = plan_note_move(o, l, pos);
		if (st)
			return st;
	}
	/* The program headers live in the pool so PT_PHDR stays inside a PT_LOAD. */
	*pos = align_to(*pos, 8);
	l->phoff = *pos;
	for (size_t i = 0; i < e->phnum; i++)
		if (l->ph[i].p_type == PT_LOAD)
			load_after = i + 1;
	memmove(&l->ph[load_after + 1], &l->ph[load_after],
	        (e->phnum - load_after) * sizeof(*l->ph));
	l->phnum = e->phnum + 1;
	*pos += l->phnum * sizeof(Elf64_Phdr);
	l->pool_size = *pos - l->pool_off;
	l->ph[load_after] = (GElf_Phdr){
	    .p_type = PT_LOAD,
	    .p_flags = PF_R | PF_X,
	    .p_offset = l->pool_off,
	    .p_vaddr = l->pool_vaddr,
	    .p_paddr = l->pool_vaddr,
	    .p_filesz = l->pool_size,
	    .p_memsz = l->pool_size,
	    .p_align = HS_POOL_ALIGN,
	};
	for (size_t i = 0; i < l->phnum; i++) {
		if (l->ph[i].p_type != PT_PHDR)
			continue;
		l->ph[i].p_offset = l->phoff;
		l->ph[i].p_vaddr = l->ph[i].p_paddr = l->pool_vaddr + (l->phoff - l->pool_off);
		l->ph[i].p_filesz = l->ph[i].p_memsz = l->phnum * sizeof(Elf64_Phdr);
	}
	/* The code section first, at index shnum; a pool holding only a moved note has none. */
	if (p->pool.used) {
		l->pool_sec = l->shnum++;
		l->sh[l->pool_sec] = (GElf_Shdr){
		    .sh_type = SHT_PROGBITS,
		    .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
		    .sh_addr = l->pool_vaddr,
		    .sh_offset = l->pool_off,
		    .sh_size = p->pool.used,
		    .sh_addralign = p->pool.align > HS_POOL_SECTION_ALIGN ? p->pool.align
		                                                          : HS_POOL_SECTION_ALIGN,
		};
	}
	/* Non-allocated tail: the provenance note, then the section names. */
	l->prov_sec = l->shnum++;
	*pos = align_to(*pos, 4);
	l->prov_off = *pos;
	*pos += HS_PROV_RECORD_SIZE + p->xlat_note_size;
	l->sh[l->prov_sec] = (GElf_Shdr){
	    .sh_type = SHT_NOTE,
	    .sh_offset = l->prov_off,
	    .sh_size = HS_PROV_RECORD_SIZE + p->xlat_note_size,
	    .sh_addralign = 4,
	};
	{
		static const char *names[2] = {HS_PROV_SECTION, HS_POOL_SECTION};
		st = plan_strtab(e, e->shstrndx, names, l->pool_sec ? 2 : 1, &l->shstr, pos);
		if (st)
			return st;
		l->sh[e->shstrndx].sh_offset = l->shstr.off;
		l->sh[e->shstrndx].sh_size = l->shstr.size;
		l->sh[l->prov_sec].sh_name = l->shstr.offs[0];
		if (l->pool_sec)
			l->sh[l->pool_sec].sh_name = l->shstr.offs[1];
	}
	return HS_OK;
}

/* New globals after the old .symtab (sh_info, the first non-local, stays right). */
static enum hs_status plan_symbols(const struct hs_object *o, const struct hs_plan *p,
                                   struct hs_patch_layout *l, uint64_t *pos, const char ***names)
{
	const struct cob_elf *e = &o->e;
	GElf_Shdr *sym = &l->sh[e->symtab];
	enum hs_status st;

	*names = calloc(p->n_sym, sizeof(**names));
	if (!*names)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 0; i < p->n_sym; i++)
		(*names)[i] = p->sym[i].name;
	st = plan_strtab(e, sym->sh_link, *names, p->n_sym, &l->str, pos);
	if (st)
		return st;
	l->sh[sym->sh_link].sh_offset = l->str.off;
	l->sh[sym->sh_link].sh_size = l->str.size;
	*pos = align_to(*pos, 8);
	l->symtab_off = *pos;
	*pos += sym->sh_size + p->n_sym * sizeof(Elf64_Sym);
	sym->sh_offset = l->symtab_off;
	sym->sh_size = *pos - l->symtab_off;
	return HS_OK;
}

enum hs_status hs_patch_layout(const struct hs_object *o, const struct hs_plan *p,
                               struct hs_patch_layout *l)
{
	const struct cob_elf *e = &o->e;
	uint64_t pos = e->size;
	enum hs_status st = HS_OK;

	memset(l, 0, sizeof(*l));
	l->shnum = e->shnum;
	l->phnum = e->phnum;
	l->sh = calloc(e->shnum + 2, sizeof(*l->sh));
	l->ph = calloc(e->phnum + 1, sizeof(*l->ph));
	if (!l->sh || !l->ph)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 0; i < e->shnum; i++)
		l->sh[i] = e->sec[i].sh;
	memcpy(l->ph, e->ph, e->phnum * sizeof(*l->ph));
	if (p->n_meta) {
		st = plan_note_edits(o, p, l);
		if (st)
			return st;
	}
	/* A translation always says so in its notes, pool bytes or not. */
	l->pool = p->pool.used > 0 || l->note_moves || p->xlat_note_size;
	if (l->pool && e->phnum + 1 >= PN_XNUM)
		return hs_fail(HS_ERROR, "the program header table is full (%zu entries)",
		               e->phnum);
	if (l->pool)
		st = plan_pool(o, p, l, &pos);
	if (!st && p->n_sym) {
		const char **names = NULL;
		st = plan_symbols(o, p, l, &pos, &names);
		/* The names are the plan's: emit reads them from there again. */
		free(names);
		l->str.names = NULL;
	}
	if (st)
		return st;
	l->new_shdrs = l->pool || p->n_sym > 0;
	if (l->new_shdrs) {
		pos = align_to(pos, 8);
		l->shoff = pos;
		pos += l->shnum * sizeof(Elf64_Shdr);
	}
	if (pos > SIZE_MAX)
		return hs_fail(HS_OUT_OF_RESOURCES, "the output would be %llu bytes",
		               (unsigned long long)pos);
	l->size = (size_t)pos;
	return HS_OK;
}

void hs_patch_layout_free(struct hs_patch_layout *l)
{
	free(l->sh);
	free(l->ph);
	for (size_t i = 0; i < l->n_edit; i++)
		free(l->edit[i].rec);
	free(l->edit);
	strtab_free(&l->shstr);
	strtab_free(&l->str);
	memset(l, 0, sizeof(*l));
}
