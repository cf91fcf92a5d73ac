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
};

/* The shortest run of s_nop worth a sled (the reference's MinNopSledSize). */
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
/* The site's mnemonic (the cluster loads by this pass's table, the rest by the decoder's). */
HS_INTERNAL const char *hs_b0a0_site_mnemonic(const struct hs_b0a0_scan *s,
                                              const struct isa_inst *in);
/* The site kinds as reports name them ("in place", "trampoline", "left alone"). */
HS_INTERNAL const char *hs_b0a0_site_class(enum hs_b0a0_site kind);

#endif
