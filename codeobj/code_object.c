/* Reading a code object (mirage/code_object.h): .text, function symbols, <kernel>.kd, metadata. */
#include "mirage/code_object.h"

#include "elf_isa.h"
#include "gfx_table.h"
#include "meta_merge.h"
#include "note.h"
#include "read_whole.h"
#include "str_fmt.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <msgpack.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CO_MAX_BYTES (UINT64_C(1) << 31)

static int fail(char **err, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char **err, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*err = str_vfmt(fmt, ap);
	va_end(ap);
	return rc;
}

static char *str_dup(const msgpack_object *o)
{
	if (!o || o->type != MSGPACK_OBJECT_STR)
		return NULL;
	return strndup(o->via.str.ptr, o->via.str.size);
}

static uint32_t uint_of(const msgpack_object *o)
{
	if (o && o->type == MSGPACK_OBJECT_POSITIVE_INTEGER && o->via.u64 <= UINT32_MAX)
		return (uint32_t)o->via.u64;
	return 0;
}

static int read_args(struct co_kernel *k, const msgpack_object *args)
{
	if (!args || args->type != MSGPACK_OBJECT_ARRAY)
		return 0;
	k->args = calloc(args->via.array.size + 1, sizeof(*k->args));
	if (!k->args)
		return -ENOMEM;
	for (uint32_t i = 0; i < args->via.array.size; i++) {
		const msgpack_object *a = &args->via.array.ptr[i];
		struct co_arg *ca = &k->args[k->nargs++];
		ca->name = str_dup(codeobj_map_get(a, ".name"));
		ca->value_kind = str_dup(codeobj_map_get(a, ".value_kind"));
		ca->offset = uint_of(codeobj_map_get(a, ".offset"));
		ca->size = uint_of(codeobj_map_get(a, ".size"));
		ca->hidden = ca->value_kind && !strncmp(ca->value_kind, "hidden_", 7);
	}
	return 0;
}

static int cluster_dims_set(const msgpack_object *o)
{
	if (!o || o->type != MSGPACK_OBJECT_ARRAY)
		return 0;
	for (uint32_t i = 0; i < o->via.array.size; i++) {
		uint32_t v = uint_of(&o->via.array.ptr[i]);
		if (v > 1)
			return 1;
	}
	return 0;
}

/*
 * Every AMDGPU metadata record of a note section, offered in order to the merge (meta_merge.h):
 * the first record is the metadata (an error in it is the object's); a later one joins only
 * when it merges with the first as comgr merges it, and is left out otherwise, as the rewriter
 * and the loader leave it out.  A malformed record ends the section's walk quietly.
 */
static int read_notes(struct code_object *co, struct cob_meta *meta, Elf_Scn *scn,
                      const GElf_Shdr *sh, char **err)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	struct cob_note_iter it;
	struct cob_note n;

	if (!d || !d->d_buf)
		return 0;
	cob_note_iter_init(&it, d->d_buf, d->d_size, cob_note_align(sh->sh_addralign));
	while (cob_note_next(&it, &n) == COB_NOTE_RECORD) {
		bool first = !meta->n_rec;
		enum cob_meta_verdict v;
		if (!cob_note_is_amdgpu(&n, COB_NT_AMDGPU_METADATA))
			continue;
		v = cob_meta_add(meta, n.desc, n.descsz);
		if (v == COB_META_NO_MEMORY)
			return -ENOMEM;
		if (!first)
			continue;
		if (v == COB_META_NOT_DOCUMENT)
			return fail(err, -EINVAL, "%s: the AMDGPU metadata note is not msgpack",
			            co->path);
		if (v != COB_META_TAKEN || !meta->rec[0].kernels)
			return fail(err, -EINVAL, "%s: the metadata has no amdhsa.kernels list",
			            co->path);
	}
	return 0;
}

/* The kernels of the merged metadata, in its order, with the fields code_object.h names. */
static int read_kernels(struct code_object *co, const struct cob_meta *meta, char **err)
{
	co->kernels = calloc(meta->n_kernels + 1, sizeof(*co->kernels));
	if (!co->kernels)
		return -ENOMEM;
	for (size_t i = 0; i < meta->n_kernels; i++) {
		const msgpack_object *m = cob_meta_kernel(meta, i);
		const msgpack_object *r = codeobj_map_get(m, ".reqd_workgroup_size");
		struct co_kernel *k = &co->kernels[co->nkernels++];
		int rc;
		k->name = str_dup(codeobj_map_get(m, ".name"));
		k->symbol = str_dup(codeobj_map_get(m, ".symbol"));
		k->kernarg_size = uint_of(codeobj_map_get(m, ".kernarg_segment_size"));
		k->group_fixed = uint_of(codeobj_map_get(m, ".group_segment_fixed_size"));
		k->private_fixed = uint_of(codeobj_map_get(m, ".private_segment_fixed_size"));
		k->wavefront_size = uint_of(codeobj_map_get(m, ".wavefront_size"));
		k->has_cluster_dims = cluster_dims_set(codeobj_map_get(m, ".cluster_dims"));
		k->max_flat_wg = uint_of(codeobj_map_get(m, ".max_flat_workgroup_size"));
		k->vgpr_count = uint_of(codeobj_map_get(m, ".vgpr_count"));
		k->agpr_count = uint_of(codeobj_map_get(m, ".agpr_count"));
		for (uint32_t d = 0;
		     r && r->type == MSGPACK_OBJECT_ARRAY && d < 3 && d < r->via.array.size; d++)
			k->reqd_wg[d] = uint_of(&r->via.array.ptr[d]);
		if (!k->name || !k->symbol)
			return fail(err, -EINVAL, "%s: amdhsa.kernels[%zu] has no .name or .symbol",
			            co->path, i);
		rc = read_args(k, codeobj_map_get(m, ".args"));
		if (rc)
			return rc;
	}
	return 0;
}

/* The bytes at virtual address addr (n of them) from the section that holds them. */
static int read_vaddr(Elf *elf, uint64_t addr, void *dst, size_t n)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *d;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (addr < sh.sh_addr || addr - sh.sh_addr + n > sh.sh_size)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || addr - sh.sh_addr + n > d->d_size)
			return -1;
		memcpy(dst, (char *)d->d_buf + (addr - sh.sh_addr), n);
		return 0;
	}
	return -1;
}

static int cmp_func(const void *a, const void *b)
{
	const struct co_func *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int read_symbols(struct code_object *co, Elf *elf, Elf_Scn *symtab, char **err)
{
	GElf_Shdr sh;
	Elf_Data *d = elf_getdata(symtab, NULL);
	size_t n;

	gelf_getshdr(symtab, &sh);
	n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	co->funcs = calloc(n + 1, sizeof(*co->funcs));
	if (!co->funcs)
		return -ENOMEM;
	for (size_t i = 0; d && i < n; i++) {
		GElf_Sym s;
		const char *name;
		if (!gelf_getsym(d, (int)i, &s))
			continue;
		name = elf_strptr(elf, sh.sh_link, s.st_name);
		if (!name)
			continue;
		if (GELF_ST_TYPE(s.st_info) == STT_FUNC && s.st_value >= co->text_addr &&
		    s.st_value - co->text_addr < co->text_size) {
			struct co_func *f = &co->funcs[co->nfuncs++];
			f->name = strdup(name);
			f->addr = s.st_value;
			f->size = s.st_size;
			if (s.st_value - co->text_addr + s.st_size > co->text_size)
				f->size = co->text_size - (s.st_value - co->text_addr);
		}
		for (size_t k = 0; k < co->nkernels; k++) {
			struct co_kernel *kk = &co->kernels[k];
			if (GELF_ST_TYPE(s.st_info) == STT_OBJECT && !strcmp(name, kk->symbol) &&
			    read_vaddr(elf, s.st_value, kk->kd, sizeof(kk->kd)))
				return fail(err, -EINVAL,
				            "%s: %s: the descriptor is not in the file", co->path,
				            kk->symbol);
		}
	}
	qsort(co->funcs, co->nfuncs, sizeof(*co->funcs), cmp_func);
	for (size_t k = 0; k < co->nkernels; k++) {
		struct co_kernel *kk = &co->kernels[k];
		kd_decode(kk->kd, &kk->desc);
		kk->layout = kd_layout_of(gfx_by_mach((uint8_t)co->mach));
		for (size_t i = 0; i < co->nfuncs; i++)
			if (!strcmp(co->funcs[i].name, kk->name)) {
				kk->entry = co->funcs[i].addr;
				kk->size = co->funcs[i].size;
			}
		if (!kk->size)
			return fail(err, -EINVAL, "%s: kernel %s has no function symbol in .text",
			            co->path, kk->name);
	}
	return 0;
}

/*
 * The pool mirage's rewriter adds (.hotswap.text, docs/rewriter.md): its trampolines are
 * reached by s_branch from .text, so it is appended to co->text at its address.  A pool
 * below .text or far above it (more than 16 MiB of span) is not followed.
 */
#define POOL_SPAN_MAX (16u << 20)

static int add_pool(struct code_object *co, Elf_Scn *pool, char **err)
{
	GElf_Shdr sh;
	Elf_Data *d = elf_getdata(pool, NULL);
	uint64_t start, end;
	uint8_t *t;

	gelf_getshdr(pool, &sh);
	if (!d || d->d_size != sh.sh_size)
		return fail(err, -EINVAL, "%s: .hotswap.text is not in the file", co->path);
	if (sh.sh_addr < co->text_addr + co->text_size || (sh.sh_addr & 3) || !sh.sh_size ||
	    sh.sh_addr - co->text_addr > POOL_SPAN_MAX ||
	    sh.sh_size > POOL_SPAN_MAX - (sh.sh_addr - co->text_addr))
		return 0;
	start = sh.sh_addr - co->text_addr;
	end = start + sh.sh_size;
	t = realloc(co->text, end);
	if (!t)
		return -ENOMEM;
	memset(t + co->text_size, 0, start - co->text_size);
	memcpy(t + start, d->d_buf, sh.sh_size);
	co->text = t;
	co->text_size = end;
	co->pool_start = start;
	co->pool_end = end;
	return 0;
}

/* The sections: every metadata record (merged), the symbol table, .text and the pool. */
static int read_sections(struct code_object *co, Elf *elf, struct cob_meta *meta, Elf_Scn **symtab,
                         Elf_Scn **pool, char **err)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	int rc;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return fail(err, -EINVAL, "%s: no section names", co->path);
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;
		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (sh.sh_type == SHT_NOTE && (sh.sh_flags & SHF_ALLOC)) {
			rc = read_notes(co, meta, scn, &sh, err);
			if (rc < 0)
				return rc;
		} else if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !*symtab)) {
			*symtab = scn;
		} else if (name && !strcmp(name, ".text") && sh.sh_type == SHT_PROGBITS) {
			Elf_Data *d = elf_getdata(scn, NULL);
			if (!d || d->d_size != sh.sh_size)
				return fail(err, -EINVAL, "%s: .text is not in the file", co->path);
			co->text = malloc(sh.sh_size ? sh.sh_size : 1);
			if (!co->text)
				return -ENOMEM;
			memcpy(co->text, d->d_buf, sh.sh_size);
			co->text_addr = sh.sh_addr;
			co->text_size = sh.sh_size;
		} else if (name && !strcmp(name, ".hotswap.text") && sh.sh_type == SHT_PROGBITS &&
		           (sh.sh_flags & SHF_EXECINSTR)) {
			*pool = scn;
		}
	}
	return 0;
}

/* A loaded image this large is no code object's (a planted PT_LOAD with a huge memsz). */
#define IMAGE_SPAN_MAX (UINT64_C(1) << 30)

/* co->image from the PT_LOAD segments (code_object.h). */
static int read_image(struct code_object *co, Elf *elf, char **err)
{
	size_t n, file_size;
	const char *file = elf_rawfile(elf, &file_size);
	uint64_t lo = UINT64_MAX, hi = 0;
	GElf_Phdr ph;

	if (elf_getphdrnum(elf, &n) < 0 || !file)
		return 0; /* no program headers: nothing is loaded */
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (ph.p_filesz > ph.p_memsz || ph.p_memsz > IMAGE_SPAN_MAX ||
		    ph.p_vaddr > IMAGE_SPAN_MAX || ph.p_offset > file_size ||
		    ph.p_filesz > file_size - ph.p_offset)
			return fail(
			    err, -EINVAL,
			    "%s: program header %zu (PT_LOAD at 0x%llx) lies outside the file "
			    "or spans more than 1 GiB",
			    co->path, i, (unsigned long long)ph.p_vaddr);
		if (ph.p_vaddr < lo)
			lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > hi)
			hi = ph.p_vaddr + ph.p_memsz;
	}
	if (hi <= lo)
		return 0;
	if (hi - lo > IMAGE_SPAN_MAX)
		return fail(err, -EINVAL, "%s: the PT_LOAD segments span more than 1 GiB",
		            co->path);
	if (!(co->image = calloc(1, hi - lo)))
		return fail(err, -ENOMEM, "%s: out of memory for its %llu-byte image", co->path,
		            (unsigned long long)(hi - lo));
	co->image_addr = lo;
	co->image_size = hi - lo;
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			memcpy(co->image + (ph.p_vaddr - lo), file + ph.p_offset, ph.p_filesz);
	return 0;
}

static int parse(struct code_object *co, Elf *elf, char **err)
{
	Elf_Scn *symtab = NULL, *pool = NULL;
	struct cob_meta meta = COB_META_INIT;
	struct cob_isa isa;
	size_t records;
	GElf_Ehdr eh;
	int rc;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) || eh.e_machine != EM_AMDGPU)
		return fail(err, -EINVAL, "%s: not an AMDGPU ELF code object", co->path);
	co->mach = eh.e_flags & 0xff;
	if (cob_isa_from_elf((uint32_t)eh.e_flags, eh.e_ident[EI_ABIVERSION], &isa) == 0)
		co->mcpu = strdup(isa.gfx->name);
	rc = read_sections(co, elf, &meta, &symtab, &pool, err);
	if (!rc)
		rc = read_kernels(co, &meta, err);
	records = meta.n_rec;
	cob_meta_free(&meta);
	if (rc)
		return rc;
	if (!records)
		return fail(err, -EINVAL, "%s: no AMDGPU metadata note", co->path);
	if (!co->text)
		return fail(err, -EINVAL, "%s: no .text section", co->path);
	if (!symtab)
		return fail(err, -EINVAL, "%s: no symbol table", co->path);
	rc = read_symbols(co, elf, symtab, err);
	if (!rc && pool)
		rc = add_pool(co, pool, err);
	return rc ? rc : read_image(co, elf, err);
}

/* Parses the size bytes at bytes (not kept) as the object called name. */
static int load_bytes(const void *bytes, size_t size, const char *name, struct code_object **out,
                      char **err)
{
	struct code_object *co;
	Elf *elf;
	int rc;

	elf_version(EV_CURRENT);
	elf = elf_memory((char *)bytes, size);
	co = calloc(1, sizeof(*co));
	if (!elf || !co) {
		free(co);
		if (elf)
			elf_end(elf);
		return fail(err, -EINVAL, "%s: not an ELF file", name);
	}
	co->path = strdup(name);
	rc = parse(co, elf, err);
	elf_end(elf);
	if (rc < 0) {
		if (!*err)
			fail(err, rc, "%s: %s", name, strerror(-rc));
		co_free(co);
		return rc;
	}
	*out = co;
	return 0;
}

int co_load(const char *path, struct code_object **out, char **err)
{
	void *bytes;
	size_t size;
	int fd, rc;

	*out = NULL;
	*err = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return fail(err, -errno, "%s: %s", path, strerror(errno));
	bytes = read_whole_fd_max(fd, CO_MAX_BYTES, &size);
	rc = errno;
	close(fd);
	if (!bytes)
		return fail(err, -rc, "%s: %s", path,
		            rc == EINVAL ? "not a regular file" : strerror(rc));
	rc = load_bytes(bytes, size, path, out, err);
	free(bytes);
	return rc;
}

int co_load_memory(const void *bytes, size_t size, const char *name, struct code_object **out,
                   char **err)
{
	void *copy;
	int rc;

	*out = NULL;
	*err = NULL;
	if (size > CO_MAX_BYTES)
		return fail(err, -EFBIG, "%s: larger than 2 GiB", name);
	/* libelf may write into the image it parses (elf_memory): never the caller's. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return fail(err, -ENOMEM, "%s: out of memory", name);
	memcpy(copy, bytes, size);
	rc = load_bytes(copy, size, name, out, err);
	free(copy);
	return rc;
}

void co_free(struct code_object *co)
{
	if (!co)
		return;
	for (size_t i = 0; i < co->nkernels; i++) {
		struct co_kernel *k = &co->kernels[i];
		for (size_t a = 0; a < k->nargs; a++) {
			free(k->args[a].name);
			free(k->args[a].value_kind);
		}
		free(k->args);
		free(k->name);
		free(k->symbol);
	}
	for (size_t i = 0; i < co->nfuncs; i++)
		free(co->funcs[i].name);
	free(co->funcs);
	free(co->kernels);
	free(co->text);
	free(co->image);
	free(co->mcpu);
	free(co->path);
	free(co);
}

const struct co_kernel *co_find_kernel(const struct code_object *co, const char *name)
{
	for (size_t i = 0; i < co->nkernels; i++)
		if (!strcmp(co->kernels[i].name, name) || !strcmp(co->kernels[i].symbol, name))
			return &co->kernels[i];
	return NULL;
}
