/*
 * The B0->A0 sweep over .text (the pass and inspect share it): the table-driven gfx1250
 * decoder from each kernel entry, every B0-only site handed to a visitor with its kernel.
 */
#ifndef HS_B0A0_SCAN_H
#define HS_B0A0_SCAN_H

#include "b0a0_encode.h"
#include "mirage/isa.h"
#include "object.h"

/*
 * A NOP sled: [start, end) of .text holding only s_nop, inside one region (between two
 * kernel entries or symbols in .text), that no control flow reaches: the instruction before it has
 * no fall-through and no branch targets an address in it (a target cuts the sled there).
 */
struct hs_b0a0_sled {
	uint64_t start, end;
	size_t region;
};

/*
 * What a region's instructions do with the numbered SGPRs, for the far jump's pair: one
 * past the highest s<N> any operand names; opaque when one could touch any SGPR (an opcode
 * the table does not know where control may reach it, s_movrels/s_movreld); escapes when control
 * may leave the region other than by s_endpgm (a call, s_set_pc_i64, s_rfe_i64, a branch out of it,
 * a fall into the next region), so its SGPRs alone do not prove a pair unused.
 */
struct hs_b0a0_region {
	uint64_t start; /* .text offset of its first byte */
	size_t kernel;  /* the kernel whose entry starts it; SIZE_MAX: none */
	unsigned sgpr_top;
	bool opaque, escapes;
	uint64_t tmin, tmax; /* branch targets in it (tmin > tmax: none) */
	/* Unknown opcodes no fall-through reaches (padding?) lie in [dark_lo, dark_hi]: the
	 * region is opaque only if a branch lands there. */
	uint64_t dark_lo, dark_hi;
};

struct hs_b0a0_scan {
	const uint8_t *text; /* .text bytes */
	uint64_t text_off, text_vaddr, text_size;
	uint64_t *entries; /* .text offsets of kernel entries, sorted */
	size_t *entry_kernel, n_entries;
	unsigned undecodable; /* regions the decoder could not size (not visited) */
	bool want_sleds;      /* collect sleds (hs_b0a0_scan_want_sleds: the pass does) */
	uint64_t *funcs;      /* .text offsets of every symbol in .text, sorted (sleds only) */
	size_t n_funcs;
	struct hs_b0a0_sled *sleds; /* by offset; only runs of at least HS_SLED_MIN bytes */
	size_t n_sleds, cap_sleds;
	uint64_t *targets; /* branch targets seen (.text offsets), sorted after the run */
	size_t n_targets, cap_targets;
	bool sleds_unsafe; /* an unknown SOPP form (a branch we cannot follow?): no sleds */
	struct hs_b0a0_region *regions; /* with want_sleds: one per region, by index */
	size_t n_regions, cap_regions;
	/* A far jump being read (s_get_pc_i64, s_add_nc_u64 of a literal): its pair, its stage
	 * (0 none, 1 after the get, 2 after the add) and its target .text offset. */
	unsigned far_pair, far_stage;
	uint64_t far_target;
};

/* gfx1250's numbered SGPRs: s0..s105 (VCC is apart). */
#define HS_B0A0_SGPRS 106u

/* The shortest s_nop run, in bytes, kept as a sled: two s_nops, room for the smallest body
 * (one 4-byte instruction) and its s_branch back. */
#define HS_SLED_MIN 8u

struct hs_b0a0_hit {
	const struct isa_inst *in; /* in->offset: the .text offset */
	const struct isa_state *ms;
	enum hs_b0a0_site kind;
	size_t kernel; /* index in the object's kernels; SIZE_MAX: before every entry */
	size_t region; /* the function it lies in: counts kernel entries and symbols passed */
};

typedef enum hs_status (*hs_b0a0_visit)(void *ctx, const struct hs_b0a0_hit *h);

HS_INTERNAL enum hs_status hs_b0a0_scan_init(struct hs_b0a0_scan *s, const struct hs_object *o);
/* Asks the next run for sleds; every symbol in .text starts a new region (function). */
HS_INTERNAL enum hs_status hs_b0a0_scan_want_sleds(struct hs_b0a0_scan *s,
                                                   const struct hs_object *o);
HS_INTERNAL void hs_b0a0_scan_free(struct hs_b0a0_scan *s);
/*
 * Sweeps .text; visit's first non-OK status ends the sweep and is returned.  With
 * want_sleds, the sleds are complete (cut at every branch target) when it returns.
 */
HS_INTERNAL enum hs_status hs_b0a0_scan_run(struct hs_b0a0_scan *s, hs_b0a0_visit visit, void *ctx);
/*
 * Whether a far jump's pair at a site of region r (kernel: the site's) must be free in the
 * whole object: the region is not that kernel's own, or control may escape it.
 */
HS_INTERNAL bool hs_b0a0_scan_far_whole(const struct hs_b0a0_scan *s, size_t r, size_t kernel);
/*
 * The pair a far jump at a site of region r may use: the first even s<N> at or above floor
 * (the caller's bound: the charged kernels' .sgpr_count) and above every SGPR the region's
 * instructions name (whole: every region's).  False (why says so) when none is proven: an
 * instruction may touch any SGPR, part of .text does not decode, or no pair fits below s106.
 */
HS_INTERNAL bool hs_b0a0_scan_far_pair(const struct hs_b0a0_scan *s, size_t r, bool whole,
                                       uint64_t floor, unsigned *pair, char *why, size_t why_size);
/* True when a branch seen in the sweep targets .text offset off (sorted after the run). */
HS_INTERNAL bool hs_b0a0_scan_is_target(const struct hs_b0a0_scan *s, uint64_t off);
/* The site kinds as reports name them ("in place", "trampoline", "left alone"). */
HS_INTERNAL const char *hs_b0a0_site_class(enum hs_b0a0_site kind);

#endif
