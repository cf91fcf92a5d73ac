/* The edit plan: patches, the shared pool allocator, symbols, merged kernel changes. */
#include "plan.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum hs_status hs_plan_init(struct hs_plan *p, const struct hs_object *o,
                            enum hs_plan_policy policy)
{
	memset(p, 0, sizeof(*p));
	p->o = o;
	p->policy = policy;
	p->state = HS_STATE_NEUTRAL;
	p->kc = calloc(o->ks.n ? o->ks.n : 1, sizeof(*p->kc));
	if (!p->kc)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t k = 0; k < o->ks.n; k++)
		p->kc[k].inst_pref_max = UINT32_MAX;
	return HS_OK;
}

void hs_plan_free(struct hs_plan *p)
{
	for (size_t i = 0; i < p->n_patch; i++)
		free(p->patch[i].bytes);
	for (size_t i = 0; i < p->n_sym; i++)
		free(p->sym[i].name);
	free(p->patch);
	free(p->sym);
	free(p->pool.bytes);
	free(p->kc);
	free(p->meta);
	free(p->xlat_note);
	memset(p, 0, sizeof(*p));
}

/* Grows *v (elements of size sz) to hold one more; false on overflow or no memory. */
static bool grow(void **v, size_t n, size_t *cap, size_t sz)
{
	size_t nc;
	void *nv;

	if (n < *cap)
		return true;
	nc = *cap ? *cap * 2 : 8;
	if (nc < *cap || nc > SIZE_MAX / sz)
		return false;
	nv = realloc(*v, nc * sz);
	if (!nv)
		return false;
	*v = nv;
	*cap = nc;
	return true;
}

enum hs_status hs_plan_patch(struct hs_plan *p, uint64_t off, const void *bytes, size_t len)
{
	struct hs_patch *pt;
	size_t at = p->n_patch;

	if (!len)
		return HS_OK;
	if (!hs_in_bounds(off, len, p->o->e.size))
		return hs_fail(HS_ERROR,
		               "edit of %zu bytes at file offset 0x%llx is outside the file", len,
		               (unsigned long long)off);
	/* Kept sorted by offset, so the overlap check looks at two neighbours only. */
	while (at > 0 && p->patch[at - 1].off > off)
		at--;
	if ((at > 0 && p->patch[at - 1].off + p->patch[at - 1].len > off) ||
	    (at < p->n_patch && off + len > p->patch[at].off))
		return hs_fail(HS_ERROR, "two edits overlap at file offset 0x%llx",
		               (unsigned long long)off);
	if (!grow((void **)&p->patch, p->n_patch, &p->cap_patch, sizeof(*p->patch)))
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	memmove(&p->patch[at + 1], &p->patch[at], (p->n_patch - at) * sizeof(*p->patch));
	pt = &p->patch[at];
	pt->off = off;
	pt->len = len;
	pt->bytes = malloc(len);
	if (!pt->bytes) {
		memmove(&p->patch[at], &p->patch[at + 1], (p->n_patch - at) * sizeof(*p->patch));
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	}
	memcpy(pt->bytes, bytes, len);
	p->n_patch++;
	return HS_OK;
}

enum hs_status hs_pool_place(const struct cob_elf *e, uint64_t *vaddr, uint64_t *off)
{
	if (!hs_align_up(e->max_alloc_end, HS_POOL_ALIGN, vaddr) ||
	    !hs_align_up(e->size, HS_POOL_ALIGN, off))
		return hs_fail(HS_ERROR,
		               "no room for a pool after the last allocated byte "
		               "(0x%llx)",
		               (unsigned long long)e->max_alloc_end);
	return HS_OK;
}

/* Places the pool on first use: after every allocated byte, with room for its sections. */
static enum hs_status pool_open(struct hs_plan *p)
{
	const struct cob_elf *e = &p->o->e;
	enum hs_status st;

	if (p->pool.open)
		return HS_OK;
	st = hs_pool_place(e, &p->pool.vaddr, &p->pool.off);
	if (st)
		return st;
	/* Two new sections (pool and provenance) must stay below the reserved indices. */
	if (e->shnum + 2 >= SHN_LORESERVE)
		return hs_fail(HS_ERROR, "the section header table is full (%zu entries)",
		               e->shnum);
	p->pool.open = true;
	return HS_OK;
}

enum hs_status hs_plan_reserve(struct hs_plan *p, uint64_t size, uint64_t align, uint64_t *vaddr,
                               uint8_t **bytes)
{
	struct hs_pool *pool = &p->pool;
	uint64_t at, end;
	enum hs_status st;

	if (!align || (align & (align - 1)) || align > HS_POOL_ALIGN)
		return hs_fail(HS_ERROR, "pool alignment %llu is not a power of two up to %u",
		               (unsigned long long)align, HS_POOL_ALIGN);
	st = pool_open(p);
	if (st)
		return st;
	/* The pool's vaddr is page aligned, so an aligned offset is an aligned vaddr. */
	if (!hs_align_up(pool->used, align, &at) || hs_add_ovf(at, size, &end) ||
	    hs_add_ovf(pool->vaddr, end, &(uint64_t){0}) || end > SIZE_MAX / 2)
		return hs_fail(HS_OUT_OF_RESOURCES, "the pool cannot grow by %llu bytes",
		               (unsigned long long)size);
	if (end > pool->cap) {
		uint64_t nc = pool->cap ? pool->cap : 4096;
		uint8_t *nb;
		while (nc < end)
			nc *= 2;
		nb = realloc(pool->bytes, nc);
		if (!nb)
			return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		pool->bytes = nb;
		pool->cap = nc;
	}
	memset(pool->bytes + pool->used, 0, end - pool->used);
	pool->used = end;
	if (align > pool->align)
		pool->align = align;
	*vaddr = pool->vaddr + at;
	if (bytes)
		*bytes = pool->bytes + at;
	return HS_OK;
}

enum hs_status hs_plan_next_vaddr(const struct hs_plan *p, uint64_t align, uint64_t *vaddr)
{
	uint64_t base = 0, off = 0, at = 0;
	enum hs_status st;

	if (p->pool.open) {
		base = p->pool.vaddr;
	} else {
		st = hs_pool_place(&p->o->e, &base, &off);
		if (st)
			return st;
	}
	if (!align || !hs_align_up(p->pool.used, align, &at) || hs_add_ovf(base, at, vaddr))
		return hs_fail(HS_OUT_OF_RESOURCES, "the pool cannot grow");
	return HS_OK;
}

enum hs_status hs_plan_symbol(struct hs_plan *p, const char *name, uint64_t value, uint64_t size,
                              bool in_pool, uint16_t shndx)
{
	struct hs_plan_symbol *s;

	if (!grow((void **)&p->sym, p->n_sym, &p->cap_sym, sizeof(*p->sym)))
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	s = &p->sym[p->n_sym];
	*s = (struct hs_plan_symbol){
	    .name = strdup(name), .value = value, .size = size, .in_pool = in_pool, .shndx = shndx};
	if (!s->name)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	p->n_sym++;
	return HS_OK;
}

enum hs_status hs_plan_kernel_entry(struct hs_plan *p, size_t k, uint64_t entry)
{
	struct hs_kernel_change *c = &p->kc[k];

	if (c->new_entry && c->entry != entry)
		return hs_fail(HS_ERROR, "kernel '%s': two passes move its entry (0x%llx, 0x%llx)",
		               p->o->ks.k[k].name, (unsigned long long)c->entry,
		               (unsigned long long)entry);
	c->new_entry = true;
	c->entry = entry;
	return HS_OK;
}

void hs_plan_kernel_sgprs(struct hs_plan *p, size_t k, uint64_t need)
{
	if (need > p->kc[k].sgpr_need)
		p->kc[k].sgpr_need = need;
}

void hs_plan_kernel_vgprs(struct hs_plan *p, size_t k, uint64_t need)
{
	if (need > p->kc[k].vgpr_need)
		p->kc[k].vgpr_need = need;
}

void hs_plan_kernel_vgpr_granules(struct hs_plan *p, size_t k, uint32_t field)
{
	struct hs_kernel_change *c = &p->kc[k];

	if (!c->vgpr_granules_set || field > c->vgpr_granules)
		c->vgpr_granules = field;
	c->vgpr_granules_set = true;
}

void hs_plan_kernel_inst_pref(struct hs_plan *p, size_t k, uint32_t max)
{
	if (max < p->kc[k].inst_pref_max)
		p->kc[k].inst_pref_max = max;
}

enum hs_status hs_plan_state(struct hs_plan *p, uint32_t state)
{
	if (p->state != HS_STATE_NEUTRAL && p->state != state)
		return hs_fail(HS_ERROR, "passes disagree on the target state (%s, %s)",
		               hs_state_name(p->state), hs_state_name(state));
	p->state = state;
	return HS_OK;
}

enum hs_status hs_plan_decline(struct hs_plan *p, enum hs_count declined_kind, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->policy == HS_PLAN_STRICT)
		return hs_fail_why(HS_ERROR, HS_REASON_CANNOT_APPLY,
		                   "%s; the edit is required, so the rewrite fails closed", msg);
	hs_log(HS_LOG_INFO, "declined: %s", msg);
	p->count[declined_kind]++;
	return HS_OK;
}

enum hs_status hs_plan_meta_str(struct hs_plan *p, int kernel, const char *key, const char *str)
{
	struct hs_meta_update *nm = realloc(p->meta, (p->n_meta + 1) * sizeof(*nm));

	if (!nm)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	p->meta = nm;
	p->meta[p->n_meta++] = (struct hs_meta_update){.kernel = kernel, .key = key, .str = str};
	return HS_OK;
}

enum hs_status hs_plan_meta_carry(struct hs_plan *p, int kernel, const char *key, const void *obj)
{
	struct hs_meta_update *nm = realloc(p->meta, (p->n_meta + 1) * sizeof(*nm));

	if (!nm)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	p->meta = nm;
	p->meta[p->n_meta++] =
	    (struct hs_meta_update){.kernel = kernel, .key = key, .carry = true, .obj = obj};
	return HS_OK;
}

void hs_plan_note(struct hs_plan *p, enum hs_reason reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->note, sizeof(p->note), fmt, ap);
	va_end(ap);
	p->note_reason = reason;
	hs_log(HS_LOG_INFO, "%s", p->note);
}

/* Adds a metadata update when key of metadata kernel mk must rise to at least need. */
static enum hs_status raise_meta(struct hs_plan *p, const struct cob_kernel *k, const char *key,
                                 uint64_t need, bool *raised)
{
	uint64_t cur;
	struct hs_meta_update *nm;

	if (!need)
		return HS_OK;
	if (!p->o->meta || k->meta < 0 || !hs_meta_get_uint(p->o->meta, k->meta, key, &cur))
		return hs_fail(HS_ERROR, "kernel '%s': cannot update '%s'", k->name, key);
	if (cur >= need)
		return HS_OK;
	nm = realloc(p->meta, (p->n_meta + 1) * sizeof(*nm));
	if (!nm)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	p->meta = nm;
	p->meta[p->n_meta++] =
	    (struct hs_meta_update){.kernel = k->meta, .key = key, .value = need};
	*raised = true;
	return HS_OK;
}

/* The layout's RSRC1 VGPR granule field (NULL: the family has none). */
static const struct kd_field *vgpr_granule_field(const struct kd_layout *l)
{
	for (size_t i = 0; i < l->n[KD_RSRC1]; i++)
		if (!strcmp(l->field[KD_RSRC1][i].name, "granulated_workitem_vgpr_count"))
			return &l->field[KD_RSRC1][i];
	return NULL;
}

/* Raises kernel k's RSRC1 VGPR granules to c's need (a descriptor patch). */
static enum hs_status raise_rsrc1(struct hs_plan *p, const struct cob_kernel *k,
                                  const struct hs_kernel_change *c)
{
	const struct kd_field *f = vgpr_granule_field(p->o->layout);
	uint32_t rsrc1 = k->desc.rsrc1;
	uint8_t b[4];

	if (!c->vgpr_granules_set || (f && kd_field_get(rsrc1, f) >= c->vgpr_granules))
		return HS_OK;
	if (!f || c->vgpr_granules >> f->width)
		return hs_fail(HS_ERROR, "kernel '%s': RSRC1 cannot hold %u VGPR granules", k->name,
		               c->vgpr_granules + 1);
	hs_wr32(b, kd_field_set(rsrc1, f, c->vgpr_granules));
	return hs_plan_patch(p, k->kd_off + KD_AT(compute_pgm_rsrc1), b, sizeof(b));
}

enum hs_status hs_plan_finalize(struct hs_plan *p)
{
	const struct hs_object *o = p->o;
	const struct kd_field *pref = &o->layout->inst_pref_size;
	enum hs_status st;

	for (size_t i = 0; i < o->ks.n; i++) {
		const struct cob_kernel *k = &o->ks.k[i];
		const struct hs_kernel_change *c = &p->kc[i];
		bool raised = false;

		if (c->new_entry) {
			uint8_t off[8];
			/* Checked by the pass: a signed 64-bit distance from the descriptor. */
			hs_wr64(off, c->entry - k->kd_vaddr);
			st = hs_plan_patch(p, k->kd_off + KD_AT(kernel_code_entry_byte_offset), off,
			                   sizeof(off));
			if (st)
				return st;
		}
		if (c->inst_pref_max != UINT32_MAX && pref->width) {
			uint32_t rsrc3 = k->desc.rsrc3;
			uint32_t now = kd_field_get(rsrc3, pref), v;
			uint8_t b[4];
			if (now > c->inst_pref_max) {
				v = kd_field_set(rsrc3, pref, c->inst_pref_max);
				hs_wr32(b, v);
				st = hs_plan_patch(p, k->kd_off + KD_AT(compute_pgm_rsrc3), b,
				                   sizeof(b));
				if (st)
					return st;
			}
		}
		st = raise_rsrc1(p, k, c);
		if (st)
			return st;
		st = raise_meta(p, k, ".sgpr_count", c->sgpr_need, &raised);
		if (!st)
			st = raise_meta(p, k, ".vgpr_count", c->vgpr_need, &raised);
		if (st)
			return st;
		p->count[HS_COUNT_KERNELS_RAISED] += raised;
	}
	return HS_OK;
}

bool hs_plan_empty(const struct hs_plan *p)
{
	return !p->n_patch && !p->pool.used && !p->n_sym && !p->n_meta;
}
