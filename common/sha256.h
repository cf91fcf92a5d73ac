/*
 * SHA-256 (FIPS 180-4), for the intercept's cache keys and entry checks.  Ours, libc only, so
 * that the intercept's core does not map libcrypto (and pay its start-up) in every HIP or HSA
 * process it serves.
 */
#ifndef MIRAGE_SHA256_H
#define MIRAGE_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;    /* hashed so far */
	uint8_t block[64]; /* a partial block */
	size_t used;       /* bytes of it filled */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t size);
void sha256_final(struct sha256 *s, uint8_t digest[SHA256_LEN]);

/* For the unit test only: true makes every digest take the portable path. */
extern bool sha256_portable_only;

#endif
