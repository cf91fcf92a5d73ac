/*
 * Where each B0->A0 site the walk queued goes (docs/rewriter.md, "Placement"): in place, a NOP
 * sled of its function, the pool by s_branch, a far jump through a free SGPR pair (alone, shared
 * by a run of adjacent sites, or behind a gateway in a sled), else declined.
 */
#include "b0a0_walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The longest run of adjacent sites one far jump carries (their bodies share a trampoline). */
#define FAR_RUN_MAX 8u
/* .sgpr_count covers the pair's end plus two for VCC, as for the entry stub's pair. */
#define SGPRS_WITH_VCC 108u

/*
 * .text bytes [off, off + size) become jump (jlen bytes), the rest s_nop 0 (never
 * executed: the way back returns past it).
 */
static enum hs_status patch_span(struct walk *w, uint64_t off, uint64_t size, const uint8_t *jump,
                                 size_t jlen)
{
	uint8_t patch[FAR_RUN_MAX * 16];

	memcpy(patch, jump, jlen);
	for (size_t i = jlen; i < size; i += 4)
		hs_nop_encode(patch + i);
	return hs_plan_patch(w->p, w->s.text_off + off, patch, (size_t)size);
}

static enum hs_status patch_site(struct walk *w, const struct pending *pd, const uint8_t *jump,
                                 size_t jlen)
{
	return patch_span(w, pd->off, pd->size, jump, jlen);
}

/* Counts an applied site placed `where` (IN_SLED, IN_POOL, LONG_JUMP). */
static void applied(struct walk *w, const struct pending *pd, enum hs_count where)
{
	if (pd->vgpr_need)
		hs_plan_kernel_vgprs(w->p, pd->kernel, pd->vgpr_need);
	if (pd->granules >= 0)
		hs_plan_kernel_vgpr_granules(w->p, pd->kernel, (uint32_t)pd->granules);
	w->p->count[pd->applied]++;
	w->p->count[where]++;
	w->p->count[HS_COUNT_PATCHES_APPLIED]++;
}

/*
 * The nearest sled of the site's region with room for the body and s_branch back, both
 * branches in reach; true and *at (its .text offset) / *sled when one is found.
 */
static bool find_sled(struct walk *w, const struct pending *pd, size_t *sled, uint64_t *at)
{
	const struct hs_b0a0_scan *s = &w->s;
	uint64_t site = pd->off, best = UINT64_MAX;
	size_t lo = 0, hi = s->n_sleds;
	uint8_t b[4];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->sleds[mid].start < site)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Outwards from the site, both ways, while the sleds are in its region. */
	for (int dir = -1; dir <= 1; dir += 2)
		for (size_t i = dir < 0 ? lo - 1 : lo;
		     i < s->n_sleds && s->sleds[i].region == pd->region; i += (size_t)dir) {
			uint64_t pos = w->sled_pos[i], d = pos > site ? pos - site : site - pos;
			if (s->sleds[i].end - pos < pd->len + 4 || d >= best ||
			    !hs_sbranch_encode(site, pos, b) ||
			    !hs_sbranch_encode(pos + pd->len, site + pd->size, b))
				continue;
			best = d;
			*sled = i;
			*at = pos;
		}
	return best != UINT64_MAX;
}

/* Body + s_branch back in a sled; the site an s_branch there. */
static enum hs_status place_in_sled(struct walk *w, const struct pending *pd, size_t sled,
                                    uint64_t at)
{
	uint64_t tv = w->s.text_vaddr;
	uint8_t code[sizeof(pd->body) + 4], jump[4];
	enum hs_status st;

	memcpy(code, pd->body, pd->len);
	hs_sbranch_encode(tv + at + pd->len, tv + pd->off + pd->size, code + pd->len);
	hs_sbranch_encode(tv + pd->off, tv + at, jump);
	st = hs_plan_patch(w->p, w->s.text_off + at, code, pd->len + 4);
	if (!st)
		st = patch_site(w, pd, jump, 4);
	if (st)
		return st;
	w->sled_pos[sled] = at + pd->len + 4;
	applied(w, pd, HS_COUNT_B0A0_IN_SLED);
	return HS_OK;
}

/* A far jump's SGPR pair and who pays for it. */
struct far_pair {
	unsigned pair;
	bool whole;    /* free in the whole object: every kernel is charged */
	uint64_t need; /* .sgpr_count the charged kernels need */
};

/* The kernels [*lo, *hi) a far jump at pd charges: every kernel when whole, else its own. */
static void charged(const struct walk *w, const struct pending *pd, bool whole, size_t *lo,
                    size_t *hi)
{
	size_t n = w->c->o->ks.n;

	*lo = whole || pd->kernel >= n ? 0 : pd->kernel;
	*hi = whole || pd->kernel >= n ? n : pd->kernel + 1;
}

/* Kernel k's .sgpr_count; false (why) when its metadata has none. */
static bool sgpr_count_of(const struct walk *w, size_t k, uint64_t *count, char *why,
                          size_t why_size)
{
	const struct hs_object *o = w->c->o;
	const struct cob_kernel *kr = &o->ks.k[k];

	if (o->meta && kr->meta >= 0 && hs_meta_get_uint(o->meta, kr->meta, ".sgpr_count", count))
		return true;
	snprintf(why, why_size,
	         "kernel '%s' has no .sgpr_count in its metadata, so no SGPR pair is known to be "
	         "free for the far jump",
	         kr->name);
	return false;
}

/*
 * The pair for a far jump at pd: unused by every instruction of its function (of the object
 * when control may leave it, or the site lies in no kernel's own code), so dead at the site
 * and at the way back, and above the charged kernels' .sgpr_count.  gfx1250 allocates its
 * SGPRs whole (RSRC1's SGPR granules are reserved, must be 0), so the pair costs no waves.
 */
static bool far_pair(struct walk *w, const struct pending *pd, struct far_pair *f, char *why,
                     size_t why_size)
{
	uint64_t floor = 0, count;
	size_t lo, hi;

	f->whole = hs_b0a0_scan_far_whole(&w->s, pd->region, pd->kernel);
	charged(w, pd, f->whole, &lo, &hi);
	for (size_t k = lo; k < hi; k++) {
		if (!sgpr_count_of(w, k, &count, why, why_size))
			return false;
		if (count > floor)
			floor = count;
	}
	if (!hs_b0a0_scan_far_pair(&w->s, pd->region, f->whole, floor, &f->pair, why, why_size))
		return false;
	f->need = f->pair + 4u < SGPRS_WITH_VCC ? f->pair + 4u : SGPRS_WITH_VCC;
	return true;
}

/* Raises the charged kernels' .sgpr_count for f and records the pair in the report. */
static void far_charge(struct walk *w, const struct pending *pd, const struct far_pair *f)
{
	const struct cob_kernels *ks = &w->c->o->ks;
	uint32_t *c = w->p->count;
	size_t lo, hi;

	charged(w, pd, f->whole, &lo, &hi);
	for (size_t k = lo; k < hi; k++) {
		hs_plan_kernel_sgprs(w->p, k, f->need);
		if (w->far_charged[k])
			continue;
		w->far_charged[k] = true;
		if (!c[HS_COUNT_B0A0_FAR_PAIR_KERNELS]++ || f->pair < c[HS_COUNT_B0A0_FAR_PAIR_LOW])
			c[HS_COUNT_B0A0_FAR_PAIR_LOW] = f->pair;
		if (f->pair > c[HS_COUNT_B0A0_FAR_PAIR_HIGH])
			c[HS_COUNT_B0A0_FAR_PAIR_HIGH] = f->pair;
		hs_log(HS_LOG_INFO,
		       "B0->A0: kernel '%s': far jumps through s[%u:%u], .sgpr_count at least %llu",
		       ks->k[k].name, f->pair, f->pair + 1, (unsigned long long)f->need);
	}
}

/*
 * The way back from a trampoline at pc to back: s_branch when it reaches, else the far jump
 * through f (NULL: no pair, so no way back).  Returns its size, 0 when there is none.
 */
static size_t way_back(uint64_t pc, uint64_t back, const struct far_pair *f,
                       uint8_t out[HS_FAR_JUMP_MAX])
{
	if (hs_sbranch_encode(pc, back, out))
		return 4;
	return f ? hs_far_jump_encode(pc, back, f->pair, HS_FAR_JUMP_MAX, out) : 0;
}

/*
 * Reserves a trampoline holding the bodies of pend[i, i + n) and the way back to back;
 * *tramp gets its address.
 */
static enum hs_status reserve_trampoline(struct walk *w, size_t i, size_t n, uint64_t back,
                                         const struct far_pair *f, uint64_t *tramp)
{
	uint8_t ret[HS_FAR_JUMP_MAX], *t;
	size_t len = 0, rlen;
	enum hs_status st;

	for (size_t k = i; k < i + n; k++)
		len += w->pend[k].len;
	rlen = way_back(*tramp + len, back, f, ret);
	if (!rlen) /* the caller checked that the site reaches with s_branch, or passed f */
		return hs_fail(HS_ERROR, "B0->A0: no way back from the pool");
	st = hs_plan_reserve(w->p, len + rlen, 4, tramp, &t);
	if (st)
		return st;
	for (size_t k = i; k < i + n; k++) {
		memcpy(t, w->pend[k].body, w->pend[k].len);
		t += w->pend[k].len;
	}
	memcpy(t, ret, rlen);
	return HS_OK;
}

/*
 * A trampoline in the pool reached with s_branch: body, then the way back (s_branch, or
 * the far jump when only the site reaches the pool).
 */
static enum hs_status place_in_pool(struct walk *w, const struct pending *pd, uint64_t tramp)
{
	uint64_t site = w->s.text_vaddr + pd->off, back = site + pd->size;
	struct far_pair f;
	uint8_t jump[4], ret[HS_FAR_JUMP_MAX];
	char why[300];
	bool far_back = !way_back(tramp + pd->len, back, NULL, ret);
	enum hs_status st;

	if (far_back && !far_pair(w, pd, &f, why, sizeof(why)))
		return b0a0_decline(w, pd->declined, pd->off, pd->kernel, pd->mnem, why);
	hs_sbranch_encode(site, tramp, jump);
	st = reserve_trampoline(w, (size_t)(pd - w->pend), 1, back, far_back ? &f : NULL, &tramp);
	if (!st)
		st = patch_site(w, pd, jump, 4);
	if (st)
		return st;
	if (far_back)
		far_charge(w, pd, &f);
	applied(w, pd, HS_COUNT_B0A0_IN_POOL);
	return HS_OK;
}

/*
 * How many of the sites from pend[i] on a far jump in place can carry: growing sites of one
 * region, each starting where the one before ends, no branch landing inside the run.
 * *span gets their bytes.
 */
static size_t far_run(const struct walk *w, size_t i, uint64_t *span)
{
	const struct pending *first = &w->pend[i];
	size_t n = 1;

	*span = first->size;
	while (n < FAR_RUN_MAX && i + n < w->n_pend) {
		const struct pending *pd = &w->pend[i + n];
		if (pd->in_place || pd->region != first->region || pd->off != first->off + *span ||
		    hs_b0a0_scan_is_target(&w->s, pd->off))
			break;
		*span += pd->size;
		n++;
	}
	return n;
}

/*
 * The far jump: the run of sites from pend[i] becomes s_get_pc_i64 / s_add_nc_u64 /
 * s_set_pc_i64 through f's pair into one trampoline of their bodies, which comes back past
 * the run.  False (nothing done) when the run is shorter than the jump; *used: sites taken.
 */
static enum hs_status place_far(struct walk *w, size_t i, uint64_t tramp, const struct far_pair *f,
                                size_t *used, bool *placed)
{
	const struct pending *pd = &w->pend[i];
	uint64_t site = w->s.text_vaddr + pd->off, span;
	size_t n = far_run(w, i, &span), jlen = hs_far_jump_size(site, tramp);
	uint8_t jump[HS_FAR_JUMP_MAX];
	enum hs_status st;

	*placed = false;
	/* Only as many sites as the jump covers: the rest may still find a sled. */
	for (uint64_t cover = 0, k = 0; k < n; k++) {
		cover += w->pend[i + k].size;
		if (cover >= jlen) {
			n = (size_t)k + 1;
			span = cover;
			break;
		}
	}
	if (span < jlen)
		return HS_OK;
	st = reserve_trampoline(w, i, n, site + span, f, &tramp);
	if (st)
		return st;
	hs_far_jump_encode(site, tramp, f->pair, jlen, jump);
	st = patch_span(w, pd->off, span, jump, jlen);
	if (st)
		return st;
	far_charge(w, pd, f);
	for (size_t k = i; k < i + n; k++)
		applied(w, &w->pend[k], HS_COUNT_B0A0_LONG_JUMP);
	w->p->count[HS_COUNT_B0A0_FAR_JUMPS]++;
	*used = n;
	*placed = true;
	return HS_OK;
}

/*
 * The nearest sled of the site's region with room for a gateway of gsize bytes, reached
 * with s_branch from the site's second word; true and *sled / *at when one is found.
 */
static bool find_gateway(struct walk *w, const struct pending *pd, size_t gsize, size_t *sled,
                         uint64_t *at)
{
	const struct hs_b0a0_scan *s = &w->s;
	uint64_t from = pd->off + 4, best = UINT64_MAX;
	uint8_t b[4];

	for (size_t i = 0; i < s->n_sleds; i++) {
		uint64_t pos = w->sled_pos[i], d = pos > from ? pos - from : from - pos;
		if (s->sleds[i].region != pd->region || s->sleds[i].end - pos < gsize ||
		    d >= best || !hs_sbranch_encode(from, pos, b))
			continue;
		best = d;
		*sled = i;
		*at = pos;
	}
	return best != UINT64_MAX;
}

/*
 * A far jump through a gateway, for a site too short to hold one: the site becomes
 * s_get_pc_i64 and s_branch to the gateway (s_add_nc_u64, s_set_pc_i64) in a NOP sled,
 * which goes on to the trampoline; false in *placed when no sled has room.
 */
static enum hs_status place_gateway(struct walk *w, const struct pending *pd, uint64_t tramp,
                                    const struct far_pair *f, bool *placed)
{
	uint64_t tv = w->s.text_vaddr, site = tv + pd->off, at;
	size_t gsize = hs_far_gate_size(site, tramp), sled;
	uint8_t jump[8], gate[HS_FAR_GATE_MAX];
	enum hs_status st;

	*placed = false;
	if (pd->size < 8 || !find_gateway(w, pd, gsize, &sled, &at))
		return HS_OK;
	st = reserve_trampoline(w, (size_t)(pd - w->pend), 1, site + pd->size, f, &tramp);
	if (st)
		return st;
	hs_far_gate_encode(site, tramp, f->pair, gsize, gate);
	hs_get_pc_encode(f->pair, jump);
	hs_sbranch_encode(site + 4, tv + at, jump + 4);
	st = hs_plan_patch(w->p, w->s.text_off + at, gate, gsize);
	if (!st)
		st = patch_site(w, pd, jump, 8);
	if (st)
		return st;
	w->sled_pos[sled] = at + gsize;
	far_charge(w, pd, f);
	applied(w, pd, HS_COUNT_B0A0_LONG_JUMP);
	w->p->count[HS_COUNT_B0A0_FAR_JUMPS]++;
	*placed = true;
	return HS_OK;
}

static enum hs_status place_in_place(struct walk *w, const struct pending *pd)
{
	enum hs_status st = hs_plan_patch(w->p, w->s.text_off + pd->off, pd->body, pd->len);

	if (!st) {
		w->p->count[pd->applied]++;
		w->p->count[HS_COUNT_PATCHES_APPLIED]++;
	}
	return st;
}

/*
 * Places pend[i] (and, for a far jump, the sites after it that share it; *used says how
 * many): in place; when the pool is beyond s_branch reach, the far jump in the site first
 * (it needs no sled, and a sled taken by the first site could leave the next without a
 * way); a NOP sled of its function; the pool by s_branch; when the pool is far, a gateway
 * in a sled; else declined.
 */
static enum hs_status place(struct walk *w, size_t i, size_t *used)
{
	const struct pending *pd = &w->pend[i];
	uint64_t tramp, at, site = w->s.text_vaddr + pd->off;
	size_t sled;
	struct far_pair f;
	uint8_t b[4];
	char why[300];
	bool far, placed = false, paired = false;
	enum hs_status st;

	*used = 1;
	if (pd->in_place)
		return place_in_place(w, pd);
	/* Reach is decided before reserving, so a declined site costs the pool nothing. */
	st = hs_plan_next_vaddr(w->p, 4, &tramp);
	if (st)
		return st;
	far = !hs_sbranch_encode(site, tramp, b);
	if (far && (paired = far_pair(w, pd, &f, why, sizeof(why))) &&
	    ((st = place_far(w, i, tramp, &f, used, &placed)) || placed))
		return st;
	if (find_sled(w, pd, &sled, &at))
		return place_in_sled(w, pd, sled, at);
	if (!far)
		return place_in_pool(w, pd, tramp);
	if (paired && ((st = place_gateway(w, pd, tramp, &f, &placed)) || placed))
		return st;
	if (paired)
		snprintf(
		    why, sizeof(why),
		    "the pool is beyond s_branch reach, the far jump (%zu bytes: s_get_pc_i64, "
		    "s_add_nc_u64, s_set_pc_i64) is longer than the site and the growing sites "
		    "right after it, and no NOP sled in its function has room for the site's "
		    "body or for a %zu-byte gateway to the far jump",
		    hs_far_jump_size(site, tramp), hs_far_gate_size(site, tramp));
	return b0a0_decline(w, pd->declined, pd->off, pd->kernel, pd->mnem, why);
}

/* Places every queued site, in .text order (deterministic). */
enum hs_status b0a0_place_all(struct walk *w)
{
	enum hs_status st = HS_OK;
	size_t used;

	w->sled_pos = calloc(w->s.n_sleds ? w->s.n_sleds : 1, sizeof(*w->sled_pos));
	w->far_charged = calloc(w->c->o->ks.n ? w->c->o->ks.n : 1, sizeof(*w->far_charged));
	if (!w->sled_pos || !w->far_charged)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 0; i < w->s.n_sleds; i++)
		w->sled_pos[i] = w->s.sleds[i].start;
	for (size_t i = 0; i < w->n_pend && !st; i += used)
		st = place(w, i, &used);
	return st;
}
