/*
 * An open-addressing table of indices into the caller's array: the caller hashes its keys and
 * compares candidates, so one table type serves names, addresses and string-table entries.
 * Lookups replace linear scans that made joins quadratic in kernels and symbols (the rewriter's
 * and codeobj's).  A zeroed struct is empty.  With several equal keys, which one
 * hash_index_find returns is unspecified: callers that need "the first" insert a key only when
 * it is not yet present.  Never aborts: safe in libraries.
 */
#ifndef MIRAGE_HASH_INDEX_H
#define MIRAGE_HASH_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hash_index_slot;
struct hash_index {
	struct hash_index_slot *slot;
	size_t mask; /* slot count - 1 (a power of two) */
	size_t n;    /* entries */
};
#define HASH_INDEX_NONE SIZE_MAX
/* True when the key in ctx equals the key of the caller's element idx. */
typedef bool (*hash_index_eq_fn)(const void *ctx, size_t idx);

/* Fixed hash functions (no seed): the same bytes hash alike in every process. */
uint64_t hash_bytes(const void *p, size_t n);
/* hash_bytes of a[0..na) followed by b[0..nb), without joining them. */
uint64_t hash_concat(const void *a, size_t na, const void *b, size_t nb);
uint64_t hash_u64(uint64_t v);

/* Adds idx (< HASH_INDEX_NONE) under hash: 0, or -ENOMEM when the table cannot grow. */
int hash_index_insert(struct hash_index *t, uint64_t hash, size_t idx);
/* An idx stored under hash for which eq(ctx, idx) holds, or HASH_INDEX_NONE. */
size_t hash_index_find(const struct hash_index *t, uint64_t hash, hash_index_eq_fn eq,
                       const void *ctx);
void hash_index_free(struct hash_index *t);

#endif
