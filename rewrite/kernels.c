/* Kernel descriptors, identified by address from the <name>.kd symbols of .symtab and .dynsym. */
#include "hs_internal.h"

#include <stdlib.h>
#include <string.h>

static int cmp_kd(const void *a, const void *b)
{
	const struct hs_kernel *x = a, *y = b;
	return x->kd_vaddr < y->kd_vaddr ? -1 : x->kd_vaddr > y->kd_vaddr;
}

/* Validates one descriptor symbol and fills k (name not yet set). */
static enum hs_status read_descriptor(const struct cob_elf *e, const GElf_Sym *sym,
                                      const char *symname, struct hs_kernel *k)
{
	const struct cob_section *s;
	int namelen = (int)strlen(symname) - 3; /* without ".kd" */
	uint64_t rel;
	int64_t off;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= e->shnum)
		return hs_fail(HS_INVALID_ARGUMENT,
		               "kernel descriptor '%s' is not defined in a "
		               "section (section index %u)",
		               symname, sym->st_shndx);
	s = &e->sec[sym->st_shndx];
	if (!(s->sh.sh_flags & SHF_ALLOC) || s->sh.sh_type == SHT_NOBITS ||
	    sym->st_value < s->sh.sh_addr ||
	    !hs_in_bounds(sym->st_value - s->sh.sh_addr, KD_SIZE, s->sh.sh_size))
		return hs_fail(HS_INVALID_ARGUMENT,
		               "kernel descriptor '%s' at 0x%llx is not "
		               "fully inside section [%u] '%s'",
		               symname, (unsigned long long)sym->st_value, sym->st_shndx, s->name);
	rel = sym->st_value - s->sh.sh_addr;
	k->kd_off = s->sh.sh_offset + rel;
	if (!hs_in_bounds(k->kd_off, KD_SIZE, e->size))
		return hs_fail(HS_INVALID_ARGUMENT, "kernel descriptor '%s' is outside the file",
		               symname);
	k->kd_vaddr = sym->st_value;
	memcpy(k->kd, e->buf + k->kd_off, KD_SIZE);
	off = (int64_t)hs_rd64(k->kd + KD_AT(kernel_code_entry_byte_offset));
	/* Checked signed add: the entry must be a representable address. */
	if (off < 0 ? (uint64_t) - (off + 1) + 1 > k->kd_vaddr
	            : (uint64_t)off > UINT64_MAX - k->kd_vaddr)
		return hs_fail(HS_INVALID_ARGUMENT,
		               "kernel '%.*s': entry offset %lld from the "
		               "descriptor at 0x%llx is outside the address space",
		               namelen, symname, (long long)off, (unsigned long long)k->kd_vaddr);
	k->entry = k->kd_vaddr + (uint64_t)off;
	k->meta = -1;
	/* Checked on every path, the no-op one too: a descriptor must point at code. */
	k->entry_sec = cob_elf_vaddr_to_off(e, k->entry, 4, &k->entry_off);
	if (!k->entry_sec || !(e->sec[k->entry_sec].sh.sh_flags & SHF_EXECINSTR))
		return hs_fail(HS_INVALID_ARGUMENT,
		               "kernel '%.*s': entry 0x%llx is not inside an "
		               "executable section",
		               namelen, symname, (unsigned long long)k->entry);
	return HS_OK;
}

/* Kernels found so far, indexed by name and by descriptor address (both unique in ks). */
struct kernel_index {
	struct hash_index by_name, by_addr;
};

struct name_key {
	const struct hs_kernels *ks;
	const char *name;
	size_t len;
};

static bool name_eq(const void *ctx, size_t i)
{
	const struct name_key *key = ctx;
	const char *o = key->ks->k[i].name;

	return strlen(o) == key->len && !memcmp(o, key->name, key->len);
}

struct addr_key {
	const struct hs_kernels *ks;
	uint64_t vaddr;
};

static bool addr_eq(const void *ctx, size_t i)
{
	const struct addr_key *key = ctx;

	return key->ks->k[i].kd_vaddr == key->vaddr;
}

static enum hs_status add_symbols(const struct cob_elf *e, size_t secidx, struct hs_kernels *ks,
                                  size_t *cap, struct kernel_index *ix)
{
	size_t n = cob_elf_sym_count(e, secidx);

	for (size_t i = 1; i < n; i++) {
		struct hs_kernel k = {0};
		const char *name;
		size_t len, same_name, same_addr;
		uint64_t name_hash, addr_hash;
		GElf_Sym sym;
		enum hs_status st;

		cob_elf_sym(e, secidx, i, &sym);
		name = cob_elf_sym_name(e, secidx, &sym);
		if (!name)
			return hs_fail(HS_INVALID_ARGUMENT,
			               "symbol %zu of [%zu] '%s' has a name "
			               "outside its string table",
			               i, secidx, e->sec[secidx].name);
		len = strlen(name);
		if (len <= 3 || strcmp(name + len - 3, ".kd"))
			continue;
		st = read_descriptor(e, &sym, name, &k);
		if (st)
			return st;
		/*
		 * Names and addresses are each unique among the kernels kept so far,
		 * so one lookup apiece decides: a name at another address is ambiguous;
		 * an address already kept is the .symtab/.dynsym alias of one kernel.
		 */
		name_hash = hash_bytes(name, len - 3);
		addr_hash = hash_u64(k.kd_vaddr);
		same_name = hash_index_find(&ix->by_name, name_hash, name_eq,
		                            &(struct name_key){ks, name, len - 3});
		if (same_name != HASH_INDEX_NONE && ks->k[same_name].kd_vaddr != k.kd_vaddr)
			return hs_fail(HS_INVALID_ARGUMENT,
			               "kernel '%.*s' is ambiguous: "
			               "descriptors at 0x%llx and 0x%llx",
			               (int)(len - 3), name,
			               (unsigned long long)ks->k[same_name].kd_vaddr,
			               (unsigned long long)k.kd_vaddr);
		same_addr = hash_index_find(&ix->by_addr, addr_hash, addr_eq,
		                            &(struct addr_key){ks, k.kd_vaddr});
		if (same_addr != HASH_INDEX_NONE)
			continue;
		if (ks->n == *cap) {
			size_t nc = *cap ? *cap * 2 : 8;
			struct hs_kernel *nk = realloc(ks->k, nc * sizeof(*nk));
			if (!nk)
				return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
			ks->k = nk;
			*cap = nc;
		}
		k.name = strndup(name, len - 3);
		if (!k.name)
			return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		ks->k[ks->n++] = k;
		st = hs_index_insert(&ix->by_name, name_hash, ks->n - 1);
		if (!st)
			st = hs_index_insert(&ix->by_addr, addr_hash, ks->n - 1);
		if (st)
			return st;
	}
	return HS_OK;
}

enum hs_status hs_kernels_find(const struct cob_elf *e, struct hs_kernels *ks)
{
	struct kernel_index ix = {0};
	size_t cap = 0;
	enum hs_status st;

	memset(ks, 0, sizeof(*ks));
	st = add_symbols(e, e->symtab, ks, &cap, &ix);
	if (st == HS_OK && e->dynsym)
		st = add_symbols(e, e->dynsym, ks, &cap, &ix);
	hash_index_free(&ix.by_name);
	hash_index_free(&ix.by_addr);
	if (st) {
		hs_kernels_free(ks);
		return st;
	}
	/* Address order makes stub placement independent of symbol table order. */
	if (ks->n > 1)
		qsort(ks->k, ks->n, sizeof(*ks->k), cmp_kd);
	return HS_OK;
}

void hs_kernels_free(struct hs_kernels *ks)
{
	for (size_t i = 0; i < ks->n; i++)
		free(ks->k[i].name);
	free(ks->k);
	memset(ks, 0, sizeof(*ks));
}
