/*
 * The translation cache's key, the one rule both writers of the cache follow (the intercept
 * as a workload loads, `mirage cache warm` before a job): SHA-256 over the input's own
 * SHA-256, the source and target ISA, the rewrite flags and the rewriter's build identity
 * (hs_build_identity(): a rebuilt rewriter never gets its predecessor's output), each part
 * framed with its length.
 */
#ifndef MIRAGE_CACHE_KEY_H
#define MIRAGE_CACHE_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "sha.h"

struct hsi_cache_key {
	uint8_t key[HSI_SHA_LEN];
	char key_hex[HSI_SHA_HEX]; /* the entry's file name, without .co */
	char in_hex[HSI_SHA_HEX];  /* the input's SHA-256, for the sidecar */
};

/* 0, or -1 (out of memory in the digest). */
int hsi_cache_key(const void *in, size_t in_size, const char *src_key, const char *tgt_key,
                  uint64_t flags, const char *build_identity, struct hsi_cache_key *out);

#endif
