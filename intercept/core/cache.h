/*
 * The in-process tier of the translation cache: content-exact entries keyed
 * by a SHA-256 digest, single-flight (concurrent lookups of one key wait for
 * one producer).  A failure is handed to the waiters of that flight; it is
 * never stored as a success, and it is remembered only when the producer says
 * the input can never translate (then every later lookup of the key fails at
 * once with the first reason, instead of running the producer again).  Ready
 * entries live for the whole process: the runtime and debuggers keep pointers
 * into loaded code objects.
 */
#ifndef HOTSWAP_INTERCEPT_CACHE_H
#define HOTSWAP_INTERCEPT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cache_disk.h" /* struct hsi_blob */

#define HSI_KEY_LEN 32

/* What a producer returns. */
enum hsi_produce_result {
	HSI_PRODUCED = 0, /* *out is filled */
	HSI_PRODUCE_FAILED =
	    -1, /* may succeed another time (out of memory): the next lookup retries */
	HSI_PRODUCE_REJECTED = -2, /* the same input always fails: remembered for the process */
};

/*
 * Produces the value for a key: returns HSI_PRODUCED and fills *out with
 * malloc'ed data (ownership passes to the cache), or a failure with a reason
 * in err.
 */
typedef int (*hsi_produce_fn)(void *ctx, struct hsi_blob *out, char *err, size_t err_size);

enum hsi_cache_outcome {
	HSI_CACHE_PRODUCED = 0, /* this call ran the producer and it succeeded */
	HSI_CACHE_HIT = 1,      /* served from a ready entry (possibly after waiting) */
	HSI_CACHE_FAILED =
	    -1, /* the producer (ours, the flight's or a remembered one) failed; see err */
};

/*
 * Looks key up; on a miss runs produce exactly once per flight.  On success
 * *out points at cache-owned bytes valid until process exit.
 */
enum hsi_cache_outcome hsi_cache_get(const uint8_t key[HSI_KEY_LEN], hsi_produce_fn produce,
                                     void *ctx, struct hsi_blob *out, char *err, size_t err_size);

/* Number of ready entries (tests and verbose summaries). */
size_t hsi_cache_size(void);
/* Number of remembered failures (HSI_PRODUCE_REJECTED keys). */
size_t hsi_cache_rejected(void);

#ifdef MIRAGE_UNIT_TESTS
/* Drops every ready entry and remembered failure (tests only: callers must hold no pointers into
 * the cache). */
void hsi_cache_reset(void);
#endif

#endif
