/* The gfx12.5 entry-trampoline pass: scratch pairs, 256-byte stubs, prologue detection. */
#include "pass.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_table.h"
#include "stub_format.h"
#include "stub_match.h"

int hs_scratch_pair(uint64_t count, unsigned *pair, uint64_t *new_count)
{
	uint64_t base, need;

	if (count > HS_SGPR_TOTAL)
		return -1;
	base = (count + 1) & ~UINT64_C(1);
	if (base + 2 <= HS_SGPR_NUMBERED) {
		*pair = (unsigned)base;
		/* The pair's end plus two for VCC headroom, never beyond the file. */
		need = base + 4 < HS_SGPR_TOTAL ? base + 4 : HS_SGPR_TOTAL;
	} else {
		/* VCC has no defined value at kernel entry, so the stub may clobber it. */
		*pair = SGPR_VCC;
		need = HS_SGPR_TOTAL;
	}
	*new_count = count > need ? count : need;
	return 0;
}

/* The CP may prefetch this many 128-byte lines (INST_PREF_SIZE) from a stub: its own 256 bytes. */
#define INST_PREF_STUB 2u

/* What the pass found at each kernel's entry (pass-private). */
enum entry_kind {
	ENTRY_NEEDS_STUB = 0,
	ENTRY_HAS_PROLOGUE, /* already begins with VMEM + v_nop */
	ENTRY_IS_STUB,      /* already one of our stubs */
};

bool hs_pass_entry_applies(const struct hs_pass_ctx *c, char *why, size_t why_size)
{
	/* The erratum is gfx12.5's; other processors pass through untouched. */
	if (hs_isa_is_gfx125x(&c->o->isa))
		return true;
	snprintf(why, why_size,
	         "entry trampolines do not apply to %s: the entry-prologue erratum is gfx12.5's",
	         c->o->isa.gfx->name);
	return false;
}

/* Decides what the pass does with k. */
static enum hs_status classify(const struct hs_pass_ctx *c, const struct cob_kernel *k,
                               enum entry_kind *kind)
{
	const struct cob_elf *e = &c->o->e;
	const GElf_Shdr *text = &e->sec[e->text].sh;
	/* hs_kernels_find checked that the entry lies in an executable section. */
	size_t sec = k->entry_sec;
	uint64_t off = k->entry_off, avail, target = 0;
	bool is_stub = false;
	enum hs_status st;

	avail = e->sec[sec].sh.sh_size - (k->entry - e->sec[sec].sh.sh_addr);
	if (avail > HS_STUB_SIZE)
		avail = HS_STUB_SIZE;
	if (sec == e->text) {
		/* Fast path of a fresh object: a raw compare, never the decoder. */
		*kind = hs_entry_has_prologue(e->buf + off, avail) ? ENTRY_HAS_PROLOGUE
		                                                   : ENTRY_NEEDS_STUB;
		return HS_OK;
	}
	st = hs_stub_match(c->dec, e->buf + off, avail, k->entry, &is_stub, &target);
	if (st) {
		char why[512];
		snprintf(why, sizeof(why), "%s", hs_last_error());
		return hs_fail(st,
		               "kernel '%s': cannot check whether its entry 0x%llx is one of "
		               "our stubs: %s",
		               k->name, (unsigned long long)k->entry, why);
	}
	if (!is_stub || target < text->sh_addr || target - text->sh_addr >= text->sh_size)
		return hs_fail(HS_ERROR,
		               "kernel '%s': entry 0x%llx is outside .text and is not "
		               "one of our entry stubs into .text",
		               k->name, (unsigned long long)k->entry);
	*kind = ENTRY_IS_STUB;
	return HS_OK;
}

/*
 * The kernel's SGPR count: metadata .sgpr_count, the only source.  The pass
 * runs on gfx12.5 alone, where RSRC1's SGPR granule field is reserved.
 */
static enum hs_status sgpr_count(const struct hs_pass_ctx *c, const struct cob_kernel *k,
                                 uint64_t *count)
{
	const struct hs_meta *m = c->o->meta;

	if (!m)
		return hs_fail(HS_ERROR,
		               "kernel '%s': no AMDGPU metadata note, and %s has no "
		               "SGPR count in RSRC1",
		               k->name, c->o->isa.gfx->name);
	if (k->meta < 0)
		return hs_meta_need_entry(m, k->name, k->meta, "its SGPR count is unknown");
	if (!hs_meta_get_uint(m, k->meta, ".sgpr_count", count))
		return hs_fail(HS_ERROR,
		               "kernel '%s': metadata has no unsigned "
		               "'.sgpr_count'",
		               k->name);
	return HS_OK;
}

/* Plans k's stub in the pool, its new entry, its SGPR need and its INST_PREF_SIZE clamp. */
static enum hs_status plan_stub(const struct hs_pass_ctx *c, struct hs_plan *p, size_t i)
{
	const struct cob_kernel *k = &c->o->ks.k[i];
	uint64_t count, need, stub_vaddr;
	unsigned pair;
	uint8_t *stub;
	enum hs_status st;

	st = sgpr_count(c, k, &count);
	if (st)
		return st;
	if (hs_scratch_pair(count, &pair, &need) < 0)
		return hs_fail(HS_ERROR,
		               "kernel '%s': .sgpr_count %llu exceeds the 108 "
		               "SGPRs (s0-s105 and vcc) of %s; no scratch pair for the "
		               "entry stub",
		               k->name, (unsigned long long)count, c->o->isa.gfx->name);
	/* 256-byte aligned, so the CP's prefetch of the stub never straddles a line it skips. */
	st = hs_plan_reserve(p, HS_STUB_SIZE, HS_STUB_SIZE, &stub_vaddr, &stub);
	if (st)
		return st;
	hs_stub_encode(stub, stub_vaddr, k->entry, pair);
	/* Checked: the new entry offset is a signed 64-bit distance from the descriptor. */
	if (stub_vaddr - k->kd_vaddr > (uint64_t)INT64_MAX)
		return hs_fail(HS_ERROR,
		               "kernel '%s': stub at 0x%llx is out of reach of "
		               "its descriptor",
		               k->name, (unsigned long long)stub_vaddr);
	st = hs_plan_kernel_entry(p, i, stub_vaddr);
	if (st)
		return st;
	hs_plan_kernel_inst_pref(p, i, INST_PREF_STUB);
	hs_plan_kernel_sgprs(p, i, need);
	return HS_OK;
}

enum hs_status hs_pass_entry(const struct hs_pass_ctx *c, struct hs_plan *p)
{
	const struct hs_object *o = c->o;
	enum entry_kind *kind = calloc(o->ks.n ? o->ks.n : 1, sizeof(*kind));
	enum hs_status st = HS_OK;
	size_t n = 0;

	if (!kind)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	c->dec->cpu = o->isa.gfx->name;
	for (size_t i = 0; i < o->ks.n && !st; i++) {
		st = classify(c, &o->ks.k[i], &kind[i]);
		n += kind[i] == ENTRY_NEEDS_STUB;
	}
	for (size_t i = 0; n && !st && i < o->n_prov; i++)
		if (o->prov[i].transforms & HS_XFORM_ENTRY_TRAMPOLINES)
			st = hs_fail(HS_ERROR,
			             "the object already has an entry-trampoline pool at "
			             "0x%llx but %zu kernel(s) still need stubs; refusing to stack "
			             "a second pool",
			             (unsigned long long)o->prov[i].pool_vaddr, n);
	for (size_t i = 0; i < o->ks.n && !st; i++) {
		if (kind[i] == ENTRY_NEEDS_STUB)
			st = plan_stub(c, p, i);
		p->count[HS_COUNT_KERNELS_STUBBED] += kind[i] == ENTRY_NEEDS_STUB;
		p->count[HS_COUNT_SKIP_PROLOGUE] += kind[i] == ENTRY_HAS_PROLOGUE;
		p->count[HS_COUNT_SKIP_STUBBED] += kind[i] == ENTRY_IS_STUB;
	}
	if (n && !st)
		p->transforms |= HS_XFORM_ENTRY_TRAMPOLINES;
	free(kind);
	return st;
}
