/* Reading a code object (mirage/code_object.h): .text, function symbols, <kernel>.kd, metadata,
 * through codeobj's ELF model, kernels and metadata, as the rewriter reads them. */
#include "mirage/code_object.h"

#include "elf_header.h"
#include "elf_isa.h"
#include "elf_view.h"
#include "gfx_table.h"
#include "kernels.h"
#include "meta_merge.h"
#include "meta_read.h"
#include "read_whole.h"
#include "str_fmt.h"

#include <errno.h>
#include <fcntl.h>
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
	char *s;

	if (!o || o->type != MSGPACK_OBJECT_STR)
		return NULL;
	/* Not strndup: a string may end the metadata record, with no byte after it to read. */
	if (!(s = malloc((size_t)o->via.str.size + 1)))
		return NULL;
	memcpy(s, o->via.str.ptr, o->via.str.size);
	s[o->via.str.size] = '\0';
	return s;
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

static int cmp_func(const void *a, const void *b)
{
	const struct co_func *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Every STT_FUNC symbol of symbol table tab inside .text, by address. */
static int read_funcs(struct code_object *co, const struct cob_elf *e, size_t tab)
{
	size_t n = cob_elf_sym_count(e, tab);

	co->funcs = calloc(n + 1, sizeof(*co->funcs));
	if (!co->funcs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct co_func *f;
		const char *name;
		GElf_Sym s;
		cob_elf_sym(e, tab, i, &s);
		name = cob_elf_sym_name(e, tab, &s);
		if (!name || GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_value < co->text_addr ||
		    s.st_value - co->text_addr >= co->text_size)
			continue;
		f = &co->funcs[co->nfuncs++];
		if (!(f->name = strdup(name)))
			return -ENOMEM;
		f->addr = s.st_value;
		f->size = s.st_size;
		if (s.st_value - co->text_addr + s.st_size > co->text_size)
			f->size = co->text_size - (s.st_value - co->text_addr);
	}
	qsort(co->funcs, co->nfuncs, sizeof(*co->funcs), cmp_func);
	return 0;
}

/*
 * Each metadata kernel's descriptor, found by address and joined by .symbol (kernels.h), as
 * the rewriter joins them, and its code: the function symbol of its .name in .text.
 */
static int attach_kernels(struct code_object *co, const struct cob_elf *e,
                          const struct cob_meta *meta, char **err)
{
	struct cob_kernels ks;
	const struct kd_layout *layout = kd_layout_of(gfx_by_mach((uint8_t)co->mach));
	char why[512];
	int rc = cob_kernels_find(e, &ks, why, sizeof(why));

	if (rc)
		return fail(err, rc, "%s: %s", co->path, why);
	if (cob_kernels_join(&ks, meta)) {
		cob_kernels_free(&ks);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ks.n; i++) {
		struct co_kernel *kk;
		if (ks.k[i].meta < 0)
			continue;
		kk = &co->kernels[ks.k[i].meta];
		memcpy(kk->kd, ks.k[i].kd, sizeof(kk->kd));
		kk->desc = ks.k[i].desc;
		kk->layout = layout;
	}
	cob_kernels_free(&ks);
	for (size_t k = 0; k < co->nkernels; k++) {
		struct co_kernel *kk = &co->kernels[k];
		if (!kk->layout)
			return fail(err, -EINVAL, "%s: %s: no kernel descriptor has that symbol",
			            co->path, kk->symbol);
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

static int add_pool(struct code_object *co, const struct cob_elf *e)
{
	size_t sec = cob_elf_section(e, ".hotswap.text");
	const GElf_Shdr *sh = &e->sec[sec].sh;
	uint64_t start, end;
	uint8_t *t;

	if (!sec || sh->sh_type != SHT_PROGBITS || !(sh->sh_flags & SHF_EXECINSTR))
		return 0;
	if (sh->sh_addr < co->text_addr + co->text_size || (sh->sh_addr & 3) || !sh->sh_size ||
	    sh->sh_addr - co->text_addr > POOL_SPAN_MAX ||
	    sh->sh_size > POOL_SPAN_MAX - (sh->sh_addr - co->text_addr))
		return 0;
	start = sh->sh_addr - co->text_addr;
	end = start + sh->sh_size;
	t = realloc(co->text, end);
	if (!t)
		return -ENOMEM;
	memset(t + co->text_size, 0, start - co->text_size);
	memcpy(t + start, e->buf + sh->sh_offset, sh->sh_size);
	co->text = t;
	co->text_size = end;
	co->pool_start = start;
	co->pool_end = end;
	return 0;
}

/* A loaded image this large is no code object's (a planted PT_LOAD with a huge memsz). */
#define IMAGE_SPAN_MAX (UINT64_C(1) << 30)

/*
 * The span of the PT_LOAD segments, [*lo, *hi) (empty when there are none), checked before
 * the object is opened so that a segment past the file or spanning more than 1 GiB is refused
 * naming its program header: never read, never allocated.  A header table outside the file is
 * left to cob_elf_open, which refuses it.
 */
static int image_span(const struct code_object *co, const uint8_t *b, size_t size,
                      const Elf64_Ehdr *eh, uint64_t *lo, uint64_t *hi, char **err)
{
	*lo = UINT64_MAX;
	*hi = 0;
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || eh->e_phoff > size ||
	    (size - eh->e_phoff) / sizeof(Elf64_Phdr) < eh->e_phnum)
		return 0;
	for (size_t i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, b + eh->e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_filesz > ph.p_memsz || ph.p_memsz > IMAGE_SPAN_MAX ||
		    ph.p_vaddr > IMAGE_SPAN_MAX || ph.p_offset > size ||
		    ph.p_filesz > size - ph.p_offset)
			return fail(
			    err, -EINVAL,
			    "%s: program header %zu (PT_LOAD at 0x%llx) lies outside the file "
			    "or spans more than 1 GiB",
			    co->path, i, (unsigned long long)ph.p_vaddr);
		if (ph.p_vaddr < *lo)
			*lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > *hi)
			*hi = ph.p_vaddr + ph.p_memsz;
	}
	if (*hi > *lo && *hi - *lo > IMAGE_SPAN_MAX)
		return fail(err, -EINVAL, "%s: the PT_LOAD segments span more than 1 GiB",
		            co->path);
	return 0;
}

/* co->image: every PT_LOAD segment at its address in [lo, hi) (image_span). */
static int read_image(struct code_object *co, const struct cob_elf *e, uint64_t lo, uint64_t hi,
                      char **err)
{
	if (hi <= lo)
		return 0; /* no program headers: nothing is loaded */
	if (!(co->image = calloc(1, hi - lo)))
		return fail(err, -ENOMEM, "%s: out of memory for its %llu-byte image", co->path,
		            (unsigned long long)(hi - lo));
	co->image_addr = lo;
	co->image_size = hi - lo;
	for (size_t i = 0; i < e->phnum; i++)
		if (e->ph[i].p_type == PT_LOAD)
			memcpy(co->image + (e->ph[i].p_vaddr - lo), e->buf + e->ph[i].p_offset,
			       e->ph[i].p_filesz);
	return 0;
}

/* The metadata, read merged as the rewriter reads it (meta_read.h), and its kernels. */
static int read_metadata(struct code_object *co, const struct cob_elf *e, struct cob_meta *meta,
                         char **err)
{
	char why[512];
	int rc = cob_elf_meta_read(e, meta, NULL, NULL, NULL, why, sizeof(why));

	if (rc)
		return fail(err, rc, "%s: %s", co->path, why);
	if (!meta->n_rec)
		return fail(err, -EINVAL, "%s: no AMDGPU metadata note", co->path);
	if (!meta->rec[0].kernels)
		return fail(err, -EINVAL, "%s: the metadata has no amdhsa.kernels list", co->path);
	return read_kernels(co, meta, err);
}

/* The object opened by codeobj's ELF model (elf_view.h), as the rewriter opens it, then read. */
static int parse(struct code_object *co, const struct cob_elf *e, uint64_t lo, uint64_t hi,
                 char **err)
{
	const GElf_Shdr *text = &e->sec[e->text].sh;
	struct cob_meta meta = COB_META_INIT;
	size_t symtab = e->symtab ? e->symtab : e->dynsym;
	struct cob_isa isa;
	int rc;

	co->mach = e->eh.e_flags & 0xff;
	if (cob_isa_from_elf((uint32_t)e->eh.e_flags, e->eh.e_ident[EI_ABIVERSION], &isa) == 0 &&
	    !(co->mcpu = strdup(isa.gfx->name)))
		return -ENOMEM;
	rc = read_metadata(co, e, &meta, err);
	if (!rc && !symtab)
		rc = fail(err, -EINVAL, "%s: no symbol table", co->path);
	if (!rc && !(co->text = malloc(text->sh_size ? text->sh_size : 1)))
		rc = -ENOMEM;
	if (!rc) {
		memcpy(co->text, e->buf + text->sh_offset, text->sh_size);
		co->text_addr = text->sh_addr;
		co->text_size = text->sh_size;
		rc = read_funcs(co, e, symtab);
	}
	if (!rc)
		rc = attach_kernels(co, e, &meta, err);
	cob_meta_free(&meta);
	if (!rc)
		rc = add_pool(co, e);
	return rc ? rc : read_image(co, e, lo, hi, err);
}

/* Reads the size bytes at bytes (not kept) as the object called name. */
static int load_bytes(const void *bytes, size_t size, const char *name, struct code_object **out,
                      char **err)
{
	struct code_object *co = calloc(1, sizeof(*co));
	struct cob_elf e;
	char why[512];
	uint64_t lo = UINT64_MAX, hi = 0;
	Elf64_Ehdr eh;
	int rc;

	if (!co || !(co->path = strdup(name))) {
		free(co);
		return fail(err, -ENOMEM, "%s: out of memory", name);
	}
	if (!cob_elf_is_amdgpu(bytes, size) || !elf64_header_read(bytes, size, &eh))
		rc = fail(err, -EINVAL, "%s: not an AMDGPU ELF code object", name);
	else
		rc = image_span(co, bytes, size, &eh, &lo, &hi, err);
	if (!rc && (rc = cob_elf_open(&e, bytes, size, why, sizeof(why))))
		fail(err, rc, "%s: %s", name, why);
	else if (!rc) {
		rc = parse(co, &e, lo, hi, err);
		cob_elf_close(&e);
	}
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
	*out = NULL;
	*err = NULL;
	if (size > CO_MAX_BYTES)
		return fail(err, -EFBIG, "%s: larger than 2 GiB", name);
	/* cob_elf_open reads a copy of its own (libelf may write into the image it opens). */
	return load_bytes(bytes, size, name, out, err);
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
