/* Rewrites (and translates) a built-in gfx1250 kernel through the discovered rewriter to prove
 * the tree really works. */
#include "selftest.h"

#include "elf_header.h"
#include "elf_isa.h"
#include "elf_view.h"
#include "kernels.h"
#include "gfx_table.h"
#include "hotswap_contract.h"
#include "mirage_translate.h"
#include "rewriter_dl.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* The built-in object's kernel (selftest/gfx1250_selftest.s). */
#define SELFTEST_KERNEL "mirage_selftest"

/* B0 -> B0 runs only the entry-trampoline pass, which needs no LLVM and has a fixed outcome. */
#define SELFTEST_ISA HOTSWAP_ISA_GFX1250_B0

static enum hs_status run_once(const struct rewriter_dl *rw, const void *in, size_t size,
                               struct hs_rewrite_output *out, struct hs_rewrite_report *report)
{
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
	memset(report, 0, sizeof(*report));
	report->sz = sizeof(*report);
	return rw->rewrite(in, size, SELFTEST_ISA, SELFTEST_ISA, &opts, out, report);
}

enum selftest_result hotswap_selftest_path(const char *rewriter_path, struct strbuf *detail)
{
	struct rewriter_dl rw = REWRITER_DL_INIT;
	struct hs_rewrite_output first = {0}, second = {0};
	struct hs_rewrite_report report;
	enum selftest_result result = SELFTEST_FAIL;
	enum hs_status st;

	if (rewriter_dl_open(rewriter_path, &rw, detail) < 0)
		return SELFTEST_FAIL;

	st = run_once(&rw, mirage_selftest_co, mirage_selftest_co_size, &first, &report);
	if (st != HS_OK) {
		strbuf_addf(detail, "rewriting the built-in gfx1250 kernel failed (status %d): %s",
		            (int)st, report.message[0] ? report.message : "no message");
		goto cleanup;
	}
	if (report.kernels_stubbed != 1 || !report.changed) {
		strbuf_addf(
		    detail,
		    "the rewriter reported %u kernel(s) stubbed, changed=%s; expected 1 and "
		    "yes",
		    report.kernels_stubbed, report.changed ? "yes" : "no");
		goto cleanup;
	}
	if (first.size == mirage_selftest_co_size &&
	    !memcmp(first.data, mirage_selftest_co, first.size)) {
		strbuf_addstr(detail,
		              "the rewriter said it stubbed a kernel but returned the input "
		              "unchanged");
		goto cleanup;
	}
	/* A second pass must recognise its own stub and give back the same bytes. */
	st = run_once(&rw, first.data, first.size, &second, &report);
	if (st != HS_OK || report.changed || second.size != first.size ||
	    memcmp(second.data, first.data, first.size)) {
		strbuf_addf(
		    detail,
		    "rewriting the result again was not a no-op (status %d, changed=%s)%s%s",
		    (int)st, report.changed ? "yes" : "no", report.message[0] ? ": " : "",
		    report.message);
		goto cleanup;
	}
	strbuf_addf(detail,
	            "rewrote the built-in gfx1250 kernel: 1 kernel stubbed, %zu -> %zu bytes, "
	            "second pass unchanged",
	            mirage_selftest_co_size, first.size);
	/* Which build passed: what a bug report about this tree needs first. */
	if (rw.build_identity)
		strbuf_addf(detail, " (rewriter %s)", rw.build_identity());
	result = SELFTEST_PASS;
cleanup:
	rw.output_release(&first);
	rw.output_release(&second);
	rewriter_dl_close(&rw);
	return result;
}

enum selftest_result hotswap_selftest(const struct hotswap_tree *tree, struct strbuf *detail)
{
	if (!tree->found || tree->flavour != HOTSWAP_FLAVOUR_NATIVE) {
		strbuf_addstr(detail,
		              "no native rewriter to test (needs a tree with " HOTSWAP_REWRITE_PATH
		              ")");
		return SELFTEST_SKIP;
	}
	char *path = xstrfmt("%s/" HOTSWAP_REWRITE_LIB, tree->lib_dir);
	enum selftest_result r = hotswap_selftest_path(path, detail);
	free(path);
	return r;
}

/* Whether codeobj finds the kernel called name by its descriptor in the object (kernels.h). */
static bool has_kernel(const void *image, size_t size, const char *name)
{
	struct cob_kernels ks = {0};
	struct cob_elf e;
	char why[256];
	bool found = false;

	if (cob_elf_open(&e, image, size, why, sizeof(why)))
		return false;
	if (!cob_kernels_find(&e, &ks, why, sizeof(why)))
		for (size_t i = 0; i < ks.n && !found; i++)
			found = !strcmp(ks.k[i].name, name);
	cob_kernels_free(&ks);
	cob_elf_close(&e);
	return found;
}

/* The translator build the output's translation note names (hs_inspect), or "" when none. */
static void translator_build(const struct rewriter_dl *rw, const void *image, size_t size,
                             struct strbuf *out)
{
	char *json = NULL;
	cJSON *doc, *build;

	if (rw->inspect(image, size, 0, NULL, &json) != HS_OK)
		return;
	doc = cJSON_Parse(json);
	build = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(doc, "translation"), "translator_build");
	if (cJSON_IsString(build))
		strbuf_addstr(out, build->valuestring);
	cJSON_Delete(doc);
	free(json);
}

enum selftest_result hotswap_translate_selftest_path(const char *rewriter_path, const char *target,
                                                     struct strbuf *detail,
                                                     enum translate_selftest_fix *fix)
{
	const struct gfx_info *g = gfx_by_name(target);
	struct rewriter_dl rw = REWRITER_DL_INIT;
	struct hs_rewrite_output out = {0};
	struct strbuf build = STRBUF_INIT;
	HS_OPTS(hs_rewrite_report, report);
	enum selftest_result result = SELFTEST_FAIL;
	Elf64_Ehdr eh;
	enum hs_status st;

	*fix = TRANSLATE_FIX_REBUILD;
	if (!g || g->retarget != GFX_RETARGET_CROSS) {
		strbuf_addf(detail, "%s is not a translation target", target);
		return SELFTEST_SKIP;
	}
	if (rewriter_dl_open(rewriter_path, &rw, detail) < 0)
		return SELFTEST_FAIL;
	st = rw.rewrite(mirage_selftest_co, mirage_selftest_co_size, NULL, target, NULL, &out,
	                &report);
	if (st != HS_OK) {
		strbuf_addf(detail, "cannot translate for %s: %s", target,
		            report.message[0] ? report.message : rw.last_error());
		/* Refused: the translator cannot yet; anything else it did is a bug to report. */
		*fix = report.reason == HS_REASON_NO_TRANSLATOR         ? TRANSLATE_FIX_INSTALL
		       : report.reason == HS_REASON_TRANSLATION_REFUSED ? TRANSLATE_FIX_TRANSLATOR
		                                                        : TRANSLATE_FIX_REPORT;
		goto cleanup;
	}
	*fix = TRANSLATE_FIX_REPORT;
	if (cob_elf_processor(out.data, out.size) != g) {
		/* e_flags as the header holds them, for the report (0 when there is none). */
		if (!elf64_header_read(out.data, out.size, &eh))
			eh.e_flags = 0;
		strbuf_addf(detail,
		            "the translation of the built-in gfx1250 kernel is not a %s object "
		            "(e_flags 0x%x)",
		            target, (unsigned)eh.e_flags);
		goto cleanup;
	}
	if (!has_kernel(out.data, out.size, SELFTEST_KERNEL)) {
		strbuf_addf(detail,
		            "the translation of the built-in gfx1250 kernel has no " SELFTEST_KERNEL
		            ".kd descriptor");
		goto cleanup;
	}
	translator_build(&rw, out.data, out.size, &build);
	strbuf_addf(detail,
	            "translated the built-in gfx1250 kernel for %s: %s e_flags, " SELFTEST_KERNEL
	            ".kd present, %zu -> %zu bytes (translator API %u, build %s)",
	            target, target, mirage_selftest_co_size, out.size, TRANSLATE_API_VERSION,
	            build.len ? build.buf : "unknown");
	*fix = TRANSLATE_FIX_NONE;
	result = SELFTEST_PASS;
cleanup:
	strbuf_release(&build);
	rw.output_release(&out);
	rewriter_dl_close(&rw);
	return result;
}

enum selftest_result hotswap_translate_selftest(const struct hotswap_tree *tree, const char *target,
                                                struct strbuf *detail,
                                                enum translate_selftest_fix *fix)
{
	*fix = TRANSLATE_FIX_REBUILD;
	if (!tree->found || !tree->complete || tree->flavour != HOTSWAP_FLAVOUR_NATIVE) {
		strbuf_addstr(detail, "no complete native tree: nothing translates here");
		return SELFTEST_SKIP;
	}
	char *path = xstrfmt("%s/" HOTSWAP_REWRITE_LIB, tree->lib_dir);
	enum selftest_result r = hotswap_translate_selftest_path(path, target, detail, fix);
	free(path);
	return r;
}
