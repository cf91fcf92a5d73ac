/* `mirage inspect`: a code object described by the tree's rewriter (its ISA, kernels,
 * descriptors, metadata, pool, B0-only sites, disassembly), or the device code objects of an
 * offload bundle or a HIP program's fat binary, each described so. */
#include "command.h"
#include "msg.h"
#include "output.h"
#include "rewriter_input.h"
#include "translation_verdicts.h"

#include "bundle.h"
#include "gfx_route.h"
#include "gfx_table.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum inspect_opt {
	INSPECT_KERNELS,
	INSPECT_DISASM,
	INSPECT_NOTES,
	INSPECT_TARGET,
	INSPECT_NOPTS
};
static const struct opt_spec inspect_opts[INSPECT_NOPTS + 1] = {
    [INSPECT_KERNELS] = {.name = "kernels",
                         .type = OPT_BOOL,
                         .help = "list kernels with their descriptor fields (default)"},
    [INSPECT_DISASM] = {.name = "disasm",
                        .type = OPT_STRING,
                        .arg_name = "KERNEL",
                        .flags = OPT_ARG_OPTIONAL,
                        .help = "disassemble every kernel, or only KERNEL (loads LLVM)"},
    [INSPECT_NOTES] = {.name = "notes",
                       .type = OPT_BOOL,
                       .help = "show the metadata and every note"},
    [INSPECT_TARGET] = {.name = "target",
                        .type = OPT_GFX_TARGET,
                        .arg_name = "ISA",
                        .help = "say whether each code object runs on ISA as it is, or which of "
                                "its kernels translate (loads the translator)"},
};

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}

static double jnum(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : -1;
}

static bool jtrue(const cJSON *o, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* Prints the fields of a decoded register ("raw" first, then each field). */
static void print_fields(const char *label, const cJSON *reg)
{
	const cJSON *f;
	print_text("      %-18s 0x%08lx", label, (unsigned long)jnum(reg, "raw"));
	cJSON_ArrayForEach(f, reg)
	{
		if (strcmp(f->string, "raw") && cJSON_IsNumber(f) && f->valuedouble != 0)
			print_text(" %s=%.0f", f->string, f->valuedouble);
	}
	print_text("\n");
}

static void print_kernel(const cJSON *k, bool disasm)
{
	const cJSON *kd = cJSON_GetObjectItemCaseSensitive(k, "descriptor");
	const char *state = jtrue(k, "entry_is_stub")        ? "entry stub"
	                    : jtrue(k, "entry_has_prologue") ? "has the entry prologue"
	                                                     : "no entry prologue";
	print_text("  %s", jstr(k, "name"));
	if (*jstr(k, "metadata_name") && strcmp(jstr(k, "metadata_name"), jstr(k, "name")))
		print_text(" (metadata name %s)", jstr(k, "metadata_name"));
	print_text("\n    entry %s  [%s", jstr(k, "entry"), state);
	if (jtrue(k, "entry_is_stub"))
		print_text(" -> %s, scratch %s", jstr(k, "stub_target"), jstr(k, "stub_scratch"));
	print_text("]\n");
	if (jnum(k, "sgpr_count") >= 0)
		print_text("    sgpr_count %.0f  vgpr_count %.0f\n", jnum(k, "sgpr_count"),
		           jnum(k, "vgpr_count"));
	if (kd) {
		print_text(
		    "    descriptor: kernarg %.0f bytes, group %.0f, private %.0f, entry offset "
		    "%.0f\n",
		    jnum(kd, "kernarg_size"), jnum(kd, "group_segment_fixed_size"),
		    jnum(kd, "private_segment_fixed_size"),
		    jnum(kd, "kernel_code_entry_byte_offset"));
		print_fields("compute_pgm_rsrc1",
		             cJSON_GetObjectItemCaseSensitive(kd, "compute_pgm_rsrc1"));
		print_fields("compute_pgm_rsrc2",
		             cJSON_GetObjectItemCaseSensitive(kd, "compute_pgm_rsrc2"));
		print_fields("compute_pgm_rsrc3",
		             cJSON_GetObjectItemCaseSensitive(kd, "compute_pgm_rsrc3"));
	}
	{
		/* What a B0->A0 rewrite would do here (gfx1250 kernels with B0-only sites). */
		const cJSON *site, *sites = cJSON_GetObjectItemCaseSensitive(k, "b0a0_sites");
		if (cJSON_GetArraySize(sites))
			print_text("    B0-only sites (%d):\n", cJSON_GetArraySize(sites));
		cJSON_ArrayForEach(site, sites)
		{
			print_text("      %-8s %-36s %s\n", jstr(site, "vaddr"),
			           jstr(site, "instruction"), jstr(site, "b0a0"));
		}
	}
	if (disasm) {
		const cJSON *line;
		cJSON_ArrayForEach(line, cJSON_GetObjectItemCaseSensitive(k, "disasm"))
		{
			if (*jstr(line, "label"))
				print_text("    <%s>:\n", jstr(line, "label"));
			print_text("      %-8s %s\n", jstr(line, "vaddr"), jstr(line, "text"));
		}
	}
}

static void print_inspection(const char *path, const cJSON *doc, bool disasm, bool notes)
{
	const cJSON *k, *p, *n;
	const cJSON *kernels = cJSON_GetObjectItemCaseSensitive(doc, "kernels");
	print_text("%s: %s (%s)\n", path, jstr(doc, "isa"), jstr(doc, "processor"));
	print_text("kernels: %d\n", cJSON_GetArraySize(kernels));
	if (jnum(doc, "metadata_notes_left_out") > 0)
		print_text(
		    "metadata: %.0f note(s) left out: another amdhsa.version (or amdhsa.printf) "
		    "than the first, as the HSA runtime reads them\n",
		    jnum(doc, "metadata_notes_left_out"));
	cJSON_ArrayForEach(k, kernels) print_kernel(k, disasm);
	{
		const cJSON *x = cJSON_GetObjectItemCaseSensitive(doc, "translation");
		if (x)
			print_text("translation: from %s for %s, translator %s\n",
			           jstr(x, "source_isa"), jstr(x, "target_isa"),
			           jstr(x, "translator_build"));
	}
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(doc, "pools"))
	{
		/* A translation's segment holds moved notes and headers, not code. */
		if (jtrue(p, "translate")) {
			print_text("pool: %s, %.0f bytes (translation: metadata and headers)\n",
			           jstr(p, "vaddr"), jnum(p, "size"));
			continue;
		}
		print_text("pool: .hotswap.text at %s, %.0f bytes (%s%s, target state %s)\n",
		           jstr(p, "vaddr"), jnum(p, "size"),
		           jtrue(p, "entry_trampolines") ? "entry trampolines" : "",
		           jtrue(p, "b0a0") ? " + B0->A0" : "", jstr(p, "target_state"));
	}
	if (notes) {
		char *meta = cJSON_Print(cJSON_GetObjectItemCaseSensitive(doc, "metadata"));
		cJSON_ArrayForEach(n, cJSON_GetObjectItemCaseSensitive(doc, "notes"))
		    print_text("note: %s owner %s type %.0f, %.0f bytes\n", jstr(n, "section"),
		               jstr(n, "owner"), jnum(n, "type"), jnum(n, "size"));
		/* cJSON escapes control bytes inside strings; its raw tabs are only indentation. */
		struct strbuf indented = STRBUF_INIT;
		for (const char *t = meta; t && *t; t++)
			if (*t == '\t')
				strbuf_addstr(&indented, "  ");
			else
				strbuf_addch(&indented, *t);
		if (meta)
			print_text("metadata:\n%s\n", indented.buf);
		strbuf_release(&indented);
		free(meta);
	}
}

/* One code object through the rewriter's hs_inspect: its JSON document, or NULL (said). */
static cJSON *inspect_object(const struct rewriter_dl *rw, const void *bytes, size_t size,
                             const char *name, const struct cmd_args *a)
{
	bool disasm = args_has(a, INSPECT_DISASM);
	char *json = NULL;
	cJSON *doc;
	enum hs_status st = rw->inspect(bytes, size, disasm ? HS_INSPECT_DISASM : 0,
	                                disasm ? args_str(a, INSPECT_DISASM) : NULL, &json);

	if (st != HS_OK) {
		const char *why = rw->last_error();
		error("cannot inspect '%s': %s", name, why && *why ? why : rw->status_str(st));
		return NULL;
	}
	doc = cJSON_Parse(json);
	free(json);
	if (!doc)
		error("the rewriter at '%s' returned invalid JSON for '%s'", rw->path, name);
	return doc;
}

/*
 * --target T for one code object (bytes, described by doc): it runs on T as it is, or each
 * kernel's verdict of a translation for T, or why there is no route.  Printed, or added to doc
 * as "target" when json is set.  Informational: a refusal is not inspect's failure.
 */
static void inspect_target(const struct rewriter_dl *rw, const void *bytes, size_t size,
                           const char *target, cJSON *doc, bool json)
{
	const char *proc = jstr(doc, "processor");
	char want[32];
	struct hs_rewrite_output out = {0};
	struct hs_rewrite_result *kernels = NULL;
	HS_OPTS(hs_rewrite_report, report);
	HS_OPTS(hs_rewrite_opts, opts);
	cJSON *t = json ? cJSON_AddObjectToObject(doc, "target") : NULL;
	enum hs_status st;

	if (t)
		cJSON_AddStringToObject(t, "name", target);
	if (!strcmp(proc, gfx_target_processor(target, want, sizeof(want)))) {
		if (t)
			cJSON_AddStringToObject(t, "verdict", "runs as it is");
		else
			print_text("for %s: runs as it is (its own processor)\n", target);
		return;
	}
	if (rw->result_kernels)
		opts.result = &kernels;
	st = rw->rewrite(bytes, size, NULL, target, &opts, &out, &report);
	if (is_translation(&report)) {
		unsigned done = report.count[HS_COUNT_KERNELS_TRANSLATED],
		         refused = report.count[HS_COUNT_KERNELS_REFUSED];
		/* Some refused, the rest translated: it loads, the refused ones trapping. */
		const char *verdict = st != HS_OK                          ? "refused"
		                      : report.reason == HS_REASON_PARTIAL ? "translates partially"
		                                                           : "translates";
		if (t) {
			cJSON_AddStringToObject(t, "verdict", verdict);
			cJSON_AddItemToObject(t, "kernel_results", verdicts_json(rw, kernels));
		} else {
			struct strbuf lines = STRBUF_INIT;
			verdict_lines(rw, kernels, false, &lines);
			print_text("for %s: %s: %u of %u kernels translate%s%s%s\n", target,
			           verdict, done, done + refused,
			           st == HS_OK && refused
			               ? " (the refused ones as entries that trap)"
			               : "",
			           lines.len ? "\n" : "", lines.buf);
			strbuf_release(&lines);
		}
	} else {
		const char *why = report.message[0] ? report.message : rw->last_error();
		if (st == HS_OK)
			why = "the rewriter made no translation of it";
		if (t) {
			cJSON_AddStringToObject(t, "verdict", "no route");
			cJSON_AddStringToObject(t, "message", why ? why : "");
		} else {
			print_text("for %s: no route: %s\n", target, why && *why ? why : "refused");
		}
	}
	if (kernels)
		rw->result_free(kernels);
	if (out.data)
		rw->output_release(&out);
}

static const char *method_name(enum cob_method m)
{
	return m == COB_ZSTD ? "zstd" : "zlib";
}

/* One bundle's entries: printed, or added to the JSON array out. */
static int inspect_bundle(const struct rewriter_dl *rw, const char *name, size_t at, size_t index,
                          const struct cob_bundle *b, const struct cmd_args *a, cJSON *out)
{
	const char *target = args_str(a, INSPECT_TARGET);
	cJSON *jb = NULL, *entries = NULL;
	int ret = 0;

	if (out) {
		jb = cJSON_CreateObject();
		cJSON_AddNumberToObject(jb, "offset", (double)at);
		cJSON_AddNumberToObject(jb, "size", (double)b->extent);
		if (b->ccob) {
			cJSON *c = cJSON_AddObjectToObject(jb, "compressed");
			cJSON_AddNumberToObject(c, "version", b->ccob);
			cJSON_AddStringToObject(c, "method", method_name(b->method));
			cJSON_AddNumberToObject(c, "uncompressed_size", (double)b->size);
		} else {
			cJSON_AddNullToObject(jb, "compressed");
		}
		entries = cJSON_AddArrayToObject(jb, "entries");
		cJSON_AddItemToArray(out, jb);
	} else if (b->ccob) {
		print_text(
		    "bundle %zu at offset 0x%zx: CCOB v%u %s, %zu bytes (%zu uncompressed), %zu "
		    "entries\n",
		    index, at, b->ccob, method_name(b->method), b->extent, b->size, b->n);
	} else {
		print_text("bundle %zu at offset 0x%zx: uncompressed, %zu bytes, %zu entries\n",
		           index, at, b->extent, b->n);
	}
	/* The HIP runtime takes an entry made for the device as it is; nothing to translate. */
	long native = target ? cob_bundle_select(b, target) : -1;
	if (native >= 0) {
		if (jb)
			cJSON_AddNumberToObject(jb, "entry_for_target", (double)native);
		else
			print_text(
			    "  for %s: entry %ld is made for it, so the HIP runtime takes that one "
			    "and the bundle is left alone\n",
			    target, native);
	}
	for (size_t i = 0; i < b->n; i++) {
		const struct cob_entry *e = &b->e[i];
		struct strbuf label = STRBUF_INIT;
		cJSON *doc = NULL;

		strbuf_addf(&label, "%s: bundle %zu entry %zu (%s)", name, index, i, e->id);
		if (cob_entry_is_amdgcn(e) &&
		    !(doc = inspect_object(rw, e->data, e->size, label.buf, a)))
			ret = -1;
		if (out) {
			cJSON *je = cJSON_CreateObject();
			cJSON_AddStringToObject(je, "id", e->id);
			cJSON_AddStringToObject(je, "kind", e->kind);
			cJSON_AddStringToObject(je, "triple", e->triple);
			cJSON_AddStringToObject(je, "target", e->target);
			cJSON_AddNumberToObject(je, "offset", (double)e->offset);
			cJSON_AddNumberToObject(je, "size", (double)e->size);
			if (doc && target && native < 0)
				inspect_target(rw, e->data, e->size, target, doc, true);
			if (doc)
				cJSON_AddItemToObject(je, "code_object", doc);
			else
				cJSON_AddNullToObject(je, "code_object");
			cJSON_AddItemToArray(entries, je);
		} else {
			print_text("  entry %zu: %s, %llu bytes%s\n", i, e->id,
			           (unsigned long long)e->size,
			           cob_entry_is_amdgcn(e) ? "" : " (not a device code object)");
			if (doc)
				print_inspection(label.buf, doc, args_has(a, INSPECT_DISASM),
				                 args_bool(a, INSPECT_NOTES));
			if (doc && target && native < 0)
				inspect_target(rw, e->data, e->size, target, doc, false);
			cJSON_Delete(doc);
		}
		strbuf_release(&label);
	}
	return ret;
}

/*
 * A bundle file, or a host program's .hip_fatbin (several bundles back to back): each
 * bundle's entries, and each device code object inspected as one given alone would be.
 */
static int inspect_fatbin(const struct cmd_ctx *ctx, const struct rewriter_dl *rw, const char *name,
                          const uint8_t *sec, size_t size, bool host, const struct cmd_args *a)
{
	cJSON *doc = NULL, *bundles = NULL;
	struct cob_bundle b = COB_BUNDLE_INIT;
	size_t off = 0, n = 0;
	char *err = NULL;
	int rc, ret = 0;

	if (ctx->json) {
		doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "file", name);
		cJSON_AddStringToObject(doc, "kind", host ? "host program" : "offload bundle");
		bundles = cJSON_AddArrayToObject(doc, "bundles");
	} else {
		print_text("%s: %s\n", name,
		           host ? "host program with a .hip_fatbin section" : "offload bundle");
	}
	while ((rc = cob_fatbin_next(sec, size, &off, &b, &err)) == 1) {
		size_t at = off - b.extent;
		if (inspect_bundle(rw, name, at, n++, &b, a, bundles) < 0)
			ret = -1;
		cob_bundle_free(&b);
	}
	if (rc < 0) {
		ret = error("cannot inspect '%s': %s%s", name, host ? ".hip_fatbin " : "", err);
		hint("the fat binary is malformed: rebuild it (clang -x hip --offload-arch=...)");
	}
	free(err);
	if (doc && !ret)
		output_json(doc);
	else
		cJSON_Delete(doc);
	return ret;
}

static int inspect_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *path = a->positional.v[0], *name = shown_path(path, "<stdin>");
	const char *target = args_str(a, INSPECT_TARGET);
	struct rewriter_dl rw = REWRITER_DL_INIT;
	struct strbuf bytes = STRBUF_INIT;
	char proc[32], routes[160];
	const uint8_t *d;
	cJSON *doc = NULL;
	int ret = -1;

	if (target && !gfx_by_name(gfx_target_processor(target, proc, sizeof(proc)))) {
		usage_error("invalid value '%s' for '--target': not a processor mirage knows",
		            target);
		hint("a target mirage reaches from gfx1250 code: %s",
		     gfx_routes_text("gfx1250", routes, sizeof(routes)));
		return EXIT_USAGE;
	}
	if (read_input(path, &bytes) < 0 || load_rewriter(ctx, &rw) < 0)
		goto out;
	d = (const uint8_t *)bytes.buf;
	if (cob_is_bundle(d, bytes.len)) {
		ret = inspect_fatbin(ctx, &rw, name, d, bytes.len, false, a);
		goto out;
	}
	if (is_host_elf(d, bytes.len)) {
		const uint8_t *sec;
		size_t sec_size;
		char *err = NULL;
		int found = cob_find_hip_fatbin(d, bytes.len, &sec, &sec_size, &err);
		if (found == 1)
			ret = inspect_fatbin(ctx, &rw, name, sec, sec_size, true, a);
		else if (found == 0) {
			ret = error(
			    "cannot inspect '%s': a host ELF file with no .hip_fatbin section, so "
			    "no device code",
			    name);
			hint("give a code object, an offload bundle, or a HIP program or library");
		} else
			ret = error("cannot inspect '%s': %s", name, err);
		free(err);
		goto out;
	}
	if (!(doc = inspect_object(&rw, bytes.buf, bytes.len, name, a)))
		goto out;
	if (ctx->json) {
		if (target)
			inspect_target(&rw, bytes.buf, bytes.len, target, doc, true);
		output_json(doc);
		doc = NULL;
	} else {
		print_inspection(name, doc, args_has(a, INSPECT_DISASM),
		                 args_bool(a, INSPECT_NOTES));
		if (target)
			inspect_target(&rw, bytes.buf, bytes.len, target, doc, false);
	}
	ret = EXIT_OK;
out:
	cJSON_Delete(doc);
	rewriter_dl_close(&rw);
	strbuf_release(&bytes);
	return exit_code(ret);
}

const struct cmd_entry cmd_inspect_entry = {
    .name = "inspect",
    .summary = "describe a code object, offload bundle or HIP program: ISA, kernels, descriptors, "
               "metadata, pool",
    .usage = "CODE_OBJECT|BUNDLE|PROGRAM",
    .opts = inspect_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_FILE,
    .exec = inspect_exec,
};
