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

struct rewriter_dl {
	void *handle;
	char *path;
	enum hs_status (*rewrite)(const void *, size_t, const char *, const char *,
	                          const struct hs_rewrite_opts *, struct hs_rewrite_output *,
	                          struct hs_rewrite_report *);
	void (*output_release)(struct hs_rewrite_output *);
	const char *(*last_error)(void);
	const char *(*status_str)(enum hs_status);
	const char *(*version)(void);
	enum hs_status (*inspect)(const void *, size_t, unsigned, const char *, char **);
	const char *(*build_identity)(void); /* NULL: a rewriter older than HOTSWAP_REWRITE_0.2 */
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
