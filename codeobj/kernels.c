/* Kernel descriptors, identified by address from the <name>.kd symbols of .symtab and .dynsym,
 * and joined to the merged metadata by .symbol (kernels.h). */
#include "kernels.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hash_index.h"
#include "str_fmt.h"

/* The message into err, then rc: -EINVAL (a bad object) or -ENOMEM (kernels.h). */
#define FAIL(rc, ...) (str_fail(err, err_size, __VA_ARGS__), (rc))

/* True when [off, off+len) lies inside [0, size). */
static bool in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	uint64_t end;
	return !__builtin_add_overflow(off, len, &end) && end <= size;
}

static int cmp_kd(const void *a, const void *b)
{
	const struct cob_kernel *x = a, *y = b;
	return x->kd_vaddr < y->kd_vaddr ? -1 : x->kd_vaddr > y->kd_vaddr;
}

/* Validates one descriptor symbol and fills k (name not yet set). */
static int read_descriptor(const struct cob_elf *e, const GElf_Sym *sym, const char *symname,
                           struct cob_kernel *k, char *err, size_t err_size)
{
	const struct cob_section *s;
	int namelen = (int)strlen(symname) - 3; /* without ".kd" */
	uint64_t rel;
	int64_t off;

	if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= e->shnum)
		return FAIL(-EINVAL,
		            "kernel descriptor '%s' is not defined in a "
		            "section (section index %u)",
		            symname, sym->st_shndx);
	s = &e->sec[sym->st_shndx];
	if (!(s->sh.sh_flags & SHF_ALLOC) || s->sh.sh_type == SHT_NOBITS ||
	    sym->st_value < s->sh.sh_addr ||
	    !in_bounds(sym->st_value - s->sh.sh_addr, KD_SIZE, s->sh.sh_size))
		return FAIL(-EINVAL,
		            "kernel descriptor '%s' at 0x%llx is not "
		            "fully inside section [%u] '%s'",
		            symname, (unsigned long long)sym->st_value, sym->st_shndx, s->name);
	rel = sym->st_value - s->sh.sh_addr;
	k->kd_off = s->sh.sh_offset + rel;
	if (!in_bounds(k->kd_off, KD_SIZE, e->size))
		return FAIL(-EINVAL, "kernel descriptor '%s' is outside the file", symname);
	k->kd_vaddr = sym->st_value;
	memcpy(k->kd, e->buf + k->kd_off, KD_SIZE);
	kd_decode(k->kd, &k->desc);
	off = k->desc.entry_offset;
	/* Checked signed add: the entry must be a representable address. */
	if (off < 0 ? (uint64_t) - (off + 1) + 1 > k->kd_vaddr
	            : (uint64_t)off > UINT64_MAX - k->kd_vaddr)
		return FAIL(-EINVAL,
		            "kernel '%.*s': entry offset %lld from the "
		            "descriptor at 0x%llx is outside the address space",
		            namelen, symname, (long long)off, (unsigned long long)k->kd_vaddr);
	k->entry = k->kd_vaddr + (uint64_t)off;
	k->meta = -1;
	/* Checked on every path, the no-op one too: a descriptor must point at code. */
	k->entry_sec = cob_elf_vaddr_to_off(e, k->entry, 4, &k->entry_off);
	if (!k->entry_sec || !(e->sec[k->entry_sec].sh.sh_flags & SHF_EXECINSTR))
		return FAIL(-EINVAL,
		            "kernel '%.*s': entry 0x%llx is not inside an "
		            "executable section",
		            namelen, symname, (unsigned long long)k->entry);
	return 0;
}

/* Kernels found so far, indexed by name and by descriptor address (both unique in ks). */
struct kernel_index {
	struct hash_index by_name, by_addr;
};

struct name_key {
	const struct cob_kernels *ks;
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
	const struct cob_kernels *ks;
	uint64_t vaddr;
};

static bool addr_eq(const void *ctx, size_t i)
{
	const struct addr_key *key = ctx;

	return key->ks->k[i].kd_vaddr == key->vaddr;
}

static int add_symbols(const struct cob_elf *e, size_t secidx, struct cob_kernels *ks, size_t *cap,
                       struct kernel_index *ix, char *err, size_t err_size)
{
	size_t n = cob_elf_sym_count(e, secidx);

	for (size_t i = 1; i < n; i++) {
		struct cob_kernel k = {0};
		const char *name;
		size_t len, same_name, same_addr;
		uint64_t name_hash, addr_hash;
		GElf_Sym sym;
		int st;

		cob_elf_sym(e, secidx, i, &sym);
		name = cob_elf_sym_name(e, secidx, &sym);
		if (!name)
			return FAIL(-EINVAL,
			            "symbol %zu of [%zu] '%s' has a name "
			            "outside its string table",
			            i, secidx, e->sec[secidx].name);
		len = strlen(name);
		if (len <= 3 || strcmp(name + len - 3, ".kd"))
			continue;
		st = read_descriptor(e, &sym, name, &k, err, err_size);
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
			return FAIL(-EINVAL,
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
			struct cob_kernel *nk = realloc(ks->k, nc * sizeof(*nk));
			if (!nk)
				return FAIL(-ENOMEM, "out of memory");
			ks->k = nk;
			*cap = nc;
		}
		k.name = strndup(name, len - 3);
		if (!k.name)
			return FAIL(-ENOMEM, "out of memory");
		ks->k[ks->n++] = k;
		if (hash_index_insert(&ix->by_name, name_hash, ks->n - 1) ||
		    hash_index_insert(&ix->by_addr, addr_hash, ks->n - 1))
			return FAIL(-ENOMEM, "out of memory");
	}
	return 0;
}

int cob_kernels_find(const struct cob_elf *e, struct cob_kernels *ks, char *err, size_t err_size)
{
	struct kernel_index ix = {0};
	size_t cap = 0;
	int st;

	memset(ks, 0, sizeof(*ks));
	st = add_symbols(e, e->symtab, ks, &cap, &ix, err, err_size);
	if (st == 0 && e->dynsym)
		st = add_symbols(e, e->dynsym, ks, &cap, &ix, err, err_size);
	hash_index_free(&ix.by_name);
	hash_index_free(&ix.by_addr);
	if (st) {
		cob_kernels_free(ks);
		return st;
	}
	/* Address order makes stub placement independent of symbol table order. */
	if (ks->n > 1)
		qsort(ks->k, ks->n, sizeof(*ks->k), cmp_kd);
	return 0;
}

void cob_kernels_free(struct cob_kernels *ks)
{
	for (size_t i = 0; i < ks->n; i++)
		free(ks->k[i].name);
	free(ks->k);
	memset(ks, 0, sizeof(*ks));
}

/* A .symbol to look up in two parts (a kernel name and ".kd"), so no copy joins them. */
struct symbol_key {
	const struct cob_meta *m;
	const char *sym, *suffix;
	size_t len, suffix_len;
};

static const msgpack_object *symbol_of(const struct cob_meta *m, size_t k)
{
	const msgpack_object *o = codeobj_map_get(cob_meta_kernel(m, k), ".symbol");

	return o && o->type == MSGPACK_OBJECT_STR ? o : NULL;
}

static bool symbol_eq(const void *ctx, size_t k)
{
	const struct symbol_key *key = ctx;
	const msgpack_object *o = symbol_of(key->m, k);

	return o->via.str.size == key->len + key->suffix_len &&
	       !memcmp(o->via.str.ptr, key->sym, key->len) &&
	       !memcmp(o->via.str.ptr + key->len, key->suffix, key->suffix_len);
}

/* The first indexed kernel whose .symbol is sym[0..len) then suffix, or HASH_INDEX_NONE. */
static size_t find_symbol(const struct hash_index *ix, const struct cob_meta *m, const char *sym,
                          size_t len, const char *suffix)
{
	struct symbol_key key = {m, sym, suffix, len, strlen(suffix)};

	return hash_index_find(ix, hash_concat(sym, len, suffix, key.suffix_len), symbol_eq, &key);
}

int cob_kernels_join(struct cob_kernels *ks, const struct cob_meta *m)
{
	struct hash_index ix = {0};
	int rc = 0;

	/* The first of equal symbols only: a second kernel of one .symbol is never joined. */
	for (size_t k = 0; m && k < m->n_kernels && !rc; k++) {
		const msgpack_object *sym = symbol_of(m, k);
		if (sym &&
		    find_symbol(&ix, m, sym->via.str.ptr, sym->via.str.size, "") == HASH_INDEX_NONE)
			rc = hash_index_insert(&ix, hash_bytes(sym->via.str.ptr, sym->via.str.size),
			                       k);
	}
	for (size_t i = 0; i < ks->n && !rc; i++) {
		const char *name = ks->k[i].name;
		size_t k = find_symbol(&ix, m, name, strlen(name), ".kd");
		ks->k[i].meta = k == HASH_INDEX_NONE ? -1 : (int)k;
	}
	hash_index_free(&ix);
	return rc;
}
