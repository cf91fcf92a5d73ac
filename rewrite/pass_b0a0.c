/*
 * The gfx1250 B0->A0 instruction pass: decodes .text with the table-driven gfx1250 decoder
 * (isa/), rewrites the same-size sites in place and moves each growing site into
 * a trampoline in the shared pool (the site becomes s_branch there, or a far jump through a
 * free SGPR pair; the trampoline ends with the way back to the instruction after the site).
 * Placement is b0a0_place.c's.  See docs/rewriter.md.
 */
#include "pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "b0a0_scan.h"
#include "b0a0_walk.h"
#include "le_bytes.h"

#define REVISION_KEY ".gfx1250_revision"

/*
 * VGPRs per granule of RSRC1's granulated_workitem_vgpr_count (granules - 1): gfx1250 wave32
 * allocates 16 at a time (llvm-mc-22: next_free_vgpr 16 -> 0, 17 -> 1), wave64 8.
 */
#define VGPR_GRANULE_W32 16u
#define VGPR_GRANULE_W64 8u

bool hs_pass_b0a0_applies(const struct hs_pass_ctx *c, char *why, size_t why_size)
{
	if (hs_isa_is_gfx1250(&c->src) && c->src.stepping == HS_STEP_B0 &&
	    c->dst.stepping == HS_STEP_A0)
		return true;
	snprintf(why, why_size, "the B0->A0 pass applies to gfx1250 B0 code for an A0 target only");
	return false;
}

/* The kernel tags: all A0 (certified), or which B0/untagged, or a malformed one. */
enum revision {
	REV_B0 = 0,
	REV_A0,
	REV_NOT_STR,
	REV_UNKNOWN,
};

/* Kernel k's tag; *s / *len: the string of a REV_UNKNOWN one. */
static enum revision kernel_revision(const struct hs_object *o, const struct cob_kernel *k,
                                     const char **s, size_t *len)
{
	if (!o->meta || k->meta < 0)
		return REV_B0;
	switch (hs_meta_get_str(o->meta, k->meta, REVISION_KEY, s, len)) {
	case HS_META_STR_MISSING:
		return REV_B0; /* upstream LLVM stamps nothing, and its gfx1250 code is B0's */
	case HS_META_STR_NOT_STR:
		return REV_NOT_STR;
	default:
		break;
	}
	if (*len == 2 && !memcmp(*s, "A0", 2))
		return REV_A0;
	if (*len == 2 && !memcmp(*s, "B0", 2))
		return REV_B0;
	return REV_UNKNOWN;
}

/*
 * Counts the A0 tags; a malformed tag refuses the call (HS_INVALID_ARGUMENT) naming the
 * first such kernel and the field: the stepping is never guessed.
 */
static enum hs_status read_tags(const struct hs_object *o, size_t *a0)
{
	*a0 = 0;
	for (size_t i = 0; i < o->ks.n; i++) {
		const char *s = NULL;
		size_t len = 0;
		switch (kernel_revision(o, &o->ks.k[i], &s, &len)) {
		case REV_A0:
			++*a0;
			break;
		case REV_NOT_STR:
			return hs_fail(HS_INVALID_ARGUMENT,
			               "kernel '%s': metadata field '" REVISION_KEY
			               "' is not a string "
			               "(\"A0\" or \"B0\"); refusing to guess the stepping",
			               o->ks.k[i].name);
		case REV_UNKNOWN:
			return hs_fail(HS_INVALID_ARGUMENT,
			               "kernel '%s': metadata field '" REVISION_KEY
			               "' is \"%.*s\", "
			               "neither \"A0\" nor \"B0\"; refusing to guess the stepping",
			               o->ks.k[i].name, len > 16 ? 16 : (int)len, s);
		default:
			break;
		}
	}
	return HS_OK;
}

const char *b0a0_kname(const struct walk *w, size_t k)
{
	return k == SIZE_MAX ? "(no kernel)" : w->c->o->ks.k[k].name;
}

/* A required site that cannot be placed: counted and declined, or HS_ERROR under STRICT. */
enum hs_status b0a0_decline(struct walk *w, enum hs_count kind, uint64_t off, size_t k,
                            const char *mnem, const char *why)
{
	enum hs_status st;

	w->p->count[HS_COUNT_PATCHES_DECLINED]++;
	st = hs_plan_decline(w->p, kind, "kernel '%s': %s at .text+0x%llx (vaddr 0x%llx): %s",
	                     b0a0_kname(w, k), mnem, (unsigned long long)off,
	                     (unsigned long long)(w->s.text_vaddr + off), why);
	/* Best effort: the report's note names the first declined site (the log names each). */
	if (!st && w->p->note_reason != HS_REASON_SITES_DECLINED)
		hs_plan_note(w->p, HS_REASON_SITES_DECLINED,
		             "required B0->A0 site(s) declined (HS_REWRITE_BEST_EFFORT), so the "
		             "output is still wrong on A0 there; first: kernel '%s': %s at "
		             ".text+0x%llx: %s",
		             b0a0_kname(w, k), mnem, (unsigned long long)off, why);
	return st;
}

/*
 * gfx1250 wave32 occupancy, as LLVM 22 computes it (llc-22 -mcpu=gfx1250 reports
 * "Occupancy: 16/10/8/7/4" for 64/96/128/129/256 VGPRs): VGPRs are allocated in granules
 * of 16 from 1024 per SIMD, at most 16 waves per SIMD; a workgroup's waves share the 4
 * SIMDs of a CU (gfx12.5 has CU mode only).  A kernel without .max_flat_workgroup_size
 * launches up to 1024 work-items (the HSA default).
 */
#define GFX1250_VGPRS_PER_SIMD 1024u
#define GFX1250_MAX_WAVES      16u
#define GFX1250_SIMDS_PER_CU   4u
#define DEFAULT_FLAT_WG        1024u

static uint64_t waves_per_simd(uint64_t vgpr_alloc)
{
	uint64_t w = GFX1250_VGPRS_PER_SIMD / vgpr_alloc;
	return w < GFX1250_MAX_WAVES ? w : GFX1250_MAX_WAVES;
}

/*
 * A scratch VGPR for an ADDTID store of kernel k: the first VGPR above its .vgpr_count
 * (encodable in 8 bits).  When RSRC1 does not allocate it, its VGPR granules rise by one
 * (*granules: the new field), unless that leaves fewer waves per SIMD than a workgroup of
 * .max_flat_workgroup_size needs on one CU.
 */
static bool scratch_vgpr(struct walk *w, size_t k, unsigned *v, int64_t *granules, char *why,
                         size_t why_size)
{
	const struct hs_object *o = w->c->o;
	const struct cob_kernel *kr;
	uint64_t count, fwg = DEFAULT_FLAT_WG, granule, alloc, field, need, have;
	bool wave32;

	*granules = -1;
	if (k == SIZE_MAX) {
		snprintf(why, why_size, "it lies in no kernel, so no VGPR is known to be free");
		return false;
	}
	kr = &o->ks.k[k];
	if (!o->meta || kr->meta < 0 ||
	    !hs_meta_get_uint(o->meta, kr->meta, ".vgpr_count", &count)) {
		snprintf(
		    why, why_size,
		    "the kernel's metadata has no .vgpr_count, so no VGPR is known to be free");
		return false;
	}
	if (count > 255) {
		snprintf(why, why_size, "its scratch VGPR v%llu needs s_set_vgpr_msb banking",
		         (unsigned long long)count);
		return false;
	}
	wave32 = kd_get(&kr->desc, o->layout, "enable_wavefront_size32");
	granule = wave32 ? VGPR_GRANULE_W32 : VGPR_GRANULE_W64;
	field = kd_get(&kr->desc, o->layout, "granulated_workitem_vgpr_count");
	alloc = (field + 1) * granule;
	*v = (unsigned)count;
	if (count < alloc)
		return true;
	if (!wave32) {
		snprintf(why, why_size, "no VGPR above .vgpr_count is allocated by RSRC1 (wave64)");
		return false;
	}
	hs_meta_get_uint(o->meta, kr->meta, ".max_flat_workgroup_size", &fwg);
	field = count / granule; /* granules for count + 1 VGPRs, minus one */
	need = ((fwg ? fwg : 1) + 31) / 32;
	need = (need + GFX1250_SIMDS_PER_CU - 1) / GFX1250_SIMDS_PER_CU;
	have = waves_per_simd((field + 1) * granule);
	if (have < need) {
		snprintf(
		    why, why_size,
		    "its scratch VGPR v%llu would raise RSRC1 to %llu VGPRs, %llu waves per "
		    "SIMD, below the %llu a workgroup of %llu (.max_flat_workgroup_size) needs",
		    (unsigned long long)count, (unsigned long long)((field + 1) * granule),
		    (unsigned long long)have, (unsigned long long)need, (unsigned long long)fwg);
		return false;
	}
	*granules = (int64_t)field;
	return true;
}

/* Queues a growing site with its body for place() after the sweep. */
static enum hs_status defer(struct walk *w, const struct isa_inst *in, const struct hs_b0a0_hit *h,
                            const uint8_t *body, size_t len, enum hs_count applied_kind,
                            enum hs_count declined_kind, uint64_t vgpr_need, int64_t granules)
{
	struct pending *pd;

	if (w->n_pend == w->cap_pend) {
		size_t nc = w->cap_pend ? w->cap_pend * 2 : 64;
		struct pending *np =
		    nc < SIZE_MAX / sizeof(*np) ? realloc(w->pend, nc * sizeof(*np)) : NULL;
		if (!np)
			return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		w->pend = np;
		w->cap_pend = nc;
	}
	pd = &w->pend[w->n_pend++];
	*pd = (struct pending){.off = in->offset,
	                       .size = in->size,
	                       .kernel = h->kernel,
	                       .region = h->region,
	                       .mnem = isa_inst_mnemonic(in),
	                       .applied = applied_kind,
	                       .declined = declined_kind,
	                       .vgpr_need = vgpr_need,
	                       .granules = granules,
	                       .len = len};
	memcpy(pd->body, body, len);
	return HS_OK;
}

static enum hs_status visit(void *ctx, const struct hs_b0a0_hit *h)
{
	struct walk *w = ctx;
	const struct isa_inst *in = h->in;
	const uint8_t *p = w->s.text + in->offset;
	const char *mnem = isa_inst_mnemonic(in);
	uint8_t buf[sizeof(((struct pending *)0)->body)];
	unsigned scratch = 0;
	int64_t granules = -1;
	char why[200];
	enum hs_status st;

	switch (h->kind) {
	case HS_SITE_CLUSTER_LOAD:
	case HS_SITE_ISFIRST:
		memcpy(buf, p, 4);
		hs_b0a0_in_place(buf, h->kind);
		st = defer(w, in, h, buf, 4,
		           h->kind == HS_SITE_ISFIRST ? HS_COUNT_B0A0_ISFIRST
		                                      : HS_COUNT_B0A0_CLUSTER_LOAD,
		           HS_COUNT_B0A0_CLUSTER_LOAD, 0, -1);
		if (!st)
			w->pend[w->n_pend - 1].in_place = true;
		return st;
	case HS_SITE_CLUSTER_SADDR:
		w->p->count[HS_COUNT_B0A0_LEFT_SADDR]++;
		return HS_OK;
	case HS_SITE_ISFIRST_REG:
		w->p->count[HS_COUNT_B0A0_LEFT_M0]++;
		return HS_OK;
	case HS_SITE_DS2:
		/* Raw fields name VGPRs of the current bank; a banked site is left to a later pass.
		 */
		if (h->ms->vgpr_msb)
			return b0a0_decline(w, HS_COUNT_B0A0_DS2_DECLINED, in->offset, h->kernel,
			                    mnem, "s_set_vgpr_msb banks are set at the site");
		switch (hs_ds2_split(p, buf)) {
		case HS_DS2_OFFSET:
			return b0a0_decline(w, HS_COUNT_B0A0_DS2_DECLINED, in->offset, h->kernel,
			                    mnem, "a half's byte offset exceeds 0xffff");
		case HS_DS2_CYCLIC:
			return b0a0_decline(w, HS_COUNT_B0A0_DS2_DECLINED, in->offset, h->kernel,
			                    mnem,
			                    "each half overwrites a register the other reads");
		default:
			break;
		}
		return defer(w, in, h, buf, HS_DS2_SPLIT_SIZE, HS_COUNT_B0A0_DS2,
		             HS_COUNT_B0A0_DS2_DECLINED, 0, -1);
	case HS_SITE_ADDTID:
		if (h->ms->vgpr_msb)
			return b0a0_decline(w, HS_COUNT_B0A0_ADDTID_DECLINED, in->offset, h->kernel,
			                    mnem, "s_set_vgpr_msb banks are set at the site");
		if (hs_addtid_is_store(p) &&
		    !scratch_vgpr(w, h->kernel, &scratch, &granules, why, sizeof(why)))
			return b0a0_decline(w, HS_COUNT_B0A0_ADDTID_DECLINED, in->offset, h->kernel,
			                    mnem, why);
		hs_addtid_encode(p, scratch, buf);
		return defer(w, in, h, buf, HS_ADDTID_SIZE, HS_COUNT_B0A0_ADDTID,
		             HS_COUNT_B0A0_ADDTID_DECLINED,
		             hs_addtid_is_store(p) ? (uint64_t)scratch + 1 : 0, granules);
	default:
		return HS_OK;
	}
}

/* Retags every B0 tag to A0 (the same encoded length: the note keeps its size). */
static enum hs_status retag(const struct hs_pass_ctx *c, struct hs_plan *p)
{
	const struct hs_object *o = c->o;

	for (size_t i = 0; i < o->ks.n; i++) {
		const struct cob_kernel *k = &o->ks.k[i];
		const char *s;
		size_t len;
		enum hs_status st;

		if (!o->meta || k->meta < 0 ||
		    hs_meta_get_str(o->meta, k->meta, REVISION_KEY, &s, &len) != HS_META_STR_OK ||
		    len != 2 || memcmp(s, "B0", 2))
			continue;
		st = hs_plan_meta_str(p, k->meta, REVISION_KEY, "A0");
		if (st)
			return st;
		p->count[HS_COUNT_B0A0_RETAGGED]++;
	}
	return HS_OK;
}

enum hs_status hs_pass_b0a0(const struct hs_pass_ctx *c, struct hs_plan *p)
{
	const struct hs_object *o = c->o;
	size_t a0, before;
	struct walk w;
	enum hs_status st = read_tags(o, &a0);

	if (st)
		return st;
	if (o->ks.n && a0 == o->ks.n) {
		/* Certified: every kernel says it was built for A0. */
		p->count[HS_COUNT_B0A0_CERTIFIED] = 1;
		return HS_OK;
	}
	memset(&w, 0, sizeof(w));
	w.c = c;
	w.p = p;
	st = hs_b0a0_scan_init(&w.s, o);
	if (!st)
		st = hs_b0a0_scan_want_sleds(&w.s, o);
	before = p->n_patch + (size_t)p->pool.used;
	if (!st)
		st = hs_b0a0_scan_run(&w.s, visit, &w);
	if (!st)
		st = b0a0_place_all(&w);
	p->count[HS_COUNT_B0A0_UNDECODABLE] += w.s.undecodable;
	if (!st)
		st = retag(c, p);
	if (!st && (p->n_patch + (size_t)p->pool.used != before || p->n_meta)) {
		p->transforms |= HS_XFORM_B0A0;
		st = hs_plan_state(p, HS_STATE_A0);
	}
	if (!st && p->count[HS_COUNT_B0A0_UNDECODABLE] && p->policy == HS_PLAN_STRICT)
		st = hs_fail(HS_ERROR,
		             "%u region(s) of .text do not decode, so required B0->A0 sites "
		             "there cannot be ruled out (HS_REWRITE_STRICT)",
		             p->count[HS_COUNT_B0A0_UNDECODABLE]);
	hs_b0a0_scan_free(&w.s);
	free(w.pend);
	free(w.sled_pos);
	free(w.far_charged);
	return st;
}
