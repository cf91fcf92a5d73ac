/*
 * One load's rewrite (a same-family rewrite or a translation, as the decision says):
 * the cache key, both cache tiers, the rewrite itself and
 * the HSA_HOTSWAP_CACHE_DEBUG line.  Thread-safe; concurrent loads of one
 * object share a single rewrite, and a rewrite that fails for its input
 * (anything but running out of memory) is not tried again in this process.
 *
 * The debug line is "hotswap_cache: <status> (<src> -> <tgt>) kernels=<n>
 * <sha8>[ (<reason>)]", one per load, where status is
 *   disabled  the disk tier is off; the rewriter ran
 *   miss      no disk entry; the rewriter ran (and stored its output)
 *   hit       served without running the rewriter: from memory or disk
 *   invalid   a disk entry was rejected (reason says why); the rewriter ran
 *   bypassed  the disk tier cannot be trusted or written (reason says why);
 *             the rewriter ran
 *   failed    not rewritten and the rewriter did not run: an earlier (or a
 *             concurrent) load of the same bytes failed, kernels=0
 * When the rewriter ran and failed (disabled, miss, invalid, bypassed), the
 * reason says so and kernels=0.
 */
#ifndef HOTSWAP_INTERCEPT_REWRITE_LOAD_H
#define HOTSWAP_INTERCEPT_REWRITE_LOAD_H

#include <stddef.h>

#include "cache.h"
#include "cache_disk.h"
#include "decide.h"

enum hsi_rewrite_result {
	HSI_REWRITTEN = 0,       /* *out points at bytes valid until process exit */
	HSI_REWRITE_FAILED = -1, /* this call's rewrite failed; err says why */
	/* Another load's rewrite of the same bytes failed and is not retried; err is its reason. */
	HSI_REWRITE_FAILED_BEFORE = -2,
};

/*
 * Rewrites in[0..in_size) as d says.  place (NULL: none) is where a disk hit's bytes go
 * (cache_disk.h); they then stay there, in the in-process cache, for the process's life.
 */
enum hsi_rewrite_result hsi_rewrite_load(const void *in, size_t in_size,
                                         const struct hsi_object_facts *obj,
                                         const struct hsi_decision *d, const char *uri,
                                         const struct hsi_disk_place *place, struct hsi_blob *out,
                                         char *err, size_t err_size);

#endif
