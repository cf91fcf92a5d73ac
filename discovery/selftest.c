/* Rewrites a built-in gfx1250 kernel through the discovered rewriter to prove the tree really
 * works. */
#include "selftest.h"

#include "rewriter_dl.h"

#include <stdlib.h>
#include <string.h>

/* B0 -> B0 runs only the entry-trampoline pass, which needs no LLVM and has a fixed outcome. */
#define SELFTEST_ISA "amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+"

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
