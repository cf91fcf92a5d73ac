/*
 * The edit plan: everything a rewrite call will change, recorded by the passes and
 * consumed by a writer.  Passes never touch the object; they add
 *   - in-place byte patches of the input (overlap-checked: two edits of one byte fail),
 *   - reservations from the one pool allocator every pass shares (alignment, vaddr),
 *   - symbols to add to .symtab,
 *   - per-kernel resource changes, merged across passes (max of SGPR/VGPR needs, min of
 *     INST_PREF_SIZE clamps, one new entry point),
 *   - the provenance transforms and target state,
 *   - per-kind counts and at most one note for the report.
 * hs_plan_finalize turns the merged kernel changes into descriptor patches and metadata
 * updates, so the writer sees bytes, never passes.  Whether anything changed, the
 * provenance and the report's counters are read off the plan.  See docs/rewriter.md.
 */
#ifndef HS_PLAN_H
#define HS_PLAN_H

#include "object.h"

/*
 * What the plan does with a required edit that cannot be placed: fail closed, unless the
 * caller asked for HS_REWRITE_BEST_EFFORT without HS_REWRITE_STRICT.
 */
enum hs_plan_policy {
	HS_PLAN_DECLINE = 0, /* decline it: count it, the output goes without it */
	HS_PLAN_STRICT,      /* fail the call with HS_ERROR */
};

struct hs_patch {
	uint64_t off; /* file offset in the input */
	size_t len;
	uint8_t *bytes; /* owned */
};

struct hs_plan_symbol {
	char *name; /* owned */
	uint64_t value, size;
	bool in_pool;   /* defined in the pool's code section (else in section shndx) */
	uint16_t shndx; /* an input section, when !in_pool */
};

/* The merged resource changes of one kernel (index as in the object's kernels). */
struct hs_kernel_change {
	bool new_entry;
	uint64_t entry;         /* vaddr the descriptor points at, when new_entry */
	uint64_t sgpr_need;     /* .sgpr_count becomes at least this (0: no need) */
	uint64_t vgpr_need;     /* .vgpr_count likewise */
	bool vgpr_granules_set; /* RSRC1's VGPR granule field rises to vgpr_granules */
	uint32_t vgpr_granules; /* granulated_workitem_vgpr_count (granules - 1), at least */
	uint32_t inst_pref_max; /* INST_PREF_SIZE is clamped to this; UINT32_MAX: no clamp */
};

/* The pool: one new executable segment after every allocated byte, shared by all passes. */
struct hs_pool {
	bool open;           /* placed (vaddr/off chosen) by the first reservation */
	uint64_t vaddr, off; /* page aligned vaddr; file offset congruent to it */
	uint8_t *bytes;      /* used bytes, zero between reservations */
	uint64_t used, cap;
	uint64_t align; /* the largest alignment reserved (the code section's) */
};

struct hs_plan {
	const struct hs_object *o;
	enum hs_plan_policy policy;
	struct hs_patch *patch;
	size_t n_patch, cap_patch;
	struct hs_pool pool;
	struct hs_plan_symbol *sym;
	size_t n_sym, cap_sym;
	struct hs_kernel_change *kc; /* o->ks.n entries */
	struct hs_meta_update *meta; /* string retags by passes, then counts by hs_plan_finalize */
	size_t n_meta;
	uint32_t transforms; /* HS_XFORM_* for the provenance note */
	/*
	 * A translation note record (hs_translation_record), owned; written after the
	 * provenance note, and it makes the writer add that note even with no pool bytes.
	 */
	uint8_t *xlat_note;
	size_t xlat_note_size;
	uint32_t state; /* HS_STATE_* the edits were made for */
	uint32_t count[HS_COUNT_CAPACITY];
	enum hs_reason note_reason; /* a note for the report (HS_REASON_NONE: none) */
	char note[512];
};

/* Where a new pool goes: vaddr after every allocated byte, file offset page-congruent. */
HS_INTERNAL enum hs_status hs_pool_place(const struct cob_elf *e, uint64_t *vaddr, uint64_t *off);

HS_INTERNAL enum hs_status hs_plan_init(struct hs_plan *p, const struct hs_object *o,
                                        enum hs_plan_policy policy);
HS_INTERNAL void hs_plan_free(struct hs_plan *p);

/* Replaces input bytes [off, off + len) (inside the file, overlapping no other patch). */
HS_INTERNAL enum hs_status hs_plan_patch(struct hs_plan *p, uint64_t off, const void *bytes,
                                         size_t len);
/*
 * Reserves size bytes of the pool at an align-aligned vaddr (align a power of two, at
 * most the pool's page alignment); *vaddr gets it, *bytes (may be NULL) the zeroed space
 * to fill, valid until the next reservation.
 */
HS_INTERNAL enum hs_status hs_plan_reserve(struct hs_plan *p, uint64_t size, uint64_t align,
                                           uint64_t *vaddr, uint8_t **bytes);
/* Where the next reservation of align bytes would start (the pool placed if still closed). */
HS_INTERNAL enum hs_status hs_plan_next_vaddr(const struct hs_plan *p, uint64_t align,
                                              uint64_t *vaddr);
HS_INTERNAL enum hs_status hs_plan_symbol(struct hs_plan *p, const char *name, uint64_t value,
                                          uint64_t size, bool in_pool, uint16_t shndx);
/* Kernel k's descriptor will point at entry (one new entry per kernel: a second is HS_ERROR). */
HS_INTERNAL enum hs_status hs_plan_kernel_entry(struct hs_plan *p, size_t k, uint64_t entry);
HS_INTERNAL void hs_plan_kernel_sgprs(struct hs_plan *p, size_t k, uint64_t need);
HS_INTERNAL void hs_plan_kernel_vgprs(struct hs_plan *p, size_t k, uint64_t need);
/* RSRC1 granulated_workitem_vgpr_count of kernel k becomes at least field (the max wins). */
HS_INTERNAL void hs_plan_kernel_vgpr_granules(struct hs_plan *p, size_t k, uint32_t field);
HS_INTERNAL void hs_plan_kernel_inst_pref(struct hs_plan *p, size_t k, uint32_t max);
/* The target state the edits assume; a second, different state is HS_ERROR. */
HS_INTERNAL enum hs_status hs_plan_state(struct hs_plan *p, uint32_t state);
/*
 * A required edit that cannot be placed: HS_ERROR (reason HS_REASON_CANNOT_APPLY) with
 * the message under HS_PLAN_STRICT, else counted as declined (count[declined_kind]) and HS_OK.
 */
HS_INTERNAL enum hs_status hs_plan_decline(struct hs_plan *p, enum hs_count declined_kind,
                                           const char *fmt, ...) HS_PRINTF(3, 4);
/*
 * Metadata kernel `kernel`'s key (static storage) takes the value obj of another metadata
 * (hs_meta_get_value; it must outlive the write), added if missing; obj NULL removes the key.
 */
HS_INTERNAL enum hs_status hs_plan_meta_carry(struct hs_plan *p, int kernel, const char *key,
                                              const void *obj);
/* A string metadata key of metadata kernel `kernel` becomes str (static storage). */
HS_INTERNAL enum hs_status hs_plan_meta_str(struct hs_plan *p, int kernel, const char *key,
                                            const char *str);
/* Sets the report's note (the last one wins), also logged at info level. */
HS_INTERNAL void hs_plan_note(struct hs_plan *p, enum hs_reason reason, const char *fmt, ...)
    HS_PRINTF(3, 4);

/* Kernel changes -> descriptor patches and metadata updates (once, after every pass). */
HS_INTERNAL enum hs_status hs_plan_finalize(struct hs_plan *p);
/* True when the plan changes nothing: the output is the input. */
HS_INTERNAL bool hs_plan_empty(const struct hs_plan *p);

#endif
