/* SHA-256 (common/sha256.h) for cache keys and cache-entry verification. */
#ifndef HOTSWAP_INTERCEPT_SHA_H
#define HOTSWAP_INTERCEPT_SHA_H

#include <stddef.h>
#include <stdint.h>

#define HSI_SHA_LEN 32
#define HSI_SHA_HEX (2 * HSI_SHA_LEN + 1)

/* One buffer; returns 0 or -1. */
int hsi_sha256(const void *data, size_t size, uint8_t out[HSI_SHA_LEN]);
/*
 * Several parts, each framed with its length so ("ab","c") and ("a","bc")
 * differ.  parts[i] with sizes[i]; returns 0 or -1.
 */
int hsi_sha256_parts(const void *const *parts, const size_t *sizes, size_t n,
                     uint8_t out[HSI_SHA_LEN]);
/* Lowercase hex of len bytes into out (2*len+1 bytes). */
void hsi_hex(const uint8_t *bytes, size_t len, char *out);

#endif
