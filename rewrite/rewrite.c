/* hs_rewrite: argument guards, target selection, the pass pipeline and the report. */
#include "pass.h"
#include "result.h"
#include "route.h"
#include "writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_header.h"
#include "gfx_table.h"

/* One rewrite call: the object, the ISA pair, the plan the passes fill, the report. */
struct hs_ctx {
	uint64_t flags;
	struct hs_object o;
	struct hs_isa src, dst;
	struct hs_decoder dec; /* created only if a pass must decode */
	struct hs_plan plan;
	uint32_t *kernel_passes; /* per kernel: HS_PASS_* of the rows that changed it */
	bool translate;          /* the translation route (route.h), not the pass table */
	struct hs_rewrite_result *xlat_result; /* its per-kernel verdicts */
	struct hs_rewrite_report r;            /* copied out on success */
	struct hs_progress progress;           /* opts.progress */
};

/* The first published versions of the size-guarded structs. */
#define OPTS_V1_SIZE   (offsetof(struct hs_rewrite_opts, flags) + sizeof(uint64_t))
#define REPORT_V1_SIZE (offsetof(struct hs_rewrite_report, message) + 512)
/* Larger than any struct this library will ever have: a guard against garbage sizes. */
#define OPTS_MAX_SIZE 4096

/* Options: too small, or a newer caller's non-zero fields this library does not know, are errors.
 */
static enum hs_status check_opts(const struct hs_rewrite_opts *opts, uint64_t *flags,
                                 struct hs_rewrite_result ***result, struct hs_progress *progress)
{
	*flags = 0;
	*result = NULL;
	*progress = (struct hs_progress){0};
	if (!opts)
		return HS_OK;
	if (opts->sz < OPTS_V1_SIZE)
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
		                   "options size %zu is smaller than the first "
		                   "version of struct hs_rewrite_opts (%zu)",
		                   opts->sz, (size_t)OPTS_V1_SIZE);
	if (opts->sz > OPTS_MAX_SIZE)
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
		                   "options size %zu is implausible", opts->sz);
	for (size_t i = sizeof(*opts); i < opts->sz; i++)
		if (((const uint8_t *)opts)[i])
			return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
			                   "options have non-zero bytes at offset "
			                   "%zu, past the fields this library knows (%zu bytes)",
			                   i, sizeof(*opts));
	if (opts->flags & ~HS_REWRITE_ALL_FLAGS)
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
		                   "unknown option flags 0x%llx",
		                   (unsigned long long)(opts->flags & ~HS_REWRITE_ALL_FLAGS));
	*flags = opts->flags;
	/* A 0.1 caller's struct ends before the field: never read past its sz. */
	if (opts->sz >= offsetof(struct hs_rewrite_opts, result) + sizeof(opts->result))
		*result = opts->result;
	if (opts->sz >= offsetof(struct hs_rewrite_opts, progress_ctx) + sizeof(opts->progress_ctx))
		*progress = (struct hs_progress){opts->progress, opts->progress_ctx};
	return HS_OK;
}

/* Source and target ids against the object: same processor, or a translation (route.h). */
static enum hs_status select_targets(struct hs_ctx *c, const char *source, const char *target)
{
	char err[256];

	if (source) {
		if (hs_isa_parse(source, &c->src, err, sizeof(err)))
			return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
			                   "source ISA: %s", err);
		if (c->src.gfx != c->o.isa.gfx)
			return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
			                   "the code object is for %s, not the "
			                   "source ISA %s",
			                   c->o.isa.gfx->name, c->src.gfx->name);
	} else {
		c->src = c->o.isa;
	}
	/* Defaults, as the reference mirage chose them: the source is B0, a named target A0. */
	if (hs_isa_is_gfx1250(&c->src) && c->src.stepping == HS_STEP_DEFAULT)
		c->src.stepping = HS_STEP_B0;
	if (!target) {
		c->dst = c->src;
		return HS_OK;
	}
	if (hs_isa_parse(target, &c->dst, err, sizeof(err)))
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT, "target ISA: %s",
		                   err);
	if (hs_isa_is_gfx1250(&c->dst) && c->dst.stepping == HS_STEP_DEFAULT)
		c->dst.stepping = HS_STEP_A0;
	if (c->dst.gfx != c->src.gfx) {
		if (hs_route_translates(&c->src, &c->dst)) {
			c->translate = true;
			return HS_OK;
		}
		if (c->dst.gfx->retarget == GFX_RETARGET_CROSS)
			return hs_fail_why(
			    HS_INVALID_ARGUMENT, HS_REASON_UNSUPPORTED_PAIR,
			    "cross-family translation %s -> %s is not supported: the "
			    "translator reads gfx1250 code only",
			    c->src.gfx->name, c->dst.gfx->name);
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_UNSUPPORTED_PAIR,
		                   "rewriting %s code for %s is not supported yet",
		                   c->src.gfx->name, c->dst.gfx->name);
	}
	return HS_OK;
}

/* Refuses the stepping pairs no pass handles, and pools made for another stepping. */
static enum hs_status check_stepping(struct hs_ctx *c)
{
	uint32_t want = c->dst.stepping == HS_STEP_A0   ? HS_STATE_A0
	                : c->dst.stepping == HS_STEP_B0 ? HS_STATE_B0
	                                                : HS_STATE_NEUTRAL;

	if (hs_isa_is_gfx1250(&c->src) && c->src.stepping == HS_STEP_A0 &&
	    c->dst.stepping == HS_STEP_B0)
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_UNSUPPORTED_PAIR,
		                   "gfx1250 A0 -> B0 is not supported");
	/* A pool made for one stepping is never certified for another. */
	for (size_t i = 0; i < c->o.n_prov; i++)
		if (c->o.prov[i].state != HS_STATE_NEUTRAL && c->o.prov[i].state != want)
			return hs_fail_why(HS_ERROR, HS_REASON_STEPPING_CONFLICT,
			                   "the object carries a pool made for stepping %s, "
			                   "incompatible with the target stepping %s",
			                   hs_state_name(c->o.prov[i].state),
			                   hs_stepping_name(c->dst.stepping));
	return HS_OK;
}

/* Every metadata kernel needs a descriptor to join: an orphan is a bad object here. */
static enum hs_status check_joined(const struct hs_object *o)
{
	char name[256];

	if (o->meta_unjoined < 0)
		return HS_OK;
	return hs_fail(HS_INVALID_ARGUMENT, "metadata kernel '%s' has no kernel descriptor symbol",
	               hs_meta_kernel_name(o->meta, o->meta_unjoined, name, sizeof(name)) ? name
	                                                                                  : "?");
}

static void ctx_free(struct hs_ctx *c)
{
	hs_plan_free(&c->plan);
	hs_rewrite_result_free(c->xlat_result);
	free(c->kernel_passes);
	hs_decoder_release(&c->dec);
	hs_object_free(&c->o);
}

/* Runs the pass table's rows that the options ask for and the object can use. */
static enum hs_status run_passes(struct hs_ctx *c)
{
	struct hs_pass_ctx pc = {
	    .flags = c->flags, .o = &c->o, .src = c->src, .dst = c->dst, .dec = &c->dec};
	size_t n = c->o.ks.n;
	struct hs_kernel_change *before = calloc(n ? n : 1, sizeof(*before));
	char why[256];
	enum hs_status st = HS_OK;

	c->kernel_passes = calloc(n ? n : 1, sizeof(*c->kernel_passes));
	if (!before || !c->kernel_passes) {
		free(before);
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	}
	for (size_t i = 0; i < hs_pass_count && !st; i++) {
		const struct hs_pass *pass = &hs_pass_table[i];

		if ((pass->flag && !(c->flags & pass->flag)) || (c->flags & pass->off_flag))
			continue;
		if ((pc.ran & pass->after) != pass->after)
			continue;
		if (pass->applies && !pass->applies(&pc, why, sizeof(why))) {
			/* Asked for by name: say it did not run, rather than return a silent copy.
			 */
			if (pass->flag)
				hs_plan_note(&c->plan, HS_REASON_PASS_NOT_APPLICABLE, "%s", why);
			continue;
		}
		memcpy(before, c->plan.kc, n * sizeof(*before));
		st = pass->plan(&pc, &c->plan);
		if (st)
			break;
		pc.ran |= pass->report_bit;
		/* Which kernels this row changed, for the per-kernel results. */
		for (size_t k = 0; k < n; k++)
			if (memcmp(&before[k], &c->plan.kc[k], sizeof(before[k])))
				c->kernel_passes[k] |= pass->report_bit;
	}
	free(before);
	c->r.passes_run |= pc.ran;
	return st;
}

/* What the report says, read off the plan. */
static void report_from_plan(struct hs_ctx *c)
{
	const struct hs_plan *p = &c->plan;
	struct hs_rewrite_report *r = &c->r;

	memcpy(r->count, p->count, sizeof(r->count));
	r->count[HS_COUNT_KERNELS] = (uint32_t)c->o.ks.n;
	r->kernels = r->count[HS_COUNT_KERNELS];
	r->kernels_stubbed = r->count[HS_COUNT_KERNELS_STUBBED];
	r->kernels_skip_prologue = r->count[HS_COUNT_SKIP_PROLOGUE];
	r->kernels_skip_stubbed = r->count[HS_COUNT_SKIP_STUBBED];
	r->symbols_added = r->count[HS_COUNT_SYMBOLS_ADDED];
	r->patches_applied = r->count[HS_COUNT_PATCHES_APPLIED];
	r->patches_declined = r->count[HS_COUNT_PATCHES_DECLINED];
	r->symbols_skipped = p->note_reason == HS_REASON_SYMBOLS_SKIPPED;
	if (p->n_meta)
		r->passes_run |= HS_PASS_METADATA;
	r->reason = p->note_reason;
	snprintf(r->message, sizeof(r->message), "%s", p->note);
}

/*
 * The translation route instead of the pass table: none of the passes runs on a translated
 * object (the gfx12.5 entry erratum and the B0->A0 edits are gfx1250 facts), so asking for one
 * is a note, as for any pass that does not apply.
 */
static enum hs_status run_translation(struct hs_ctx *c, struct hs_rewrite_output *out)
{
	struct hs_route_ctx rc = {
	    .flags = c->flags, .src = &c->o, .dst = &c->dst, .progress = c->progress};
	struct hs_written w;
	enum hs_status st;

	st = hs_route_translate(&rc, &w, &c->r, &c->xlat_result);
	if (st)
		return st;
	if ((c->flags & HS_REWRITE_ENTRY_TRAMPOLINES) && c->r.reason == HS_REASON_NONE) {
		c->r.reason = HS_REASON_PASS_NOT_APPLICABLE;
		snprintf(
		    c->r.message, sizeof(c->r.message),
		    "entry trampolines are a gfx12.5 erratum fix; a translation to %s needs none",
		    c->dst.gfx->name);
	}
	out->data = w.data;
	out->size = w.size;
	return HS_OK;
}

static enum hs_status run(struct hs_ctx *c, const void *in, size_t in_size, const char *source,
                          const char *target, struct hs_rewrite_output *out)
{
	struct hs_written w;
	enum hs_status st;

	st = hs_object_load(&c->o, in, in_size);
	if (!st)
		st = select_targets(c, source, target);
	if (!st)
		st = check_joined(&c->o);
	if (!st && c->translate) {
		c->r.passes_run |= HS_PASS_VALIDATE;
		return run_translation(c, out);
	}
	if (!st)
		st = check_stepping(c);
	if (!st)
		st = hs_plan_init(&c->plan, &c->o,
		                  (c->flags & HS_REWRITE_BEST_EFFORT) &&
		                          !(c->flags & HS_REWRITE_STRICT)
		                      ? HS_PLAN_DECLINE
		                      : HS_PLAN_STRICT);
	if (st)
		return st;
	c->r.passes_run |= HS_PASS_VALIDATE;
	st = run_passes(c);
	if (!st)
		st = hs_plan_finalize(&c->plan);
	if (st)
		return st;
	report_from_plan(c);
	if (hs_plan_empty(&c->plan)) {
		/* Nothing to do: the output is the input, byte for byte. */
		out->data = malloc(in_size);
		if (!out->data)
			return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		memcpy(out->data, in, in_size);
		out->size = in_size;
		return HS_OK;
	}
	st = hs_patch_writer.write(&c->o, &c->plan, &w);
	if (st)
		return st;
	out->data = w.data;
	out->size = w.size;
	c->r.changed = true;
	c->r.pool_vaddr = w.pool_vaddr;
	c->r.pool_size = w.pool_size;
	c->r.bytes_grown = (int64_t)w.size - (int64_t)in_size;
	return HS_OK;
}

/*
 * Copies r (NULL: the calling thread's failure, over partial's counts when set) into the
 * caller's report: only the fields both sides know, the smaller of its sz and ours; a newer
 * caller's tail is theirs.
 */
static void fill_report(struct hs_rewrite_report *report, const struct hs_rewrite_report *r,
                        const struct hs_rewrite_report *partial)
{
	struct hs_rewrite_report failed = {0};
	size_t n = report->sz < sizeof(*report) ? report->sz : sizeof(*report);

	if (!r) {
		/* A failed translation still says how many kernels it translated and refused. */
		if (partial)
			failed = *partial;
		snprintf(failed.message, sizeof(failed.message), "%s", hs_last_error());
		failed.reason = hs_last_reason();
		r = &failed;
	}
	memcpy((char *)report + sizeof(report->sz), (const char *)r + sizeof(r->sz),
	       n - sizeof(report->sz));
}

HS_API enum hs_status hs_rewrite(const void *in, size_t in_size, const char *source_isa,
                                 const char *target_isa, const struct hs_rewrite_opts *opts,
                                 struct hs_rewrite_output *out, struct hs_rewrite_report *report)
{
	struct hs_ctx *c = NULL;
	struct hs_rewrite_output res = {0};
	struct hs_rewrite_result **result = NULL;
	struct hs_progress progress;
	enum hs_status st;
	uint64_t flags;

	hs_clear_error();
	if (report && report->sz < REPORT_V1_SIZE) {
		st = hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
		                 "report size %zu is smaller than the first "
		                 "version of struct hs_rewrite_report (%zu)",
		                 report->sz, (size_t)REPORT_V1_SIZE);
		report = NULL; /* too small to hold anything we could say */
		goto cleanup;
	}
	st = check_opts(opts, &flags, &result, &progress);
	if (result)
		*result = NULL;
	if (st)
		goto cleanup;
	if (!in || in_size == 0 || !out) {
		st = hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT, "%s",
		                 !out ? "no output argument" : "empty input");
		goto cleanup;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		goto cleanup;
	}
	c->flags = flags;
	c->progress = progress;
	st = run(c, in, in_size, source_isa, target_isa, &res);
	if (c->translate && result &&
	    (st == HS_OK || hs_last_reason() == HS_REASON_TRANSLATION_REFUSED)) {
		/* A translation's verdicts, refusals included: which kernels and why. */
		*result = c->xlat_result;
		c->xlat_result = NULL;
	} else if (st == HS_OK && result) {
		st = hs_result_build(&c->o, &c->plan, c->kernel_passes, result);
		if (st)
			hs_rewrite_output_release(&res);
	}
	if (st == HS_OK)
		*out = res;
cleanup:
	if (report)
		fill_report(report, st == HS_OK && c ? &c->r : NULL,
		            c && c->translate ? &c->r : NULL);
	if (c)
		ctx_free(c);
	free(c);
	return st;
}

HS_API void hs_rewrite_output_release(struct hs_rewrite_output *out)
{
	if (!out)
		return;
	free(out->data);
	out->data = NULL;
	out->size = 0;
}

HS_API enum hs_status hs_code_object_isa(const void *in, size_t in_size, char *buf, size_t buf_size,
                                         char *proc, size_t proc_size)
{
	struct hs_isa isa;
	Elf64_Ehdr eh;
	enum hs_status st;

	hs_clear_error();
	if (!in)
		return hs_fail(HS_INVALID_ARGUMENT, "no input");
	st = hs_elf_check_header(in, in_size);
	if (st)
		return st;
	elf64_header_read(in, in_size, &eh);
	st = hs_isa_read_elf(eh.e_flags, eh.e_ident[EI_ABIVERSION], &isa);
	if (st)
		return st;
	if (buf && !hs_isa_format(&isa, buf, buf_size))
		return hs_fail(HS_INVALID_ARGUMENT, "ISA name buffer of %zu bytes is too small",
		               buf_size);
	if (proc && (size_t)snprintf(proc, proc_size, "%s", isa.gfx->name) >= proc_size)
		return hs_fail(HS_INVALID_ARGUMENT, "processor buffer of %zu bytes is too small",
		               proc_size);
	return HS_OK;
}
