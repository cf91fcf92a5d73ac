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

/* INST_PREF_SIZE, COMPUTE_PGM_RSRC3 bits [11:4] on gfx12+, in units of 128 bytes. */
#define INST_PREF_SHIFT 4
#define INST_PREF_MASK  (0xffu << INST_PREF_SHIFT)
/* The CP may prefetch this many 128-byte lines from a stub: its own 256 bytes. */
#define INST_PREF_STUB 2u

/* Decides what the entry pass does with k (no stub planned yet). */
static enum hs_status classify(struct hs_ctx *c, struct hs_kernel *k)
{
	const struct hs_elf *e = &c->o.e;
	const GElf_Shdr *text = &e->sec[e->text].sh;
	/* hs_kernels_find checked that the entry lies in an executable section. */
	size_t sec = k->entry_sec;
	uint64_t off = k->entry_off, avail, target = 0;
	bool in_text, is_stub = false;
	enum hs_status st;

	avail = e->sec[sec].sh.sh_size - (k->entry - e->sec[sec].sh.sh_addr);
	if (avail > HS_STUB_SIZE)
		avail = HS_STUB_SIZE;
	in_text = sec == e->text;
	if (in_text) {
		/* Fast path of a fresh object: a raw compare, never the decoder. */
		k->action = hs_entry_has_prologue(e->buf + off, avail) ? HS_KERNEL_SKIP_PROLOGUE
		                                                       : HS_KERNEL_STUB;
		return HS_OK;
	}
	c->dec.cpu = c->o.isa.gfx->name;
	st = hs_stub_match(&c->dec, e->buf + off, avail, k->entry, &is_stub, &target);
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
	k->action = HS_KERNEL_SKIP_STUBBED;
	k->stub_vaddr = k->entry;
	return HS_OK;
}

/*
 * The kernel's SGPR count: metadata .sgpr_count, the only source.  The pass
 * runs on gfx12.5 alone, where RSRC1's SGPR granule field is reserved.
 */
static enum hs_status sgpr_count(struct hs_ctx *c, const struct hs_kernel *k, uint64_t *count)
{
	if (!c->o.meta)
		return hs_fail(HS_ERROR,
		               "kernel '%s': no AMDGPU metadata note, and %s has no "
		               "SGPR count in RSRC1",
		               k->name, c->o.isa.gfx->name);
	if (k->meta < 0)
		return hs_fail(HS_ERROR,
		               "kernel '%s' has no entry in the AMDGPU metadata, so "
		               "its SGPR count is unknown",
		               k->name);
	if (!hs_meta_get_uint(c->o.meta, k->meta, ".sgpr_count", count))
		return hs_fail(HS_ERROR,
		               "kernel '%s': metadata has no unsigned "
		               "'.sgpr_count'",
		               k->name);
	return HS_OK;
}

enum hs_status hs_pass_entry(struct hs_ctx *c)
{
	enum hs_status st;
	size_t n = 0;

	for (size_t i = 0; i < c->o.ks.n; i++) {
		st = classify(c, &c->o.ks.k[i]);
		if (st)
			return st;
		n += c->o.ks.k[i].action == HS_KERNEL_STUB;
	}
	c->r.passes_run |= HS_PASS_ENTRY_TRAMPOLINES;
	if (n == 0)
		goto count;
	for (size_t i = 0; i < c->o.n_prov; i++)
		if (c->o.prov[i].transforms & HS_XFORM_ENTRY_TRAMPOLINES)
			return hs_fail(
			    HS_ERROR,
			    "the object already has an entry-trampoline pool at "
			    "0x%llx but %zu kernel(s) still need stubs; refusing to stack "
			    "a second pool",
			    (unsigned long long)c->o.prov[i].pool_vaddr, n);
	st = hs_pool_plan(&c->o.e, &c->pool_vaddr, &c->pool_off);
	if (st)
		return st;
	st = hs_pool_section_index(&c->o.e, &c->pool_shndx);
	if (st)
		return st;
	c->stubs = calloc(n, HS_STUB_SIZE);
	if (!c->stubs)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 0; i < c->o.ks.n; i++) {
		struct hs_kernel *k = &c->o.ks.k[i];
		uint64_t count, pref;
		uint32_t rsrc3;

		if (k->action != HS_KERNEL_STUB)
			continue;
		st = sgpr_count(c, k, &count);
		if (st)
			return st;
		if (hs_scratch_pair(count, &k->scratch, &k->sgpr_new) < 0)
			return hs_fail(HS_ERROR,
			               "kernel '%s': .sgpr_count %llu exceeds the 108 "
			               "SGPRs (s0-s105 and vcc) of %s; no scratch pair for the "
			               "entry stub",
			               k->name, (unsigned long long)count, c->o.isa.gfx->name);
		/* Pool vaddr is page aligned, so every 256-byte slot is 256-byte aligned. */
		k->stub_vaddr = c->pool_vaddr + c->n_stubs * HS_STUB_SIZE;
		hs_stub_encode(c->stubs + c->n_stubs * HS_STUB_SIZE, k->stub_vaddr, k->entry,
		               k->scratch);
		c->n_stubs++;
		/* Checked: the new entry offset is a signed 64-bit distance from the descriptor. */
		if (k->stub_vaddr - k->kd_vaddr > (uint64_t)INT64_MAX)
			return hs_fail(HS_ERROR,
			               "kernel '%s': stub at 0x%llx is out of reach of "
			               "its descriptor",
			               k->name, (unsigned long long)k->stub_vaddr);
		rsrc3 = hs_rd32(k->kd + HS_KD_AT(compute_pgm_rsrc3));
		pref = (rsrc3 & INST_PREF_MASK) >> INST_PREF_SHIFT;
		if (pref > INST_PREF_STUB)
			pref = INST_PREF_STUB;
		k->rsrc3_new = (rsrc3 & ~INST_PREF_MASK) | (uint32_t)(pref << INST_PREF_SHIFT);
		if (c->o.meta && !hs_meta_set_uint(c->o.meta, k->meta, ".sgpr_count", k->sgpr_new))
			return hs_fail(HS_ERROR, "kernel '%s': cannot update '.sgpr_count'",
			               k->name);
	}
	c->r.kernels_stubbed = (uint32_t)c->n_stubs;
count:
	for (size_t i = 0; i < c->o.ks.n; i++) {
		c->r.kernels_skip_prologue += c->o.ks.k[i].action == HS_KERNEL_SKIP_PROLOGUE;
		c->r.kernels_skip_stubbed += c->o.ks.k[i].action == HS_KERNEL_SKIP_STUBBED;
	}
	if (hs_meta_dirty(c->o.meta))
		c->r.passes_run |= HS_PASS_METADATA;
	return HS_OK;
}
