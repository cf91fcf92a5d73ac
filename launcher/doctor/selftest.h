/*
 * The doctor's self-test: loads the discovered tree's libhotswap_rewrite.so,
 * rewrites a built-in gfx1250 code object with entry trampolines (B0 -> B0)
 * and checks that the report and the bytes say a kernel was stubbed.
 */
#ifndef MIRAGE_SELFTEST_H
#define MIRAGE_SELFTEST_H

#include "hotswap_tree.h"
#include "strbuf.h"

#include <stddef.h>

/* The built-in code object (generated at build time from selftest/gfx1250_selftest.s). */
extern const unsigned char mirage_selftest_co[];
extern const size_t mirage_selftest_co_size;

enum selftest_result {
	SELFTEST_PASS = 0,
	SELFTEST_FAIL = -1,
	SELFTEST_SKIP = 1, /* nothing to test: no native rewriter in this tree */
};

/*
 * Runs the self-test against the rewriter at rewriter_path (normally
 * <lib_dir>/libhotswap_rewrite.so of a native tree).  Appends one line to
 * detail: what passed, or what failed and why.  dlopen()s the library: call
 * it only from `mirage doctor`, never on the run path.
 */
enum selftest_result hotswap_selftest_path(const char *rewriter_path, struct strbuf *detail);

/* Same on a discovered tree: skips unless it is a complete native tree. */
enum selftest_result hotswap_selftest(const struct hotswap_tree *tree, struct strbuf *detail);

/* What to tell the user when the translation self-test fails. */
enum translate_selftest_fix {
	TRANSLATE_FIX_NONE,       /* it passed */
	TRANSLATE_FIX_INSTALL,    /* no usable lib/libmirage_translate.so beside the rewriter */
	TRANSLATE_FIX_TRANSLATOR, /* the translator is there but cannot translate the kernel */
	TRANSLATE_FIX_REPORT,     /* it translated, into something wrong: a bug */
	TRANSLATE_FIX_REBUILD,    /* the rewriter itself cannot be loaded */
};

/*
 * The translation self-test: through the rewriter at rewriter_path (so through the route
 * a workload takes, libmirage_translate.so beside it), translates the built-in gfx1250 kernel
 * for target (gfx942 or gfx950) and checks the result: target's e_flags, the kernel's .kd.
 * Appends one line to detail, sets *fix.  SKIP for a target that is no translation.
 * dlopen()s the rewriter and the translator (and LLVM): call it only from `mirage doctor`.
 */
enum selftest_result hotswap_translate_selftest_path(const char *rewriter_path, const char *target,
                                                     struct strbuf *detail,
                                                     enum translate_selftest_fix *fix);
/* Same on a discovered tree: skips unless it is a complete native tree. */
enum selftest_result hotswap_translate_selftest(const struct hotswap_tree *tree, const char *target,
                                                struct strbuf *detail,
                                                enum translate_selftest_fix *fix);

#endif
