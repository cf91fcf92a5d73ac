/* `mirage rewrite`: the rewriter from the shell, through the discovered tree. */
#include "command.h"
#include "msg.h"
#include "output.h"
#include "progress.h"
#include "rewriter_input.h"
#include "translation_verdicts.h"

#include "atomic_file.h"
#include "gfx_table.h"
#include "hotswap_contract.h"
#include "rewriter_dl.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum rewrite_opt {
	REWRITE_OUTPUT,
	REWRITE_SOURCE,
	REWRITE_TARGET,
	REWRITE_ENTRY_TRAMPOLINES,
	REWRITE_STRICT,
	REWRITE_STUB_SYMBOLS,
	REWRITE_B0A0,
	REWRITE_BEST_EFFORT,
	REWRITE_ALL_KERNELS,
	REWRITE_NOPTS
};
static const struct opt_spec rewrite_opts[REWRITE_NOPTS + 1] = {
    [REWRITE_OUTPUT] =
        {.name = "output",
         .short_name = 'o',
         .type = OPT_PATH,
         .help = "where to write the rewritten code object (required; - is standard output)"},
    [REWRITE_SOURCE] = {.name = "source",
                        .type = OPT_GFX_SOURCE,
                        .arg_name = "ISA",
                        .help = "what the code was built for (default: the code object's own ISA)"},
    [REWRITE_TARGET] = {.name = "target",
                        .type = OPT_GFX_TARGET,
                        .arg_name = "ISA",
                        .help = "what it should run on (default: the source; gfx942 or gfx950 "
                                "translates gfx1250 code)"},
    [REWRITE_ENTRY_TRAMPOLINES] = {.name = "entry-trampolines",
                                   .type = OPT_BOOL,
                                   .flags = OPT_NEGATABLE,
                                   .help = "retrofit the gfx12.5 entry-prologue erratum fix"},
    [REWRITE_STRICT] = {.name = "strict",
                        .type = OPT_BOOL,
                        .flags = OPT_NEGATABLE,
                        .help = "fail when a required patch cannot be placed"},
    [REWRITE_STUB_SYMBOLS] = {.name = "stub-symbols",
                              .type = OPT_BOOL,
                              .flags = OPT_NEGATABLE,
                              .help = "name each stub <kernel>.stub in .symtab",
                              .def = "true"},
    [REWRITE_B0A0] = {.name = "b0a0",
                      .type = OPT_BOOL,
                      .flags = OPT_NEGATABLE,
                      .help = "run the gfx1250 B0->A0 pass when the ISA pair selects it",
                      .def = "true"},
    [REWRITE_BEST_EFFORT] = {.name = "best-effort",
                             .type = OPT_BOOL,
                             .help = "decline and count required B0->A0 sites that cannot be "
                                     "placed, instead of failing (never with --strict)"},
    [REWRITE_ALL_KERNELS] = {.name = "all-kernels",
                             .type = OPT_BOOL,
                             .flags = OPT_NEGATABLE,
                             .help = "refuse a translation whole when the translator refuses one "
                                     "of its kernels (without it each refused kernel is written "
                                     "as an entry that traps, and rewrite exits 3)"},
};

/* The kernels with their descriptor fields are always listed: --kernels (part of the documented
 * command line, README.md) asks for that default explicitly; the rest add to it. */
/*
 * Writes the rewritten object to OUT: whole or not at all for a file (a failure leaves no
 * OUT behind), to standard output for "-".
 */
static int write_output(const char *out, const void *data, size_t size)
{
	if (!is_std_stream(out)) {
		if (atomic_write_file(out, data, size, 0644, ATOMIC_REPLACE) < 0)
			return error_errno("cannot write '%s'", out);
		return 0;
	}
	if (fwrite(data, 1, size, stdout) != size || fflush(stdout) != 0)
		return error_errno("cannot write the code object to standard output");
	return 0;
}

/*
 * -o - is refused where its bytes would be lost in other output: with --json (one JSON
 * document on stdout) and on a terminal (as curl does for binary output).
 */
static int check_std_output(const struct cmd_ctx *ctx, const char *out)
{
	if (!is_std_stream(out))
		return 0;
	if (ctx->json) {
		usage_error("--json and -o - would both write to standard output");
		hint("give -o FILE with --json");
		return EXIT_USAGE;
	}
	if (isatty(STDOUT_FILENO)) {
		usage_error("-o - would write a binary code object to the terminal");
		hint("redirect standard output (mirage rewrite IN -o - > OUT.co) or give -o FILE");
		return EXIT_USAGE;
	}
	print_text_on_stderr(); /* the report follows the object on stderr */
	return 0;
}

/* The passes a report can name, in the order they run. */
static const struct {
	uint32_t bit;
	const char *name;
} pass_names[] = {
    {HS_PASS_VALIDATE, "validate"},         {HS_PASS_ENTRY_TRAMPOLINES, "entry-trampolines"},
    {HS_PASS_STUB_SYMBOLS, "stub-symbols"}, {HS_PASS_B0A0, "b0a0"},
    {HS_PASS_TRANSLATE, "translate"},       {HS_PASS_METADATA, "metadata"}};

/* The B0->A0 pass's counters (report count[] kinds) as the report names them. */
static const struct {
	unsigned kind;
	const char *name;
} b0a0_counts[] = {
    {HS_COUNT_B0A0_CLUSTER_LOAD, "cluster_load"},
    {HS_COUNT_B0A0_ISFIRST, "barrier_isfirst"},
    {HS_COUNT_B0A0_DS2, "ds2"},
    {HS_COUNT_B0A0_ADDTID, "addtid"},
    {HS_COUNT_B0A0_DS2_DECLINED, "ds2_declined"},
    {HS_COUNT_B0A0_ADDTID_DECLINED, "addtid_declined"},
    {HS_COUNT_B0A0_LEFT_SADDR, "left_saddr"},
    {HS_COUNT_B0A0_LEFT_M0, "left_isfirst_register"},
    {HS_COUNT_B0A0_IN_SLED, "in_sled"},
    {HS_COUNT_B0A0_IN_POOL, "in_pool"},
    {HS_COUNT_B0A0_LONG_JUMP, "long_jump"},
    {HS_COUNT_B0A0_RETAGGED, "retagged"},
    {HS_COUNT_B0A0_CERTIFIED, "certified_a0"},
    {HS_COUNT_B0A0_UNDECODABLE, "undecodable"},
    {HS_COUNT_B0A0_FAR_JUMPS, "far_jumps"},
    {HS_COUNT_B0A0_FAR_PAIR_KERNELS, "far_pair_kernels"},
    {HS_COUNT_B0A0_FAR_PAIR_LOW, "far_pair_low"},
    {HS_COUNT_B0A0_FAR_PAIR_HIGH, "far_pair_high"},
};

static cJSON *report_json(const struct hs_rewrite_report *r, const char *in, const char *out)
{
	cJSON *o = cJSON_CreateObject();
	char hex[24];
	cJSON_AddStringToObject(o, "input", in);
	cJSON_AddStringToObject(o, "output", out);
	cJSON_AddBoolToObject(o, "changed", r->changed);
	cJSON *passes = cJSON_AddArrayToObject(o, "passes");
	for (size_t i = 0; i < sizeof(pass_names) / sizeof(pass_names[0]); i++)
		if (r->passes_run & pass_names[i].bit)
			cJSON_AddItemToArray(passes, cJSON_CreateString(pass_names[i].name));
	cJSON_AddNumberToObject(o, "kernels", r->kernels);
	cJSON_AddNumberToObject(o, "kernels_stubbed", r->kernels_stubbed);
	cJSON_AddNumberToObject(o, "kernels_skip_prologue", r->kernels_skip_prologue);
	cJSON_AddNumberToObject(o, "kernels_skip_stubbed", r->kernels_skip_stubbed);
	cJSON_AddNumberToObject(o, "symbols_added", r->symbols_added);
	cJSON_AddBoolToObject(o, "symbols_skipped", r->symbols_skipped);
	cJSON_AddNumberToObject(o, "patches_applied", r->patches_applied);
	cJSON_AddNumberToObject(o, "patches_declined", r->patches_declined);
	snprintf(hex, sizeof(hex), "0x%" PRIx64, r->pool_vaddr);
	cJSON_AddStringToObject(o, "pool_vaddr", hex);
	cJSON_AddNumberToObject(o, "pool_size", (double)r->pool_size);
	cJSON_AddNumberToObject(o, "bytes_grown", (double)r->bytes_grown);
	if (r->passes_run & HS_PASS_B0A0) {
		cJSON *b = cJSON_AddObjectToObject(o, "b0a0");
		for (size_t i = 0; i < sizeof(b0a0_counts) / sizeof(b0a0_counts[0]); i++)
			cJSON_AddNumberToObject(b, b0a0_counts[i].name,
			                        r->count[b0a0_counts[i].kind]);
	}
	if (is_translation(r)) {
		cJSON *t = cJSON_AddObjectToObject(o, "translation");
		cJSON_AddNumberToObject(t, "translated", r->count[HS_COUNT_KERNELS_TRANSLATED]);
		cJSON_AddNumberToObject(t, "refused", r->count[HS_COUNT_KERNELS_REFUSED]);
		cJSON_AddBoolToObject(t, "partial", r->reason == HS_REASON_PARTIAL);
	}
	if (r->message[0])
		cJSON_AddStringToObject(o, "note", r->message);
	return o;
}

/* "b0a0: 3 far jumps (5 sites) through s[8:9] in 2 kernels", or "s[8:9]..s[12:13]". */
static void print_far_jumps(const uint32_t *c)
{
	unsigned lo = c[HS_COUNT_B0A0_FAR_PAIR_LOW], hi = c[HS_COUNT_B0A0_FAR_PAIR_HIGH];

	if (lo == hi)
		print_text("  b0a0:     %u far jumps (%u sites) through s[%u:%u] in %u kernel(s)\n",
		           c[HS_COUNT_B0A0_FAR_JUMPS], c[HS_COUNT_B0A0_LONG_JUMP], lo, lo + 1,
		           c[HS_COUNT_B0A0_FAR_PAIR_KERNELS]);
	else
		print_text("  b0a0:     %u far jumps (%u sites) through s[%u:%u]..s[%u:%u] in %u "
		           "kernel(s)\n",
		           c[HS_COUNT_B0A0_FAR_JUMPS], c[HS_COUNT_B0A0_LONG_JUMP], lo, lo + 1, hi,
		           hi + 1, c[HS_COUNT_B0A0_FAR_PAIR_KERNELS]);
}
static void print_report(const struct hs_rewrite_report *r, const char *in, const char *out,
                         const struct rewriter_dl *rw, const struct hs_rewrite_result *res)
{
	struct strbuf passes = STRBUF_INIT;
	for (size_t i = 0; i < sizeof(pass_names) / sizeof(pass_names[0]); i++)
		if (r->passes_run & pass_names[i].bit)
			strbuf_addf(&passes, "%s%s", passes.len ? ", " : "", pass_names[i].name);
	if (!r->changed)
		print_text("'%s' -> '%s': unchanged (byte-identical copy)\n", in, out);
	else if (r->passes_run & HS_PASS_TRANSLATE)
		print_text("'%s' -> '%s': translated, %+" PRId64 " bytes\n", in, out,
		           r->bytes_grown);
	else
		print_text("'%s' -> '%s': rewritten, %+" PRId64 " bytes\n", in, out,
		           r->bytes_grown);
	print_text("  passes:   %s\n", passes.buf);
	if (r->passes_run & HS_PASS_TRANSLATE)
		print_text("  kernels:  %u found, %u translated, %u refused\n", r->kernels,
		           r->count[HS_COUNT_KERNELS_TRANSLATED],
		           r->count[HS_COUNT_KERNELS_REFUSED]);
	else
		print_text("  kernels:  %u found, %u stubbed, %u already had the prologue, %u "
		           "already stubbed\n",
		           r->kernels, r->kernels_stubbed, r->kernels_skip_prologue,
		           r->kernels_skip_stubbed);
	if (r->passes_run & HS_PASS_STUB_SYMBOLS || r->symbols_skipped)
		print_text("  symbols:  %u <kernel>.stub added%s\n", r->symbols_added,
		           r->symbols_skipped ? " (skipped: see note)" : "");
	if (r->patches_applied || r->patches_declined)
		print_text("  patches:  %u applied, %u declined\n", r->patches_applied,
		           r->patches_declined);
	if (r->passes_run & HS_PASS_B0A0) {
		const uint32_t *c = r->count;
		if (c[HS_COUNT_B0A0_CERTIFIED])
			print_text("  b0a0:     every kernel is tagged A0: left alone\n");
		else
			print_text(
			    "  b0a0:     in place %u (cluster_load %u, barrier_isfirst %u); "
			    "moved %u "
			    "(ds2 %u, addtid %u: %u in sleds, %u in the pool, %u by far jumps); "
			    "declined %u (ds2 %u, addtid %u); left alone %u (saddr %u, isfirst "
			    "register %u); retagged %u\n",
			    c[HS_COUNT_B0A0_CLUSTER_LOAD] + c[HS_COUNT_B0A0_ISFIRST],
			    c[HS_COUNT_B0A0_CLUSTER_LOAD], c[HS_COUNT_B0A0_ISFIRST],
			    c[HS_COUNT_B0A0_DS2] + c[HS_COUNT_B0A0_ADDTID], c[HS_COUNT_B0A0_DS2],
			    c[HS_COUNT_B0A0_ADDTID], c[HS_COUNT_B0A0_IN_SLED],
			    c[HS_COUNT_B0A0_IN_POOL], c[HS_COUNT_B0A0_LONG_JUMP],
			    c[HS_COUNT_B0A0_DS2_DECLINED] + c[HS_COUNT_B0A0_ADDTID_DECLINED],
			    c[HS_COUNT_B0A0_DS2_DECLINED], c[HS_COUNT_B0A0_ADDTID_DECLINED],
			    c[HS_COUNT_B0A0_LEFT_SADDR] + c[HS_COUNT_B0A0_LEFT_M0],
			    c[HS_COUNT_B0A0_LEFT_SADDR], c[HS_COUNT_B0A0_LEFT_M0],
			    c[HS_COUNT_B0A0_RETAGGED]);
		if (c[HS_COUNT_B0A0_FAR_PAIR_KERNELS])
			print_far_jumps(c);
		if (c[HS_COUNT_B0A0_UNDECODABLE])
			print_text(
			    "  b0a0:     %u .text region(s) do not decode and were not patched\n",
			    c[HS_COUNT_B0A0_UNDECODABLE]);
	}
	if (r->pool_size && (r->passes_run & HS_PASS_TRANSLATE))
		print_text("  segment:  0x%" PRIx64 ", %" PRIu64 " bytes (the carried metadata, "
		           "program headers)\n",
		           r->pool_vaddr, r->pool_size);
	else if (r->pool_size)
		print_text("  pool:     .hotswap.text at 0x%" PRIx64 ", %" PRIu64 " bytes\n",
		           r->pool_vaddr, r->pool_size);
	if (r->message[0])
		print_text("  note:     %s\n", r->message);
	if (res && (r->passes_run & HS_PASS_TRANSLATE)) {
		struct strbuf lines = STRBUF_INIT;
		verdict_lines(rw, res, false, &lines);
		print_text("%s\n", lines.buf);
		strbuf_release(&lines);
	}
	strbuf_release(&passes);
}

/* Why a translation failed, per kernel, and how to get on (exit 1). */
static void translation_failed(const char *in, const struct hs_rewrite_report *r,
                               const struct rewriter_dl *rw, const struct hs_rewrite_result *res,
                               const char *target)
{
	struct strbuf lines = STRBUF_INIT;

	if (r->reason == HS_REASON_NO_TRANSLATOR) {
		error("cannot translate '%s' for %s: %s", in, target, r->message);
		hint("the HotSwap tree needs " HOTSWAP_TRANSLATE_PATH
		     " beside its " HOTSWAP_REWRITE_LIB
		     ": rebuild mirage (`cmake --build`) or reinstall it; "
		     "`mirage doctor` checks it");
		return;
	}
	verdict_lines(rw, res, true, &lines);
	if (r->count[HS_COUNT_KERNELS_REFUSED] && lines.len) {
		error("cannot translate '%s' for %s: %u of %u kernels refused:\n%s", in, target,
		      r->count[HS_COUNT_KERNELS_REFUSED], r->kernels, lines.buf);
		hint("a refused kernel cannot run on %s; rebuild it for %s from source, or run "
		     "it on a gfx1250",
		     target, target);
	} else {
		error("cannot translate '%s' for %s: %s", in, target, r->message);
		hint("this tree's translator cannot translate it; `mirage doctor` shows what the "
		     "translator can do");
	}
	strbuf_release(&lines);
}

/*
 * The target when --target is not given: the object's own processor, which for gfx1250 means
 * A0 (a named gfx1250 target without a stepping is A0), so plain `mirage rewrite B0.co -o
 * A0.co` runs the B0->A0 pass as the README says; NULL (the source's ISA) otherwise, and with
 * --no-b0a0.
 */
static const char *default_target(const struct rewriter_dl *rw, const struct strbuf *bytes,
                                  bool b0a0)
{
	char proc[32];

	if (!b0a0 || !rw->code_object_isa ||
	    rw->code_object_isa(bytes->buf, bytes->len, NULL, 0, proc, sizeof(proc)) != HS_OK)
		return NULL;
	const struct gfx_info *g = gfx_by_name(proc);
	return gfx_has_a0_stepping(g) ? g->name : NULL;
}

static int rewrite_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *in = a->positional.v[0], *out = args_str(a, REWRITE_OUTPUT), *target;
	const char *in_name = shown_path(in, "<stdin>"), *out_name, *fat;
	struct rewriter_dl rw = REWRITER_DL_INIT;
	struct strbuf bytes = STRBUF_INIT;
	struct hs_rewrite_output result = {0};
	struct hs_rewrite_result *kernels = NULL;
	HS_OPTS(hs_rewrite_report, report);
	HS_OPTS(hs_rewrite_opts, opts);
	enum hs_status st;
	int ret = -1;

	if (!out) {
		usage_error("'rewrite' needs -o OUT");
		hint("usage: mirage rewrite IN -o OUT [--source ISA] [--target ISA] "
		     "[--entry-trampolines]");
		return EXIT_USAGE;
	}
	if ((ret = check_std_output(ctx, out)) != 0)
		return ret;
	ret = -1;
	out_name = shown_path(out, "<stdout>");
	if (args_bool(a, REWRITE_ENTRY_TRAMPOLINES)) {
		opts.flags |= HS_REWRITE_ENTRY_TRAMPOLINES;
		if (args_bool(a, REWRITE_STUB_SYMBOLS))
			opts.flags |= HS_REWRITE_STUB_SYMBOLS;
	}
	if (args_bool(a, REWRITE_STRICT))
		opts.flags |= HS_REWRITE_STRICT;
	if (args_bool(a, REWRITE_ALL_KERNELS))
		opts.flags |= HS_REWRITE_ALL_KERNELS;
	if (!args_bool(a, REWRITE_B0A0))
		opts.flags |= HS_REWRITE_NO_B0A0;
	if (args_bool(a, REWRITE_BEST_EFFORT)) {
		if (args_bool(a, REWRITE_STRICT)) {
			usage_error(
			    "--best-effort and --strict contradict each other: --strict fails on "
			    "any required site that cannot be placed");
			return EXIT_USAGE;
		}
		opts.flags |= HS_REWRITE_BEST_EFFORT;
	}
	if (read_input(in, &bytes) < 0)
		goto out;
	if ((fat = fat_binary_kind(bytes.buf, bytes.len))) {
		error("cannot rewrite '%s': it is %s, and rewrite takes one code object", in_name,
		      fat);
		hint("'mirage inspect %s' lists its code objects; clang-offload-bundler --unbundle "
		     "extracts one",
		     in_name);
		goto out;
	}
	if (load_rewriter(ctx, &rw) < 0)
		goto out;
	if (rw.result_kernels)
		opts.result = &kernels;
	target = args_str(a, REWRITE_TARGET);
	if (!target)
		target = default_target(&rw, &bytes, args_bool(a, REWRITE_B0A0));
	/* A translation on a terminal says how far it is (nothing piped, nor with --json). */
	char doing[96];
	struct count_meter meter;
	snprintf(doing, sizeof(doing), "translating for %s", target ? target : "the target");
	count_meter_start(&meter, doing, "kernel", "lowering and linking");
	if (progress_wanted(ctx->json)) {
		opts.progress = count_meter_step;
		opts.progress_ctx = &meter;
	}
	st = rw.rewrite(bytes.buf, bytes.len, args_str(a, REWRITE_SOURCE), target, &opts, &result,
	                &report);
	count_meter_end(&meter); /* the meter's line ends before the report */
	if (st != HS_OK && is_translation(&report)) {
		if (ctx->json) {
			cJSON *doc = report_json(&report, in, out);
			cJSON_AddItemToObject(doc, "kernel_results", verdicts_json(&rw, kernels));
			output_json(doc);
		}
		translation_failed(in_name, &report, &rw, kernels, target);
		goto out;
	}
	if (st != HS_OK) {
		/* The library's message says what is wrong; its status name is for programs. */
		const char *why = report.message[0] ? report.message : rw.last_error();
		error("cannot rewrite '%s': %s", in_name, why && *why ? why : rw.status_str(st));
		/* An ISA name or pair the user gave is a bad value (2); the rest a failure (1). */
		if (report.reason == HS_REASON_BAD_ARGUMENT ||
		    report.reason == HS_REASON_UNSUPPORTED_PAIR)
			ret = EXIT_USAGE;
		/* Only the missing B0->A0 pass has these ways out, not e.g. "A0 -> B0". */
		if (report.reason == HS_REASON_NEEDS_B0A0)
			hint("pass --target " HOTSWAP_ISA_GFX1250_B0 " (B0) or --no-b0a0");
		goto out;
	}
	if (write_output(out, result.data, result.size) < 0)
		goto out;
	if (ctx->json) {
		cJSON *doc = report_json(&report, in, out);
		if (report.passes_run & HS_PASS_TRANSLATE)
			cJSON_AddItemToObject(doc, "kernel_results", verdicts_json(&rw, kernels));
		output_json(doc);
	} else {
		print_report(&report, in_name, out_name, &rw, kernels);
	}
	ret = EXIT_OK;
	if (report.reason == HS_REASON_PARTIAL) {
		warning("'%s' is partial: %u of %u kernels are entries that trap, since they were "
		        "refused for %s (listed above); a launch of one stops the program",
		        out_name, report.count[HS_COUNT_KERNELS_REFUSED], report.kernels, target);
		hint("--all-kernels refuses the whole object instead");
		ret = EXIT_PARTIAL;
	}
out:
	if (kernels)
		rw.result_free(kernels);
	if (result.data)
		rw.output_release(&result);
	rewriter_dl_close(&rw);
	strbuf_release(&bytes);
	return exit_code(ret);
}

const struct cmd_entry cmd_rewrite_entry = {
    .name = "rewrite",
    .summary = "rewrite a code object (entry trampolines, B0->A0, gfx1250 -> gfx942/gfx950)",
    .usage = "IN -o OUT",
    .opts = rewrite_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_FILE,
    .exec = rewrite_exec,
};
