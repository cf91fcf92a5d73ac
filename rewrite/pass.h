/*
 * The pass table: every transform of a rewrite call is one const row (name, report bit,
 * when it runs, plan function).  A pass reads the immutable object and adds to the plan;
 * what it needs to remember between kernels stays inside the pass.  rewrite.c runs the
 * rows in order; the writer never learns which row an edit came from (docs/rewriter.md).
 */
#ifndef HS_PASS_H
#define HS_PASS_H

#include "decoder.h"
#include "plan.h"

/* What a pass may read: the call's options and ISA pair, the object, the shared decoder. */
struct hs_pass_ctx {
	uint64_t flags; /* HS_REWRITE_* */
	const struct hs_object *o;
	struct hs_isa src, dst;
	struct hs_decoder *dec; /* created on first use, released by rewrite.c */
	uint32_t ran;           /* HS_PASS_* bits of the rows that ran so far */
};

struct hs_pass {
	const char *name;    /* as the launcher prints it: "entry-trampolines" */
	uint32_t report_bit; /* HS_PASS_* */
	uint64_t flag;       /* the option that asks for it; 0: runs whenever it applies */
	uint64_t off_flag;   /* the option that turns it off (HS_REWRITE_NO_B0A0); 0: none */
	uint32_t after;      /* runs only when these rows ran before it */
	/*
	 * Whether this object and ISA pair can use the pass (NULL: always).  When it is
	 * asked for but does not apply, rewrite.c says so in the report with why.
	 */
	bool (*applies)(const struct hs_pass_ctx *c, char *why, size_t why_size);
	enum hs_status (*plan)(const struct hs_pass_ctx *c, struct hs_plan *p);
};

/* The rows, in the order they run (pass_table.c). */
HS_INTERNAL extern const struct hs_pass hs_pass_table[];
HS_INTERNAL extern const size_t hs_pass_count;

/* The entry-trampoline pass (pass_entry.c). */
HS_INTERNAL bool hs_pass_entry_applies(const struct hs_pass_ctx *c, char *why, size_t why_size);
HS_INTERNAL enum hs_status hs_pass_entry(const struct hs_pass_ctx *c, struct hs_plan *p);
/* Scratch pair and new count for .sgpr_count = count; -1 when count > 108. */
HS_INTERNAL int hs_scratch_pair(uint64_t count, unsigned *pair, uint64_t *new_count);
/* The gfx1250 B0->A0 instruction pass (pass_b0a0.c). */
HS_INTERNAL bool hs_pass_b0a0_applies(const struct hs_pass_ctx *c, char *why, size_t why_size);
HS_INTERNAL enum hs_status hs_pass_b0a0(const struct hs_pass_ctx *c, struct hs_plan *p);
/* The stub-symbol pass (pass_stubsyms.c): <kernel>.stub for every stub that has none. */
HS_INTERNAL enum hs_status hs_pass_stubsyms(const struct hs_pass_ctx *c, struct hs_plan *p);

#endif
