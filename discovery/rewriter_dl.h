/*
 * The discovered tree's libhotswap_rewrite.so, loaded with dlopen() for the
 * commands that rewrite or inspect from the shell and for the doctor's
 * self-test.  mirage never links the rewriter, so `run`, `profile` and the
 * rest never load it (nor LLVM).
 */
#ifndef MIRAGE_REWRITER_DL_H
#define MIRAGE_REWRITER_DL_H

#include "hotswap_tree.h"
#include "strbuf.h"

#include <hotswap/rewrite.h>

/* The function types are rewrite.h's own, so this copy cannot drift from the library. */
struct rewriter_dl {
	void *handle;
	char *path;
	hs_rewrite_fn rewrite;
	hs_rewrite_output_release_fn output_release;
	hs_last_error_fn last_error;
	hs_status_str_fn status_str;
	hs_version_fn version;
	hs_inspect_fn inspect;
	hs_code_object_isa_fn code_object_isa; /* NULL: a test double without it */
	hs_build_identity_fn build_identity;   /* NULL: a rewriter older than HOTSWAP_REWRITE_0.2 */
	/* Per-kernel results (HOTSWAP_REWRITE_0.2 too; NULL when older). */
	hs_rewrite_result_kernels_fn result_kernels;
	hs_rewrite_result_kernel_fn result_kernel;
	hs_rewrite_result_free_fn result_free;
};
#define REWRITER_DL_INIT                                                                           \
	{                                                                                          \
		0                                                                                  \
	}

/* Loads the library at path; returns 0, or -1 with a reason appended to err. */
int rewriter_dl_open(const char *path, struct rewriter_dl *rw, struct strbuf *err);
/* Loads <lib_dir>/libhotswap_rewrite.so of a complete native tree. */
int rewriter_dl_open_tree(const struct hotswap_tree *tree, struct rewriter_dl *rw,
                          struct strbuf *err);
/* dlclose()s and resets; fine on a never-opened struct. */
void rewriter_dl_close(struct rewriter_dl *rw);

#endif
