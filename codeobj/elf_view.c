/* The ELF model: a private copy of the input opened with libelf and validated to fail closed
 * (elf_view.h). */
#include "elf_view.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "elf_header.h"
#include "elf_isa.h"
#include "str_fmt.h"

#define SYM_SIZE 24u /* an Elf64_Sym in the file */

static bool add_ovf(uint64_t a, uint64_t b, uint64_t *r)
{
	return __builtin_add_overflow(a, b, r);
}

/* True when [off, off+len) lies inside [0, size). */
static bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	uint64_t end;
	return !add_ovf(off, len, &end) && end <= size;
}

/* The message into err, then rc: -EINVAL (a bad object), -ENOMEM or -ENOSYS (elf_view.h). */
#define FAIL(rc, ...) (str_fail(err, err_size, __VA_ARGS__), (rc))

static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static bool version_ok;

static void init_libelf(void)
{
	version_ok = elf_version(EV_CURRENT) != EV_NONE;
}

int cob_libelf_init(char *err, size_t err_size)
{
	pthread_once(&version_once, init_libelf);
	return version_ok ? 0 : FAIL(-ENOSYS, "libelf: elf_version: %s", elf_errmsg(-1));
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
static int check_overlaps(struct cob_elf *e, bool vaddr, char *err, size_t err_size)
{
	struct range *r = calloc(e->shnum ? e->shnum : 1, sizeof(*r));
	int st = 0;
	size_t n = 0;

	if (!r)
		return FAIL(-ENOMEM, "out of memory");
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
			st = FAIL(-EINVAL,
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

static int check_sections(struct cob_elf *e, char *err, size_t err_size)
{
	const GElf_Shdr *shs = &e->sec[e->shstrndx].sh;
	int st;

	if (shs->sh_type != SHT_STRTAB || !in_bounds(shs->sh_offset, shs->sh_size, e->size) ||
	    shs->sh_size == 0 || e->buf[shs->sh_offset + shs->sh_size - 1] != '\0')
		return FAIL(-EINVAL,
		            "section name table [%zu] is not a "
		            "NUL-terminated string table inside the file",
		            e->shstrndx);
	for (size_t i = 0; i < e->shnum; i++) {
		struct cob_section *s = &e->sec[i];
		uint64_t end;

		if (s->sh.sh_name >= shs->sh_size)
			return FAIL(-EINVAL,
			            "section [%zu] has a name offset %u past "
			            "the section name table",
			            i, s->sh.sh_name);
		s->name = (const char *)e->buf + shs->sh_offset + s->sh.sh_name;
		if (i == 0)
			continue;
		if (s->sh.sh_type != SHT_NOBITS &&
		    !in_bounds(s->sh.sh_offset, s->sh.sh_size, e->size))
			return FAIL(-EINVAL,
			            "section [%zu] '%s' (offset %llu, size "
			            "%llu) is outside the file of %zu bytes",
			            i, s->name, (unsigned long long)s->sh.sh_offset,
			            (unsigned long long)s->sh.sh_size, e->size);
		if (!is_pow2_or_zero(s->sh.sh_addralign))
			return FAIL(-EINVAL,
			            "section [%zu] '%s' has alignment %llu, "
			            "not a power of two",
			            i, s->name, (unsigned long long)s->sh.sh_addralign);
		if (add_ovf(s->sh.sh_addr, s->sh.sh_size, &end))
			return FAIL(-EINVAL,
			            "section [%zu] '%s' wraps the address "
			            "space",
			            i, s->name);
		if ((s->sh.sh_flags & SHF_ALLOC) && end > e->max_alloc_end)
			e->max_alloc_end = end;
		if (s->sh.sh_type == SHT_SYMTAB || s->sh.sh_type == SHT_DYNSYM) {
			const GElf_Shdr *str;
			if (s->sh.sh_entsize != SYM_SIZE || s->sh.sh_size % SYM_SIZE ||
			    s->sh.sh_link == 0 || s->sh.sh_link >= e->shnum)
				return FAIL(-EINVAL,
				            "symbol table [%zu] '%s' is "
				            "malformed (entry size %llu, size %llu, link %u)",
				            i, s->name, (unsigned long long)s->sh.sh_entsize,
				            (unsigned long long)s->sh.sh_size, s->sh.sh_link);
			str = &e->sec[s->sh.sh_link].sh;
			if (str->sh_type != SHT_STRTAB || str->sh_size == 0 ||
			    !in_bounds(str->sh_offset, str->sh_size, e->size))
				return FAIL(-EINVAL,
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
		return FAIL(-EINVAL,
		            "section name table [%zu] '%s' is allocated (SHF_ALLOC); "
		            "section names are not part of the loaded image",
		            e->shstrndx, e->sec[e->shstrndx].name);
	st = check_overlaps(e, false, err, err_size);
	if (st == 0)
		st = check_overlaps(e, true, err, err_size);
	return st;
}

static int check_segments(struct cob_elf *e, char *err, size_t err_size)
{
	for (size_t i = 0; i < e->phnum; i++) {
		const GElf_Phdr *p = &e->ph[i];
		uint64_t end;

		if (p->p_type == PT_NULL)
			continue;
		if (p->p_filesz && !in_bounds(p->p_offset, p->p_filesz, e->size))
			return FAIL(-EINVAL,
			            "program header %zu (offset %llu, size "
			            "%llu) is outside the file of %zu bytes",
			            i, (unsigned long long)p->p_offset,
			            (unsigned long long)p->p_filesz, e->size);
		if (p->p_filesz > p->p_memsz)
			return FAIL(-EINVAL,
			            "program header %zu has a file size "
			            "larger than its memory size",
			            i);
		if (add_ovf(p->p_vaddr, p->p_memsz, &end))
			return FAIL(-EINVAL,
			            "program header %zu wraps the address "
			            "space",
			            i);
		if (!is_pow2_or_zero(p->p_align))
			return FAIL(-EINVAL,
			            "program header %zu has alignment "
			            "%llu, not a power of two",
			            i, (unsigned long long)p->p_align);
		if (p->p_type == PT_LOAD && end > e->max_alloc_end)
			e->max_alloc_end = end;
	}
	return 0;
}

/* The entries of symbol table sec (0: none) through libelf, all of them or an error. */
static int symbol_data(struct cob_elf *e, size_t sec, Elf_Data **out, char *err, size_t err_size)
{
	Elf_Data *d;

	*out = NULL;
	if (!sec)
		return 0;
	d = elf_getdata(elf_getscn(e->elf, sec), NULL);
	if (!d || d->d_type != ELF_T_SYM || d->d_size != e->sec[sec].sh.sh_size ||
	    d->d_size > (size_t)INT32_MAX)
		return FAIL(-EINVAL, "libelf: symbol table [%zu] '%s': %s", sec, e->sec[sec].name,
		            d ? "unexpected data" : elf_errmsg(-1));
	*out = d;
	return 0;
}

size_t cob_elf_section(const struct cob_elf *e, const char *name)
{
	for (size_t i = 1; i < e->shnum; i++)
		if (!strcmp(e->sec[i].name, name))
			return i;
	return 0;
}

int cob_elf_open(struct cob_elf *e, const void *in, size_t size, char *err, size_t err_size)
{
	int st;

	memset(e, 0, sizeof(*e));
	/* The raw header checks first, so libelf never reads out of bounds (elf_isa.h). */
	if (cob_elf_header_check(in, size, err, err_size) < 0)
		return -EINVAL;
	st = cob_libelf_init(err, err_size);
	if (st)
		return st;
	/* libelf may write to the image it opens; the caller's bytes stay untouched. */
	e->buf = malloc(size);
	if (!e->buf)
		return FAIL(-ENOMEM, "out of memory copying %zu bytes", size);
	memcpy(e->buf, in, size);
	e->size = size;
	e->elf = elf_memory((char *)e->buf, size);
	if (!e->elf) {
		st = FAIL(-EINVAL, "libelf: elf_memory: %s", elf_errmsg(-1));
		goto fail;
	}
	if (elf_kind(e->elf) != ELF_K_ELF || gelf_getclass(e->elf) != ELFCLASS64) {
		st = FAIL(-EINVAL, "libelf: not an ELF64 object");
		goto fail;
	}
	if (!gelf_getehdr(e->elf, &e->eh)) {
		st = FAIL(-EINVAL, "libelf: gelf_getehdr: %s", elf_errmsg(-1));
		goto fail;
	}
	if (elf_getphdrnum(e->elf, &e->phnum) || elf_getshdrnum(e->elf, &e->shnum) ||
	    elf_getshdrstrndx(e->elf, &e->shstrndx)) {
		st = FAIL(-EINVAL, "libelf: reading header counts: %s", elf_errmsg(-1));
		goto fail;
	}
	e->ph = calloc(e->phnum ? e->phnum : 1, sizeof(*e->ph));
	e->sec = calloc(e->shnum, sizeof(*e->sec));
	if (!e->ph || !e->sec) {
		st = FAIL(-ENOMEM, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < e->phnum; i++) {
		if (!gelf_getphdr(e->elf, (int)i, &e->ph[i])) {
			st = FAIL(-EINVAL, "libelf: program header %zu: %s", i, elf_errmsg(-1));
			goto fail;
		}
	}
	for (size_t i = 0; i < e->shnum; i++) {
		Elf_Scn *scn = elf_getscn(e->elf, i);
		e->sec[i].name = "";
		if (!scn || !gelf_getshdr(scn, &e->sec[i].sh)) {
			st = FAIL(-EINVAL, "libelf: section [%zu]: %s", i, elf_errmsg(-1));
			goto fail;
		}
	}
	st = check_sections(e, err, err_size);
	if (st)
		goto fail;
	st = check_segments(e, err, err_size);
	if (st)
		goto fail;
	st = symbol_data(e, e->symtab, &e->symtab_data, err, err_size);
	if (!st)
		st = symbol_data(e, e->dynsym, &e->dynsym_data, err, err_size);
	if (st)
		goto fail;
	e->text = cob_elf_section(e, ".text");
	if (!e->text || e->sec[e->text].sh.sh_type != SHT_PROGBITS ||
	    !(e->sec[e->text].sh.sh_flags & SHF_ALLOC)) {
		st = FAIL(-EINVAL, "no allocated PROGBITS section '.text'");
		goto fail;
	}
	return 0;
fail:
	cob_elf_close(e);
	return st;
}

void cob_elf_close(struct cob_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	free(e->ph);
	free(e->sec);
	free(e->buf);
	memset(e, 0, sizeof(*e));
}

size_t cob_elf_vaddr_to_off(const struct cob_elf *e, uint64_t vaddr, uint64_t len, uint64_t *off)
{
	for (size_t i = 1; i < e->shnum; i++) {
		const GElf_Shdr *sh = &e->sec[i].sh;
		if (!(sh->sh_flags & SHF_ALLOC) || sh->sh_type == SHT_NOBITS)
			continue;
		if (vaddr < sh->sh_addr || !in_bounds(vaddr - sh->sh_addr, len, sh->sh_size))
			continue;
		*off = sh->sh_offset + (vaddr - sh->sh_addr);
		return i;
	}
	return 0;
}

size_t cob_elf_sym_count(const struct cob_elf *e, size_t secidx)
{
	return secidx ? e->sec[secidx].sh.sh_size / SYM_SIZE : 0;
}

void cob_elf_sym(const struct cob_elf *e, size_t secidx, size_t i, GElf_Sym *sym)
{
	Elf_Data *d = secidx == e->symtab ? e->symtab_data : e->dynsym_data;

	/* cob_elf_open checked that the data holds every entry: this cannot fail. */
	if (!gelf_getsym(d, (int)i, sym))
		memset(sym, 0, sizeof(*sym));
}

const char *cob_elf_sym_name(const struct cob_elf *e, size_t secidx, const GElf_Sym *sym)
{
	const GElf_Shdr *str = &e->sec[e->sec[secidx].sh.sh_link].sh;
	const char *base = (const char *)e->buf + str->sh_offset;

	if (sym->st_name >= str->sh_size)
		return NULL;
	if (!memchr(base + sym->st_name, '\0', str->sh_size - sym->st_name))
		return NULL;
	return base + sym->st_name;
}

void cob_elf_notes(struct cob_note_iter *it, const struct cob_elf *e, size_t sec)
{
	const GElf_Shdr *sh = &e->sec[sec].sh;

	cob_note_iter_init(it, e->buf + sh->sh_offset, sh->sh_size,
	                   cob_note_align(sh->sh_addralign));
}
