/* ELF growth: the appended pool segment, relocated tables, provenance note, output bytes. */
#include "hs_internal.h"
#include "stub_format.h"

#include <stdlib.h>
#include <string.h>

/* put_headers hands libelf the in-memory tables: they must have the file's entry sizes. */
_Static_assert(sizeof(GElf_Phdr) == PHDR_SIZE && sizeof(GElf_Shdr) == SHDR_SIZE,
               "GElf headers are not the ELF64 file headers");

/* A growable output buffer; every append is zero-padded, so the output is deterministic. */
struct obuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

static bool ob_reserve(struct obuf *b, size_t extra)
{
	size_t need, nc;
	uint8_t *np;

	if (b->oom)
		return false;
	if (__builtin_add_overflow(b->len, extra, &need)) {
		b->oom = true;
		return false;
	}
	if (need <= b->cap)
		return true;
	nc = b->cap ? b->cap : 4096;
	while (nc < need)
		nc = nc > SIZE_MAX / 2 ? need : nc * 2;
	np = realloc(b->p, nc);
	if (!np) {
		b->oom = true;
		return false;
	}
	/*
	 * Spare capacity stays uninitialised: ob_put and ob_pad_to write every byte
	 * they add to len, and only [0, len) is ever output, so zeroing it here
	 * would only fault in pages (measured: a third of the time at 2048 kernels).
	 */
	b->p = np;
	b->cap = nc;
	return true;
}

static void ob_put(struct obuf *b, const void *data, size_t n)
{
	if (!ob_reserve(b, n))
		return;
	if (n)
		memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void ob_pad_to(struct obuf *b, size_t off)
{
	if (off > b->len && ob_reserve(b, off - b->len)) {
		memset(b->p + b->len, 0, off - b->len);
		b->len = off;
	}
}

static void ob_align(struct obuf *b, size_t a)
{
	ob_pad_to(b, (b->len + a - 1) & ~(a - 1));
}

enum hs_status hs_pool_plan(const struct hs_elf *e, uint64_t *pool_vaddr, uint64_t *pool_off)
{
	if (!hs_align_up(e->max_alloc_end, HS_POOL_ALIGN, pool_vaddr) ||
	    !hs_align_up(e->size, HS_POOL_ALIGN, pool_off))
		return hs_fail(HS_ERROR,
		               "no room for a pool after the last allocated byte "
		               "(0x%llx)",
		               (unsigned long long)e->max_alloc_end);
	return HS_OK;
}

enum hs_status hs_pool_section_index(const struct hs_elf *e, uint16_t *idx)
{
	/* Two new sections (pool and provenance) must stay below the reserved indices. */
	if (e->shnum + 2 >= SHN_LORESERVE)
		return hs_fail(HS_ERROR, "the section header table is full (%zu entries)",
		               e->shnum);
	*idx = (uint16_t)e->shnum;
	return HS_OK;
}

/* Writes a header table (ELF_T_PHDR or ELF_T_SHDR, size bytes) at p in the file's byte order. */
static enum hs_status put_headers(uint8_t *p, const void *hdrs, size_t size, Elf_Type type)
{
	Elf_Data src = {
	    .d_buf = (void *)hdrs, .d_type = type, .d_size = size, .d_version = EV_CURRENT};
	Elf_Data dst = {.d_buf = p, .d_size = size, .d_version = EV_CURRENT};

	if (!elf64_xlatetof(&dst, &src, ELFDATA2LSB))
		return hs_fail(HS_ERROR, "libelf: elf64_xlatetof: %s", elf_errmsg(-1));
	return HS_OK;
}

/* Descriptor fixes of redirected kernels, made in place (descriptors never move). */
static void patch_descriptors(const struct hs_build *b, uint8_t *out)
{
	for (size_t i = 0; i < b->ks->n; i++) {
		const struct hs_kernel *k = &b->ks->k[i];
		if (k->action != HS_KERNEL_STUB)
			continue;
		hs_wr64(out + k->kd_off + HS_KD_AT(kernel_code_entry_byte_offset),
		        k->stub_vaddr - k->kd_vaddr);
		hs_wr32(out + k->kd_off + HS_KD_AT(compute_pgm_rsrc3), k->rsrc3_new);
	}
}

/* Everything the build decides before writing the tail: offsets of relocated pieces. */
struct layout {
	GElf_Shdr *sh; /* output section headers (old ones first, then new) */
	size_t shnum;
	GElf_Phdr *ph; /* output program headers */
	size_t phnum;
	uint8_t *note_rec;
	size_t note_rec_size;
	bool note_moves;
};

static void layout_free(struct layout *l)
{
	free(l->sh);
	free(l->ph);
	free(l->note_rec);
}

/* Appends the note section of the metadata with its record replaced; repoints PT_NOTE. */
static enum hs_status move_note(const struct hs_build *b, struct layout *l, struct obuf *o)
{
	const struct hs_elf *e = b->e;
	uint64_t rec_off, rec_size, new_off, new_vaddr;
	size_t sec;
	GElf_Shdr *sh;

	hs_meta_location(b->meta, &rec_off, &rec_size, &sec);
	sh = &l->sh[sec];
	/* Where its reader expects it: an 8-aligned note section pads its records to 8. */
	ob_align(o, hs_note_align(sh));
	new_off = o->len;
	new_vaddr = b->pool_vaddr + (new_off - b->pool_off);
	ob_put(o, e->buf + sh->sh_offset, rec_off - sh->sh_offset);
	ob_put(o, l->note_rec, l->note_rec_size);
	ob_put(o, e->buf + rec_off + rec_size, sh->sh_offset + sh->sh_size - rec_off - rec_size);
	for (size_t i = 0; i < l->phnum; i++) {
		GElf_Phdr *p = &l->ph[i];
		if (p->p_type != PT_NOTE)
			continue;
		if (p->p_offset == sh->sh_offset && p->p_filesz == sh->sh_size) {
			p->p_offset = new_off;
			p->p_vaddr = p->p_paddr = new_vaddr;
			p->p_filesz = p->p_memsz = o->len - new_off;
		} else if (p->p_offset < sh->sh_offset + sh->sh_size &&
		           sh->sh_offset < p->p_offset + p->p_filesz) {
			return hs_fail(HS_ERROR,
			               "cannot move the AMDGPU metadata note: its PT_NOTE "
			               "segment %zu also covers other notes",
			               i);
		}
	}
	sh->sh_offset = new_off;
	sh->sh_addr = new_vaddr;
	sh->sh_size = o->len - new_off;
	return HS_OK;
}

/*
 * Copies a string table to the tail with names appended; returns their offsets.
 * A name already in the old table as a whole string reuses its first copy.
 */
static enum hs_status append_strtab(struct obuf *o, const struct hs_elf *e, GElf_Shdr *sh,
                                    const char *const *names, size_t n, uint32_t *offs)
{
	const uint8_t *old = e->buf + sh->sh_offset;
	size_t start = o->len, size = sh->sh_size;
	struct hs_strtab_index ix;
	enum hs_status st;

	st = hs_strtab_index_build(&ix, old, size);
	if (st)
		goto cleanup;
	ob_put(o, old, size);
	for (size_t i = 0; i < n; i++) {
		size_t at = hs_strtab_index_find(&ix, names[i]);
		if (at != HS_HIDX_NONE) {
			offs[i] = (uint32_t)at;
			continue;
		}
		offs[i] = (uint32_t)(o->len - start);
		ob_put(o, names[i], strlen(names[i]) + 1);
	}
	sh->sh_offset = start;
	sh->sh_size = o->len - start;
cleanup:
	hs_strtab_index_free(&ix);
	return st;
}

static enum hs_status add_symbols(const struct hs_build *b, struct layout *l, struct obuf *o)
{
	const struct hs_elf *e = b->e;
	GElf_Shdr *sym = &l->sh[e->symtab];
	GElf_Shdr *str = &l->sh[sym->sh_link];
	const char **names = calloc(b->n_syms, sizeof(*names));
	uint32_t *offs = calloc(b->n_syms, sizeof(*offs));
	enum hs_status st = HS_OK;
	size_t start;

	if (!names || !offs) {
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		goto cleanup;
	}
	for (size_t i = 0; i < b->n_syms; i++)
		names[i] = b->syms[i].name;
	st = append_strtab(o, e, str, names, b->n_syms, offs);
	if (st)
		goto cleanup;
	ob_align(o, 8);
	start = o->len;
	ob_put(o, e->buf + sym->sh_offset, sym->sh_size);
	/* Globals go last, so sh_info (the first non-local) stays right. */
	for (size_t i = 0; i < b->n_syms; i++) {
		uint8_t ent[SYM_SIZE] = {0};
		hs_wr32(ent, offs[i]);
		ent[4] = (uint8_t)GELF_ST_INFO(STB_GLOBAL, STT_FUNC);
		ent[5] = STV_DEFAULT;
		hs_wr16(ent + 6, b->syms[i].shndx);
		hs_wr64(ent + 8, b->syms[i].value);
		hs_wr64(ent + 16, HS_STUB_SIZE);
		ob_put(o, ent, sizeof(ent));
	}
	sym->sh_offset = start;
	sym->sh_size = o->len - start;
cleanup:
	free(names);
	free(offs);
	return st;
}

static void add_provenance(const struct hs_build *b, struct obuf *o, GElf_Shdr *sh)
{
	/* A 4-aligned section: the header, "AMDGPU" padded to 8, then the 32-byte desc. */
	uint8_t rec[12 + 8 + HS_PROV_DESC_SIZE] = {0};
	uint8_t *d = rec + hs_note_put_header(rec, HS_NT_PROVENANCE, HS_PROV_DESC_SIZE, 4);

	hs_wr32(d, HS_PROVENANCE_VERSION);
	hs_wr32(d + 4, b->transforms);
	hs_wr32(d + 8, b->state);
	hs_wr64(d + 16, b->pool_vaddr);
	hs_wr64(d + 24, b->pool_size);
	ob_align(o, 4);
	sh->sh_type = SHT_NOTE;
	sh->sh_offset = o->len;
	sh->sh_size = sizeof(rec);
	sh->sh_addralign = 4;
	ob_put(o, rec, sizeof(rec));
}

enum hs_status hs_build_output(struct hs_build *b)
{
	const struct hs_elf *e = b->e;
	struct layout l = {0};
	struct obuf o = {0};
	enum hs_status st = HS_OK;
	bool pool, grow_shdrs;
	size_t pool_sec = 0, prov_sec = 0, load_after = 0;
	uint64_t rec_off = 0, rec_size = 0, phoff = 0;

	b->out = NULL;
	b->pool_size = 0;
	l.shnum = e->shnum;
	l.phnum = e->phnum;
	l.sh = calloc(e->shnum + 2, sizeof(*l.sh));
	l.ph = calloc(e->phnum + 1, sizeof(*l.ph));
	if (!l.sh || !l.ph) {
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		goto cleanup;
	}
	for (size_t i = 0; i < e->shnum; i++)
		l.sh[i] = e->sec[i].sh;
	memcpy(l.ph, e->ph, e->phnum * sizeof(*l.ph));
	if (hs_meta_dirty(b->meta)) {
		st = hs_meta_encode_record(b->meta, &l.note_rec, &l.note_rec_size);
		if (st)
			goto cleanup;
		hs_meta_location(b->meta, &rec_off, &rec_size, NULL);
		/* A record of another size cannot stay: later notes and sections would move. */
		l.note_moves = l.note_rec_size != rec_size;
	}
	pool = b->n_stubs > 0 || l.note_moves;
	grow_shdrs = pool || b->n_syms > 0;
	if (pool && e->phnum + 1 >= PN_XNUM) {
		st = hs_fail(HS_ERROR, "the program header table is full (%zu entries)", e->phnum);
		goto cleanup;
	}

	/* The original bytes, verbatim except the descriptors and an in-place metadata record. */
	ob_put(&o, e->buf, e->size);
	if (o.oom)
		goto oom;
	patch_descriptors(b, o.p);
	if (l.note_rec && !l.note_moves)
		memcpy(o.p + rec_off, l.note_rec, l.note_rec_size);

	if (pool) {
		GElf_Phdr load = {
		    .p_type = PT_LOAD,
		    .p_flags = PF_R | PF_X,
		    .p_offset = b->pool_off,
		    .p_vaddr = b->pool_vaddr,
		    .p_paddr = b->pool_vaddr,
		    .p_align = HS_POOL_ALIGN,
		};

		ob_pad_to(&o, b->pool_off);
		ob_put(&o, b->stubs, b->n_stubs * HS_STUB_SIZE);
		if (l.note_moves) {
			st = move_note(b, &l, &o);
			if (st)
				goto cleanup;
		}
		/* The program headers live in the pool so PT_PHDR stays inside a PT_LOAD. */
		ob_align(&o, 8);
		phoff = o.len;
		for (size_t i = 0; i < e->phnum; i++)
			if (l.ph[i].p_type == PT_LOAD)
				load_after = i + 1;
		memmove(&l.ph[load_after + 1], &l.ph[load_after],
		        (e->phnum - load_after) * sizeof(*l.ph));
		l.phnum = e->phnum + 1;
		ob_pad_to(&o, phoff + l.phnum * PHDR_SIZE);
		b->pool_size = o.len - b->pool_off;
		load.p_filesz = load.p_memsz = b->pool_size;
		l.ph[load_after] = load;
		for (size_t i = 0; i < l.phnum; i++) {
			if (l.ph[i].p_type != PT_PHDR)
				continue;
			l.ph[i].p_offset = phoff;
			l.ph[i].p_vaddr = l.ph[i].p_paddr = b->pool_vaddr + (phoff - b->pool_off);
			l.ph[i].p_filesz = l.ph[i].p_memsz = l.phnum * PHDR_SIZE;
		}
		if (o.oom)
			goto oom;
		st = put_headers(o.p + phoff, l.ph, l.phnum * PHDR_SIZE, ELF_T_PHDR);
		if (st)
			goto cleanup;

		/*
		 * The stubs' section comes first so its index is the one hs_pool_section_index
		 * promised; a pool holding only a moved note has no code section.
		 */
		if (b->n_stubs) {
			pool_sec = l.shnum++;
			l.sh[pool_sec] = (GElf_Shdr){
			    .sh_type = SHT_PROGBITS,
			    .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
			    .sh_addr = b->pool_vaddr,
			    .sh_offset = b->pool_off,
			    .sh_size = b->n_stubs * HS_STUB_SIZE,
			    .sh_addralign = HS_STUB_SIZE,
			};
		}
		/* Non-allocated tail: provenance, section names. */
		prov_sec = l.shnum++;
		add_provenance(b, &o, &l.sh[prov_sec]);
		{
			const char *names[2] = {HS_PROV_SECTION, HS_POOL_SECTION};
			uint32_t offs[2];
			st =
			    append_strtab(&o, e, &l.sh[e->shstrndx], names, pool_sec ? 2 : 1, offs);
			if (st)
				goto cleanup;
			l.sh[prov_sec].sh_name = offs[0];
			if (pool_sec)
				l.sh[pool_sec].sh_name = offs[1];
		}
	}
	if (b->n_syms) {
		st = add_symbols(b, &l, &o);
		if (st)
			goto cleanup;
	}
	if (grow_shdrs) {
		uint64_t shoff;
		ob_align(&o, 8);
		shoff = o.len;
		ob_pad_to(&o, shoff + l.shnum * SHDR_SIZE);
		if (o.oom)
			goto oom;
		st = put_headers(o.p + shoff, l.sh, l.shnum * SHDR_SIZE, ELF_T_SHDR);
		if (st)
			goto cleanup;
		hs_wr64(o.p + 40, shoff);
		hs_wr16(o.p + 60, (uint16_t)l.shnum);
	}
	if (pool) {
		hs_wr64(o.p + 32, phoff);
		/* An input without program headers may state any entry size; ours are 56 bytes. */
		hs_wr16(o.p + 54, PHDR_SIZE);
		hs_wr16(o.p + 56, (uint16_t)l.phnum);
	}
	if (o.oom)
		goto oom;
	b->out = o.p;
	b->out_size = o.len;
	o.p = NULL;
	goto cleanup;
oom:
	st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory building the output");
cleanup:
	free(o.p);
	layout_free(&l);
	return st;
}
