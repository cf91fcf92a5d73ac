/*
 * The on-disk tier of the translation cache:
 * <root>/<key[0:2]>/<key>.co plus <key>.json (input/output sha256, sizes,
 * ISA pair, flags, rewriter version, timestamp).  Entries are written
 * sidecar first, then the object, each through a temp file and rename, so a
 * .co only ever appears complete and described.  A lookup verifies sizes and
 * the output hash; any mismatch removes the entry and is never a hit.
 */
#ifndef HOTSWAP_INTERCEPT_CACHE_DISK_H
#define HOTSWAP_INTERCEPT_CACHE_DISK_H

#include <stddef.h>
#include <stdint.h>

#include "cache.h"

/*
 * The cache root from the environment: HSA_HOTSWAP_CACHE_DIR, else
 * $XDG_CACHE_HOME/mirage/hotswap, else ~/.cache/mirage/hotswap.  NULL when
 * the tier is off (HSA_HOTSWAP_CACHE_DISABLE truthy, HSA_HOTSWAP_CACHE_DIR
 * set but empty, or no home).  Caller frees with free().
 */
char *hsi_disk_root(void);

enum hsi_disk_result {
	HSI_DISK_HIT = 0,
	HSI_DISK_MISS = 1,
	HSI_DISK_INVALID = 2, /* an entry existed but failed verification; it was removed */
};

/* What the sidecar records besides the output itself. */
struct hsi_disk_meta {
	const char *input_sha256; /* hex */
	size_t input_size;
	const char *source_isa;
	const char *target_isa;
	uint64_t flags;
	const char *rewriter_version;
	const char *rewriter_build; /* hs_build_identity(): part of the key, recorded for people */
	uint32_t kernels;
};

/*
 * Looks key_hex up under root.  On a hit *out holds malloc'ed bytes (caller
 * frees out->data with free()) and their kernel count.  expect_version is
 * the running rewriter's version: another version's entry is invalid.
 */
enum hsi_disk_result hsi_disk_lookup(const char *root, const char *key_hex,
                                     const char *expect_version, struct hsi_blob *out);

/* Stores an entry; 0, or -1 with errno set (read-only or full disk: the caller bypasses). */
int hsi_disk_store(const char *root, const char *key_hex, const struct hsi_blob *blob,
                   const struct hsi_disk_meta *meta);

#endif
