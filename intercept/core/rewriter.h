/*
 * libhotswap_rewrite, loaded from the core's own directory the first time a code object must
 * really be rewritten.  A cache hit needs only the object's ISA (codeobj/elf_isa.h) and the
 * cache key's build identity, neither of which loads it: the rewriter, msgpack and its
 * relocations are about a third of a millisecond of start-up in every process with a warm
 * cache.  The function types are rewrite.h's own.
 */
#ifndef HOTSWAP_INTERCEPT_REWRITER_H
#define HOTSWAP_INTERCEPT_REWRITER_H

#include <stddef.h>

#include <hotswap/rewrite.h>

struct hsi_rewriter {
	hs_rewrite_fn rewrite;
	hs_last_error_fn last_error;
	hs_status_str_fn status_str;
	hs_rewrite_result_kernels_fn result_kernels;
	hs_rewrite_result_kernel_fn result_kernel;
	hs_rewrite_result_free_fn result_free;
};

/* The library's functions (loaded once, its log routed to ours, kept for the process's
 * life), or NULL with why saying what failed. */
const struct hsi_rewriter *hsi_rewriter(char *why, size_t why_size);

/* hs_build_identity() of the rewriter beside us, computed from the files alone
 * (common/build_identity.h): the cache key's part that names the code doing the work. */
const char *hsi_build_identity(void);

/* The rewriter's version this core was built with: what the cache's sidecars record. */
const char *hsi_rewriter_version(void);

#endif
