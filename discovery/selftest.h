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

#endif
