/* <kernel>.stub symbols: whether .symtab can take them, and which already exist. */
#include "pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stub_format.h"

/* Whether .symtab can take new global symbols; false with a reason in why (the rewrite goes on
 * without them). */
static bool symtab_usable(const struct cob_elf *e, char *why, size_t why_size)
{
	const GElf_Shdr *sym, *str;
	size_t n;

	if (!e->symtab) {
		snprintf(why, why_size, "no .symtab (stripped object)");
		return false;
	}
	sym = &e->sec[e->symtab].sh;
	str = &e->sec[sym->sh_link].sh;
	if ((sym->sh_flags & SHF_ALLOC) || (str->sh_flags & SHF_ALLOC)) {
		snprintf(why, why_size, ".symtab or its string table is allocated");
		return false;
	}
	if (sym->sh_link == e->shstrndx) {
		snprintf(why, why_size, ".symtab shares its string table with the section names");
		return false;
	}
	for (size_t i = 1; i < e->shnum; i++) {
		if (e->sec[i].sh.sh_type == SHT_SYMTAB_SHNDX && e->sec[i].sh.sh_link == e->symtab) {
			snprintf(why, why_size, ".symtab has extended section indices");
			return false;
		}
	}
	n = cob_elf_sym_count(e, e->symtab);
	if (sym->sh_info == 0 || sym->sh_info > n) {
		snprintf(why, why_size, ".symtab sh_info %u is not a valid first-global index",
		         sym->sh_info);
		return false;
	}
	/* New globals are appended, which is only right if locals come first already. */
	for (size_t i = 1; i < n; i++) {
		GElf_Sym s;
		bool local;
		cob_elf_sym(e, e->symtab, i, &s);
		local = GELF_ST_BIND(s.st_info) == STB_LOCAL;
		if (local != (i < sym->sh_info)) {
			snprintf(why, why_size, ".symtab symbol %zu breaks locals-before-globals",
			         i);
			return false;
		}
		if (!cob_elf_sym_name(e, e->symtab, &s)) {
			snprintf(why, why_size,
			         ".symtab symbol %zu has a name outside its string "
			         "table",
			         i);
			return false;
		}
	}
	return true;
}

/* Names of .symtab symbols ending in ".stub" (the only ones a new stub symbol could repeat). */
struct stub_names {
	const char **name;
	size_t n;
	struct hash_index index; /* one entry per distinct name */
};

struct stub_key {
	const struct stub_names *s;
	const char *name;
};

static bool stub_name_eq(const void *ctx, size_t i)
{
	const struct stub_key *key = ctx;

	return !strcmp(key->s->name[i], key->name);
}

static size_t stub_name_find(const struct stub_names *s, const char *name)
{
	struct stub_key key = {s, name};

	return hash_index_find(&s->index, hash_bytes(name, strlen(name)), stub_name_eq, &key);
}

static void stub_names_free(struct stub_names *s)
{
	free(s->name);
	hash_index_free(&s->index);
}

static enum hs_status existing_stub_names(const struct cob_elf *e, struct stub_names *s)
{
	size_t n = cob_elf_sym_count(e, e->symtab);

	s->name = calloc(n ? n : 1, sizeof(*s->name));
	if (!s->name)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		const char *sn;
		size_t len;
		enum hs_status st;
		cob_elf_sym(e, e->symtab, i, &sym);
		sn = cob_elf_sym_name(e, e->symtab, &sym);
		len = sn ? strlen(sn) : 0;
		if (len <= 5 || strcmp(sn + len - 5, ".stub") ||
		    stub_name_find(s, sn) != HASH_INDEX_NONE)
			continue;
		s->name[s->n] = sn;
		st = hs_index_insert(&s->index, hash_bytes(sn, len), s->n);
		if (st)
			return st;
		s->n++;
	}
	return HS_OK;
}

/*
 * Where kernel i's stub is, if it has one: a stub the entry pass placed this call (in the
 * pool), or the one its entry already is.  The entry pass ran first and refused any entry
 * outside .text that is not one of our stubs, so an entry outside .text is a stub.
 */
static bool stub_of(const struct hs_pass_ctx *c, const struct hs_plan *p, size_t i, uint64_t *vaddr,
                    bool *in_pool, uint16_t *shndx)
{
	const struct cob_kernel *k = &c->o->ks.k[i];

	if (p->kc[i].new_entry) {
		*vaddr = p->kc[i].entry;
		*in_pool = true;
		*shndx = 0;
		return true;
	}
	if (k->entry_sec == c->o->e.text)
		return false;
	*vaddr = k->entry;
	*in_pool = false;
	/* The kernel's entry section, which hs_kernels_find checked. */
	*shndx = (uint16_t)k->entry_sec;
	return true;
}

enum hs_status hs_pass_stubsyms(const struct hs_pass_ctx *c, struct hs_plan *p)
{
	const struct cob_elf *e = &c->o->e;
	char why[160];
	size_t want = 0, added = 0;
	struct stub_names existing = {0};
	enum hs_status st = HS_OK;
	uint64_t vaddr;
	uint16_t shndx;
	bool in_pool;

	for (size_t i = 0; i < c->o->ks.n; i++)
		want += stub_of(c, p, i, &vaddr, &in_pool, &shndx);
	if (want == 0)
		return HS_OK;
	if (!symtab_usable(e, why, sizeof(why))) {
		/* Best effort: the stubs work without symbols; only debuggers miss them. */
		hs_plan_note(p, HS_REASON_SYMBOLS_SKIPPED, "stub symbols skipped: %s", why);
		return HS_OK;
	}
	st = existing_stub_names(e, &existing);
	for (size_t i = 0; i < c->o->ks.n && !st; i++) {
		const struct cob_kernel *k = &c->o->ks.k[i];
		char *name;

		if (!stub_of(c, p, i, &vaddr, &in_pool, &shndx))
			continue;
		if (asprintf(&name, "%s.stub", k->name) < 0) {
			st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
			break;
		}
		/* A second pass finds the symbols of the first and adds none. */
		if (stub_name_find(&existing, name) == HASH_INDEX_NONE) {
			st = hs_plan_symbol(p, name, vaddr, HS_STUB_SIZE, in_pool, shndx);
			added++;
		}
		free(name);
	}
	stub_names_free(&existing);
	p->count[HS_COUNT_SYMBOLS_ADDED] += (uint32_t)added;
	return st;
}
