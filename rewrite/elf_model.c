/* The ELF model: a private copy of the input opened with libelf and validated to fail closed. */
#include "hs_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "elf_header.h"
#include "elf_isa.h"

static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static bool version_ok;

static void init_libelf(void)
{
	version_ok = elf_version(EV_CURRENT) != EV_NONE;
}

enum hs_status hs_libelf_init(void)
{
	pthread_once(&version_once, init_libelf);
	return version_ok ? HS_OK : hs_fail(HS_ERROR, "libelf: elf_version: %s", elf_errmsg(-1));
}

/* The raw header checks run before libelf sees the bytes, so libelf never reads out of bounds
 * (codeobj/elf_isa.h: the intercept core runs the same checks without us). */
enum hs_status hs_elf_check_header(const uint8_t *b, size_t size)
{
	char why[256];

	if (cob_elf_header_check(b, size, why, sizeof(why)) < 0)
		return hs_fail(HS_INVALID_ARGUMENT, "%s", why);
	return HS_OK;
}

static bool is_pow2_or_zero(uint64_t v)
{
	return (v & (v - 1)) == 0;
}

struct range {
	uint64_t lo, hi;
	size_t idx;
};

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* File ranges of sections with contents must not overlap, nor vaddr ranges of allocated ones. */
static enum hs_status check_overlaps(struct hs_elf *e, bool vaddr)
{
	struct range *r = calloc(e->shnum ? e->shnum : 1, sizeof(*r));
	enum hs_status st = HS_OK;
	size_t n = 0;

	if (!r)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 1; i < e->shnum; i++) {
		const GElf_Shdr *sh = &e->sec[i].sh;
		if (sh->sh_size == 0)
			continue;
		if (vaddr) {
			if (!(sh->sh_flags & SHF_ALLOC))
				continue;
			r[n++] = (struct range){sh->sh_addr, sh->sh_addr + sh->sh_size, i};
		} else {
			if (sh->sh_type == SHT_NOBITS)
				continue;
			r[n++] = (struct range){sh->sh_offset, sh->sh_offset + sh->sh_size, i};
		}
	}
	qsort(r, n, sizeof(*r), cmp_range);
	for (size_t i = 1; i < n; i++) {
		if (r[i].lo < r[i - 1].hi) {
			st = hs_fail(HS_INVALID_ARGUMENT,
			             "section [%zu] '%s' overlaps section [%zu] "
			             "'%s' in the %s",
			             r[i].idx, e->sec[r[i].idx].name, r[i - 1].idx,
			             e->sec[r[i - 1].idx].name, vaddr ? "address space" : "file");
			break;
		}
	}
	free(r);
	return st;
}

static enum hs_status check_sections(struct hs_elf *e)
{
	const GElf_Shdr *shs = &e->sec[e->shstrndx].sh;
	enum hs_status st;

	if (shs->sh_type != SHT_STRTAB || !hs_in_bounds(shs->sh_offset, shs->sh_size, e->size) ||
	    shs->sh_size == 0 || e->buf[shs->sh_offset + shs->sh_size - 1] != '\0')
		return hs_fail(HS_INVALID_ARGUMENT,
		               "section name table [%zu] is not a "
		               "NUL-terminated string table inside the file",
		               e->shstrndx);
	for (size_t i = 0; i < e->shnum; i++) {
		struct hs_section *s = &e->sec[i];
		uint64_t end;

		if (s->sh.sh_name >= shs->sh_size)
			return hs_fail(HS_INVALID_ARGUMENT,
			               "section [%zu] has a name offset %u past "
			               "the section name table",
			               i, s->sh.sh_name);
		s->name = (const char *)e->buf + shs->sh_offset + s->sh.sh_name;
		if (i == 0)
			continue;
		if (s->sh.sh_type != SHT_NOBITS &&
		    !hs_in_bounds(s->sh.sh_offset, s->sh.sh_size, e->size))
			return hs_fail(HS_INVALID_ARGUMENT,
			               "section [%zu] '%s' (offset %llu, size "
			               "%llu) is outside the file of %zu bytes",
			               i, s->name, (unsigned long long)s->sh.sh_offset,
			               (unsigned long long)s->sh.sh_size, e->size);
		if (!is_pow2_or_zero(s->sh.sh_addralign))
			return hs_fail(HS_INVALID_ARGUMENT,
			               "section [%zu] '%s' has alignment %llu, "
			               "not a power of two",
			               i, s->name, (unsigned long long)s->sh.sh_addralign);
		if (hs_add_ovf(s->sh.sh_addr, s->sh.sh_size, &end))
			return hs_fail(HS_INVALID_ARGUMENT,
			               "section [%zu] '%s' wraps the address "
			               "space",
			               i, s->name);
		if ((s->sh.sh_flags & SHF_ALLOC) && end > e->max_alloc_end)
			e->max_alloc_end = end;
		if (s->sh.sh_type == SHT_SYMTAB || s->sh.sh_type == SHT_DYNSYM) {
			const GElf_Shdr *str;
			if (s->sh.sh_entsize != SYM_SIZE || s->sh.sh_size % SYM_SIZE ||
			    s->sh.sh_link == 0 || s->sh.sh_link >= e->shnum)
				return hs_fail(HS_INVALID_ARGUMENT,
				               "symbol table [%zu] '%s' is "
				               "malformed (entry size %llu, size %llu, link %u)",
				               i, s->name, (unsigned long long)s->sh.sh_entsize,
				               (unsigned long long)s->sh.sh_size, s->sh.sh_link);
			str = &e->sec[s->sh.sh_link].sh;
			if (str->sh_type != SHT_STRTAB || str->sh_size == 0 ||
			    !hs_in_bounds(str->sh_offset, str->sh_size, e->size))
				return hs_fail(
				    HS_INVALID_ARGUMENT,
				    "symbol table [%zu] '%s' links "
				    "to section [%u], not a string table inside the file",
				    i, s->name, s->sh.sh_link);
			if (s->sh.sh_type == SHT_SYMTAB)
				e->symtab = i;
			else if (!e->dynsym)
				e->dynsym = i;
		}
	}
	/*
	 * Section names are never loaded (gABI: .shstrtab has no attributes).  The patch writer
	 * relies on it: it copies the names, with its new ones appended, past the end of the
	 * file, and an allocated table would then grow over the pool or another section in
	 * the address space, an output this loader refuses.  Refused here, on every path.
	 */
	if (shs->sh_flags & SHF_ALLOC)
		return hs_fail(HS_INVALID_ARGUMENT,
		               "section name table [%zu] '%s' is allocated (SHF_ALLOC); "
		               "section names are not part of the loaded image",
		               e->shstrndx, e->sec[e->shstrndx].name);
	st = check_overlaps(e, false);
	if (st == HS_OK)
		st = check_overlaps(e, true);
	return st;
}

static enum hs_status check_segments(struct hs_elf *e)
{
	for (size_t i = 0; i < e->phnum; i++) {
		const GElf_Phdr *p = &e->ph[i];
		uint64_t end;

		if (p->p_type == PT_NULL)
			continue;
		if (p->p_filesz && !hs_in_bounds(p->p_offset, p->p_filesz, e->size))
			return hs_fail(HS_INVALID_ARGUMENT,
			               "program header %zu (offset %llu, size "
			               "%llu) is outside the file of %zu bytes",
			               i, (unsigned long long)p->p_offset,
			               (unsigned long long)p->p_filesz, e->size);
		if (p->p_filesz > p->p_memsz)
			return hs_fail(HS_INVALID_ARGUMENT,
			               "program header %zu has a file size "
			               "larger than its memory size",
			               i);
		if (hs_add_ovf(p->p_vaddr, p->p_memsz, &end))
			return hs_fail(HS_INVALID_ARGUMENT,
			               "program header %zu wraps the address "
			               "space",
			               i);
		if (!is_pow2_or_zero(p->p_align))
			return hs_fail(HS_INVALID_ARGUMENT,
			               "program header %zu has alignment "
			               "%llu, not a power of two",
			               i, (unsigned long long)p->p_align);
		if (p->p_type == PT_LOAD && end > e->max_alloc_end)
			e->max_alloc_end = end;
	}
	return HS_OK;
}

/* The entries of symbol table sec (0: none) through libelf, all of them or an error. */
static enum hs_status symbol_data(struct hs_elf *e, size_t sec, Elf_Data **out)
{
	Elf_Data *d;

	*out = NULL;
	if (!sec)
		return HS_OK;
	d = elf_getdata(elf_getscn(e->elf, sec), NULL);
	if (!d || d->d_type != ELF_T_SYM || d->d_size != e->sec[sec].sh.sh_size ||
	    d->d_size > (size_t)INT32_MAX)
		return hs_fail(HS_INVALID_ARGUMENT, "libelf: symbol table [%zu] '%s': %s", sec,
		               e->sec[sec].name, d ? "unexpected data" : elf_errmsg(-1));
	*out = d;
	return HS_OK;
}

/* The section named name, 0 if none. */
static size_t find_section(const struct hs_elf *e, const char *name)
{
	for (size_t i = 1; i < e->shnum; i++)
		if (!strcmp(e->sec[i].name, name))
			return i;
	return 0;
}

enum hs_status hs_elf_open(struct hs_elf *e, const void *in, size_t size)
{
	enum hs_status st;

	memset(e, 0, sizeof(*e));
	st = hs_elf_check_header(in, size);
	if (st)
		return st;
	st = hs_libelf_init();
	if (st)
		return st;
	/* libelf may write to the image it opens; the caller's bytes stay untouched. */
	e->buf = malloc(size);
	if (!e->buf)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory copying %zu bytes", size);
	memcpy(e->buf, in, size);
	e->size = size;
	e->elf = elf_memory((char *)e->buf, size);
	if (!e->elf) {
		st = hs_fail(HS_INVALID_ARGUMENT, "libelf: elf_memory: %s", elf_errmsg(-1));
		goto fail;
	}
	if (elf_kind(e->elf) != ELF_K_ELF || gelf_getclass(e->elf) != ELFCLASS64) {
		st = hs_fail(HS_INVALID_ARGUMENT, "libelf: not an ELF64 object");
		goto fail;
	}
	if (!gelf_getehdr(e->elf, &e->eh)) {
		st = hs_fail(HS_INVALID_ARGUMENT, "libelf: gelf_getehdr: %s", elf_errmsg(-1));
		goto fail;
	}
	if (elf_getphdrnum(e->elf, &e->phnum) || elf_getshdrnum(e->elf, &e->shnum) ||
	    elf_getshdrstrndx(e->elf, &e->shstrndx)) {
		st = hs_fail(HS_INVALID_ARGUMENT, "libelf: reading header counts: %s",
		             elf_errmsg(-1));
		goto fail;
	}
	e->ph = calloc(e->phnum ? e->phnum : 1, sizeof(*e->ph));
	e->sec = calloc(e->shnum, sizeof(*e->sec));
	if (!e->ph || !e->sec) {
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < e->phnum; i++) {
		if (!gelf_getphdr(e->elf, (int)i, &e->ph[i])) {
			st = hs_fail(HS_INVALID_ARGUMENT, "libelf: program header %zu: %s", i,
			             elf_errmsg(-1));
			goto fail;
		}
	}
	for (size_t i = 0; i < e->shnum; i++) {
		Elf_Scn *scn = elf_getscn(e->elf, i);
		e->sec[i].name = "";
		if (!scn || !gelf_getshdr(scn, &e->sec[i].sh)) {
			st = hs_fail(HS_INVALID_ARGUMENT, "libelf: section [%zu]: %s", i,
			             elf_errmsg(-1));
			goto fail;
		}
	}
	st = check_sections(e);
	if (st)
		goto fail;
	st = check_segments(e);
	if (st)
		goto fail;
	st = symbol_data(e, e->symtab, &e->symtab_data);
	if (!st)
		st = symbol_data(e, e->dynsym, &e->dynsym_data);
	if (st)
		goto fail;
	e->text = find_section(e, ".text");
	if (!e->text || e->sec[e->text].sh.sh_type != SHT_PROGBITS ||
	    !(e->sec[e->text].sh.sh_flags & SHF_ALLOC)) {
		st = hs_fail(HS_INVALID_ARGUMENT, "no allocated PROGBITS section '.text'");
		goto fail;
	}
	return HS_OK;
fail:
	hs_elf_close(e);
	return st;
}

void hs_elf_close(struct hs_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	free(e->ph);
	free(e->sec);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

size_t hs_elf_vaddr_to_off(const struct hs_elf *e, uint64_t vaddr, uint64_t len, uint64_t *off)
{
	for (size_t i = 1; i < e->shnum; i++) {
		const GElf_Shdr *sh = &e->sec[i].sh;
		if (!(sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOBITS)
			continue;
		if (vaddr < sh->sh_addr || !hs_in_bounds(vaddr - sh->sh_addr, len, sh->sh_size))
			continue;
		*off = sh->sh_offset + (vaddr - sh->sh_addr);
		return i;
	}
	return 0;
}

size_t hs_elf_sym_count(const struct hs_elf *e, size_t secidx)
{
	return secidx ? e->sec[secidx].sh.sh_size / SYM_SIZE : 0;
}

void hs_elf_sym(const struct hs_elf *e, size_t secidx, size_t i, GElf_Sym *sym)
{
	Elf_Data *d = secidx == e->symtab ? e->symtab_data : e->dynsym_data;

	/* hs_elf_open checked that the data holds every entry: this cannot fail. */
	if (!gelf_getsym(d, (int)i, sym))
		memset(sym, 0, sizeof(*sym));
}

const char *hs_elf_sym_name(const struct hs_elf *e, size_t secidx, const GElf_Sym *sym)
{
	const GElf_Shdr *str = &e->sec[e->sec[secidx].sh.sh_link].sh;
	const char *base = (const char *)e->buf + str->sh_offset;

	if (sym->st_name >= str->sh_size)
		return NULL;
	if (!memchr(base + sym->st_name, '\0', str->sh_size - sym->st_name))
		return NULL;
	return base + sym->st_name;
}
