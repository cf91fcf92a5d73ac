/* The B0->A0 sweep: kernel entries sorted, a linear decode between them, sites visited. */
#include "b0a0_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The first index of the sorted v[0, n) whose value is at least x (n: none). */
static size_t lower_bound(const uint64_t *v, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

enum hs_status hs_b0a0_scan_init(struct hs_b0a0_scan *s, const struct hs_object *o)
{
	const struct cob_elf *e = &o->e;
	const GElf_Shdr *text = &e->sec[e->text].sh;
	const struct cob_kernels *ks = &o->ks;

	memset(s, 0, sizeof(*s));
	s->text_off = text->sh_offset;
	s->text_vaddr = text->sh_addr;
	s->text_size = text->sh_type == SHT_NOBITS ? 0 : text->sh_size;
	s->text = e->buf + text->sh_offset;
	s->entries = calloc(ks->n ? ks->n : 1, sizeof(*s->entries));
	s->entry_kernel = calloc(ks->n ? ks->n : 1, sizeof(*s->entry_kernel));
	if (!s->entries || !s->entry_kernel)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 0; i < ks->n; i++)
		if (ks->k[i].entry_sec == e->text)
			s->entries[s->n_entries++] = ks->k[i].entry - text->sh_addr;
	qsort(s->entries, s->n_entries, sizeof(*s->entries), cmp_u64);
	/* Kernels are sorted by descriptor, entries by address: join them once, in order. */
	for (size_t i = 0; i < ks->n; i++) {
		size_t lo;
		if (ks->k[i].entry_sec != e->text)
			continue;
		lo = lower_bound(s->entries, s->n_entries, ks->k[i].entry - text->sh_addr);
		/* Two kernels at one entry: the first by descriptor address names it. */
		if (lo < s->n_entries && !s->entry_kernel[lo])
			s->entry_kernel[lo] = i + 1;
	}
	return HS_OK;
}

enum hs_status hs_b0a0_scan_want_sleds(struct hs_b0a0_scan *s, const struct hs_object *o)
{
	const struct cob_elf *e = &o->e;
	const size_t tabs[2] = {e->symtab, e->dynsym};
	size_t n = 0;

	s->want_sleds = true;
	for (int t = 0; t < 2; t++)
		n += cob_elf_sym_count(e, tabs[t]);
	s->funcs = calloc(n ? n : 1, sizeof(*s->funcs));
	if (!s->funcs)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (int t = 0; t < 2; t++)
		for (size_t i = 0; i < cob_elf_sym_count(e, tabs[t]); i++) {
			GElf_Sym sym;
			cob_elf_sym(e, tabs[t], i, &sym);
			if (sym.st_shndx == e->text && sym.st_value >= s->text_vaddr &&
			    sym.st_value - s->text_vaddr < s->text_size)
				s->funcs[s->n_funcs++] = sym.st_value - s->text_vaddr;
		}
	qsort(s->funcs, s->n_funcs, sizeof(*s->funcs), cmp_u64);
	return HS_OK;
}

void hs_b0a0_scan_free(struct hs_b0a0_scan *s)
{
	free(s->funcs);
	free(s->entries);
	free(s->entry_kernel);
	free(s->sleds);
	free(s->targets);
	free(s->regions);
	memset(s, 0, sizeof(*s));
}

/* Makes room for one more element of size sz in *v; false when out of memory. */
static bool room(void **v, size_t n, size_t *cap, size_t sz)
{
	size_t nc = *cap ? *cap * 2 : 64;
	void *nv;

	if (n < *cap)
		return true;
	if (nc > SIZE_MAX / sz || !(nv = realloc(*v, nc * sz)))
		return false;
	*v = nv;
	*cap = nc;
	return true;
}

/* Ends the open sled (if any) at end; runs shorter than a sled are dropped. */
static bool sled_close(struct hs_b0a0_scan *s, uint64_t *start, uint64_t end, size_t region)
{
	bool ok = true;

	if (*start != UINT64_MAX && end - *start >= HS_SLED_MIN) {
		ok = room((void **)&s->sleds, s->n_sleds, &s->cap_sleds, sizeof(*s->sleds));
		if (ok)
			s->sleds[s->n_sleds++] = (struct hs_b0a0_sled){*start, end, region};
	}
	*start = UINT64_MAX;
	return ok;
}

/* Cuts every sled at the first branch target inside it (control flow enters there). */
static void sleds_cut(struct hs_b0a0_scan *s)
{
	size_t n = 0;

	if (s->sleds_unsafe)
		s->n_sleds = 0;
	if (s->n_targets) /* targets is NULL when no branch was seen */
		qsort(s->targets, s->n_targets, sizeof(*s->targets), cmp_u64);
	for (size_t i = 0; i < s->n_sleds; i++) {
		struct hs_b0a0_sled d = s->sleds[i];
		size_t lo = lower_bound(s->targets, s->n_targets, d.start);
		if (lo < s->n_targets && s->targets[lo] < d.end)
			d.end = s->targets[lo];
		if (d.end - d.start >= HS_SLED_MIN)
			s->sleds[n++] = d;
	}
	s->n_sleds = n;
}

/*
 * The target .text offset of a far jump ending at in (s_get_pc_i64, s_add_nc_u64 of a
 * literal and s_set_pc_i64 on one pair, as the pass writes it); false for anything else.
 */
static bool far_jump_target(const struct hs_b0a0_scan *s, const struct isa_inst *in, uint64_t *t)
{
	if (in->op != ISA_OP_S_SET_PC_I64 || s->far_stage != 2 || !in->nops ||
	    in->ops[0].kind != ISA_OPK_SGPR || in->ops[0].reg != s->far_pair)
		return false;
	*t = s->far_target;
	return true;
}

/* Follows a far jump being read: the s_get_pc_i64, then the s_add_nc_u64 of a literal. */
static void far_track(struct hs_b0a0_scan *s, const struct isa_inst *in)
{
	const struct isa_operand *o = in->ops;

	if (in->op == ISA_OP_S_GET_PC_I64 && in->nops && o[0].kind == ISA_OPK_SGPR) {
		s->far_pair = o[0].reg;
		s->far_stage = 1;
		s->far_target = in->offset + in->size; /* what s_get_pc_i64 gives */
		return;
	}
	/* A 32-bit literal counts only below 2^31, where zero and sign extension agree. */
	if (s->far_stage == 1 && in->op == ISA_OP_S_ADD_NC_U64 && in->nops >= 3 &&
	    o[0].kind == ISA_OPK_SGPR && o[0].reg == s->far_pair && o[1].kind == ISA_OPK_SGPR &&
	    o[1].reg == s->far_pair && o[2].kind == ISA_OPK_LITERAL &&
	    (in->literal_size == 8 || in->literal < (1ull << 31))) {
		s->far_target += in->literal;
		s->far_stage = 2;
		return;
	}
	s->far_stage = 0;
}

/*
 * A jump out of .text (into a pool of an earlier rewrite: the site of a trampoline) comes
 * back to the instruction after it, so that one is reached like a fall-through; so does
 * s_branch right after s_get_pc_i64 (a site's way to a far jump's gateway in a sled).
 */
static bool returns_here(const struct hs_b0a0_scan *s, const struct isa_inst *in)
{
	uint64_t t;

	if (in->op == ISA_OP_S_BRANCH && s->far_stage == 1)
		return true;
	if (in->op == ISA_OP_S_BRANCH && in->nops && in->ops[0].kind == ISA_OPK_LABEL)
		t = (uint64_t)in->ops[0].imm;
	else if (in->op == ISA_OP_S_ADD_PC_I64 && in->literal_size)
		t = in->offset + in->size +
		    (in->literal_size == 4 ? (uint64_t)(uint32_t)in->literal : in->literal);
	else if (!far_jump_target(s, in, &t))
		return false;
	return t >= s->text_size;
}

/* Opens region number s->n_regions at off, started by kernel's entry (SIZE_MAX: none). */
static bool region_open(struct hs_b0a0_scan *s, uint64_t off, size_t kernel)
{
	if (!room((void **)&s->regions, s->n_regions, &s->cap_regions, sizeof(*s->regions)))
		return false;
	s->regions[s->n_regions++] = (struct hs_b0a0_region){
	    .start = off, .kernel = kernel, .tmin = UINT64_MAX, .dark_lo = UINT64_MAX};
	return true;
}

static void region_target(struct hs_b0a0_region *g, uint64_t t)
{
	if (t < g->tmin)
		g->tmin = t;
	if (t > g->tmax)
		g->tmax = t;
}

/*
 * Records what one instruction does with SGPRs and control flow in region g; live: control
 * runs into it from an entry or a symbol without a terminator, else the stretch no such
 * run reaches began at dark_since (only a branch could land there).
 */
static void sgpr_step(struct hs_b0a0_scan *s, const struct isa_inst *in, struct hs_b0a0_region *g,
                      bool live, uint64_t dark_since)
{
	uint64_t t;

	if (in->op == ISA_OP_UNKNOWN && !live) {
		if (dark_since < g->dark_lo)
			g->dark_lo = dark_since;
		g->dark_hi = in->offset;
	} else if (in->op == ISA_OP_UNKNOWN || in->op == ISA_OP_S_MOVRELS_B32 ||
	           in->op == ISA_OP_S_MOVRELS_B64 || in->op == ISA_OP_S_MOVRELD_B32 ||
	           in->op == ISA_OP_S_MOVRELD_B64)
		g->opaque = true;
	for (unsigned i = 0; i < in->nops; i++) {
		const struct isa_operand *o = &in->ops[i];
		unsigned end = o->reg + (o->width ? o->width : 1u);
		if (o->kind == ISA_OPK_SGPR && end > g->sgpr_top)
			g->sgpr_top = end;
		if (o->kind == ISA_OPK_LABEL && (in->flags & ISA_F_BRANCH))
			region_target(g, (uint64_t)o->imm);
	}
	if (in->op == ISA_OP_S_ADD_PC_I64 && in->literal_size)
		region_target(
		    g, in->offset + in->size +
		           (in->literal_size == 4 ? (uint64_t)(uint32_t)in->literal : in->literal));
	else if (far_jump_target(s, in, &t) && t < s->text_size)
		region_target(g, t);
	else if ((in->flags & ISA_F_CALL) || in->op == ISA_OP_S_SET_PC_I64 ||
	         in->op == ISA_OP_S_RFE_I64 || in->op == ISA_OP_S_ADD_PC_I64)
		g->escapes = true;
}

/* After the sweep: a region with a branch target outside it escapes. */
static void regions_close(struct hs_b0a0_scan *s)
{
	for (size_t r = 0; r < s->n_regions; r++) {
		struct hs_b0a0_region *g = &s->regions[r];
		uint64_t end = r + 1 < s->n_regions ? s->regions[r + 1].start : s->text_size;
		size_t lo = lower_bound(s->targets, s->n_targets, g->dark_lo);
		if (g->tmin <= g->tmax && (g->tmin < g->start || g->tmax >= end))
			g->escapes = true;
		if (lo < s->n_targets && s->targets[lo] <= g->dark_hi)
			g->opaque = true;
	}
}

/* Records what the sled search needs of one instruction: branch targets, s_nop runs. */
static bool sled_step(struct hs_b0a0_scan *s, const struct isa_inst *in, bool reached,
                      uint64_t *start, size_t region)
{
	if (in->flags & ISA_F_BRANCH)
		for (unsigned i = 0; i < in->nops; i++)
			if (in->ops[i].kind == ISA_OPK_LABEL) {
				if (!room((void **)&s->targets, s->n_targets, &s->cap_targets,
				          sizeof(*s->targets)))
					return false;
				s->targets[s->n_targets++] = (uint64_t)in->ops[i].imm;
			}
	{
		uint64_t t;
		if (far_jump_target(s, in, &t) && t < s->text_size) {
			if (!room((void **)&s->targets, s->n_targets, &s->cap_targets,
			          sizeof(*s->targets)))
				return false;
			s->targets[s->n_targets++] = t;
		}
	}
	/* A form the table lacks might branch anywhere: no sled is known unreachable then. */
	if (in->op == ISA_OP_UNKNOWN && in->format == ISA_FMT_SOPP)
		s->sleds_unsafe = true;
	if (in->op == ISA_OP_S_NOP && (*start != UINT64_MAX || !reached)) {
		if (*start == UINT64_MAX)
			*start = in->offset;
		return true;
	}
	return sled_close(s, start, in->offset, region);
}

/*
 * From each kernel entry (decoder state reset there and after every terminator) on.  A word
 * the decoder cannot size ends the sweep up to the next entry: nothing after it is visited
 * (it may be data).
 */
/*
 * A new region at off (a kernel entry, or a symbol: one there too belongs to that entry's
 * kernel); falls: the code before it runs on into it, so the previous region escapes.
 */
static bool region_next(struct hs_b0a0_scan *s, uint64_t off, size_t entry_kernel, bool falls)
{
	struct hs_b0a0_region *prev = s->n_regions ? &s->regions[s->n_regions - 1] : NULL;
	size_t kernel = entry_kernel;

	if (!s->want_sleds)
		return true;
	if (prev && prev->start == off && kernel == SIZE_MAX)
		kernel = prev->kernel;
	if (prev && falls && prev->start < off)
		prev->escapes = true;
	return region_open(s, off, kernel);
}

/*
 * From each kernel entry (decoder state reset there and after every terminator) on.  A word
 * the decoder cannot size ends the sweep up to the next entry: nothing after it is visited
 * (it may be data).
 */
enum hs_status hs_b0a0_scan_run(struct hs_b0a0_scan *s, hs_b0a0_visit visit, void *ctx)
{
	uint64_t off = 0, sled = UINT64_MAX, dark_since = 0;
	size_t next = 0, next_func = 0, kernel = SIZE_MAX, region = 0;
	bool reached = true; /* fall-through reaches off */
	bool live = true;    /* ... from an entry or symbol, through no terminator */
	struct isa_state ms;

	isa_state_reset(&ms);
	if (s->want_sleds && !region_open(s, 0, SIZE_MAX))
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	while (off < s->text_size) {
		struct isa_inst in;
		enum hs_b0a0_site kind;
		bool falls = live; /* the code before runs on into off */
		int rc;

		while (next < s->n_entries && s->entries[next] <= off) {
			size_t here = SIZE_MAX;
			if (s->entries[next] == off) {
				isa_state_reset(&ms);
				reached = live = true;
				here = s->entry_kernel[next] ? s->entry_kernel[next] - 1 : SIZE_MAX;
			}
			if (s->entry_kernel[next])
				kernel = s->entry_kernel[next] - 1;
			if (!sled_close(s, &sled, off, region) || !region_next(s, off, here, falls))
				return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
			region++;
			next++;
		}
		/* A symbol in .text may be called or jumped to: a new region, reached. */
		while (next_func < s->n_funcs && s->funcs[next_func] <= off) {
			reached |= s->funcs[next_func] == off;
			live |= s->funcs[next_func] == off;
			if (!sled_close(s, &sled, off, region) ||
			    !region_next(s, off, SIZE_MAX, falls))
				return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
			region++;
			next_func++;
		}
		rc = isa_decode_gfx1250(s->text, s->text_size, off, &ms, &in);
		if (rc != ISA_OK || !in.size) {
			uint64_t resume = next < s->n_entries ? s->entries[next] : s->text_size;
			/* An undecodable word ends a sled: nothing after it is known to be s_nop.
			 */
			if (!sled_close(s, &sled, off, region))
				return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
			s->undecodable++;
			s->far_stage = 0;
			hs_log(HS_LOG_INFO,
			       "B0->A0: .text+0x%llx does not decode (%s); nothing up to "
			       ".text+0x%llx is patched",
			       (unsigned long long)off, isa_strerror(rc),
			       (unsigned long long)resume);
			off = resume;
			continue;
		}
		if (s->want_sleds && !sled_step(s, &in, reached, &sled, region))
			return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		if (s->want_sleds)
			sgpr_step(s, &in, &s->regions[s->n_regions - 1], live, dark_since);
		kind = hs_b0a0_classify(s->text + off, in.size, in.format, in.raw_opcode);
		if (kind != HS_SITE_NONE) {
			struct hs_b0a0_hit h = {
			    .in = &in, .ms = &ms, .kind = kind, .kernel = kernel, .region = region};
			enum hs_status st = visit(ctx, &h);
			if (st)
				return st;
		}
		if (live)
			dark_since = off + in.size;
		reached = !(in.flags & ISA_F_TERM) || returns_here(s, &in);
		live = live && reached;
		far_track(s, &in);
		if (in.flags & ISA_F_TERM)
			isa_state_reset(&ms);
		off += in.size;
	}
	if (!sled_close(s, &sled, off, region))
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	sleds_cut(s);
	regions_close(s);
	return HS_OK;
}

bool hs_b0a0_scan_is_target(const struct hs_b0a0_scan *s, uint64_t off)
{
	size_t lo = lower_bound(s->targets, s->n_targets, off);

	return lo < s->n_targets && s->targets[lo] == off;
}

/* One past the highest SGPR any region names; false (why) when a region is opaque. */
static bool object_sgpr_top(const struct hs_b0a0_scan *s, unsigned *top, char *why, size_t why_size)
{
	*top = 0;
	for (size_t r = 0; r < s->n_regions; r++) {
		const struct hs_b0a0_region *g = &s->regions[r];
		if (g->opaque) {
			snprintf(
			    why, why_size,
			    "control may leave its function, and the code at .text+0x%llx may "
			    "touch any SGPR (an opcode the decoder does not know, or "
			    "s_movrels/s_movreld), so no SGPR pair is known to be free for its "
			    "far jump",
			    (unsigned long long)g->start);
			return false;
		}
		if (g->sgpr_top > *top)
			*top = g->sgpr_top;
	}
	return true;
}

bool hs_b0a0_scan_far_whole(const struct hs_b0a0_scan *s, size_t r, size_t kernel)
{
	const struct hs_b0a0_region *g = &s->regions[r];

	return kernel == SIZE_MAX || g->kernel != kernel || g->escapes;
}

bool hs_b0a0_scan_far_pair(const struct hs_b0a0_scan *s, size_t r, bool whole, uint64_t floor,
                           unsigned *pair, char *why, size_t why_size)
{
	const struct hs_b0a0_region *g = &s->regions[r];
	uint64_t base;
	unsigned top = g->sgpr_top;

	if (s->undecodable) {
		snprintf(why, why_size,
		         "part of .text does not decode, so no SGPR pair is known to be free for "
		         "its far jump");
		return false;
	}
	if (g->opaque) {
		snprintf(why, why_size,
		         "its function has an instruction that may touch any SGPR (an opcode the "
		         "decoder does not know, or s_movrels/s_movreld), so no SGPR pair is known "
		         "to be free for its far jump");
		return false;
	}
	if (whole && !object_sgpr_top(s, &top, why, why_size))
		return false;
	base = top > floor ? top : floor;
	base = (base + 1) & ~UINT64_C(1);
	if (base + 2 > HS_B0A0_SGPRS) {
		char named[16] = "none";
		if (top)
			snprintf(named, sizeof(named), "s0..s%u", top - 1);
		snprintf(why, why_size,
		         "its far jump needs an even SGPR pair above those %s names (%s) and "
		         "its .sgpr_count %llu, and none is left below s%u",
		         whole ? "the whole object (control may leave its function)"
		               : "its function",
		         named, (unsigned long long)floor, HS_B0A0_SGPRS);
		return false;
	}
	*pair = (unsigned)base;
	return true;
}

const char *hs_b0a0_site_class(enum hs_b0a0_site kind)
{
	switch (kind) {
	case HS_SITE_CLUSTER_LOAD:
	case HS_SITE_ISFIRST:
		return "in place";
	case HS_SITE_DS2:
	case HS_SITE_ADDTID:
		return "trampoline";
	default:
		return "left alone";
	}
}
