/*
 * One translation: the cache key, both cache tiers, the rewrite itself and
 * the HSA_HOTSWAP_CACHE_DEBUG line.  Thread-safe; concurrent loads of one
 * object share a single rewrite, and a rewrite that fails for its input
 * (anything but running out of memory) is not tried again in this process.
 */
#ifndef HOTSWAP_INTERCEPT_TRANSLATE_H
#define HOTSWAP_INTERCEPT_TRANSLATE_H

#include <stddef.h>

#include "cache.h"
#include "decide.h"

/*
 * Rewrites in[0..in_size) as d says.  Returns 0 with *out pointing at bytes
 * that stay valid until process exit, or -1 with the reason in err.
 */
int hsi_translate(const void *in, size_t in_size, const struct hsi_object_facts *obj,
                  const struct hsi_decision *d, const char *uri, struct hsi_blob *out, char *err,
                  size_t err_size);

#endif
