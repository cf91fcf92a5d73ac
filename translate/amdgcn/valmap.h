/* A small open-addressing map from LLVM values (or blocks) to a non-negative int index, for
 * the proofs' fixed points; per call, no global state. */
#ifndef MIRAGE_AMDGCN_VALMAP_H
#define MIRAGE_AMDGCN_VALMAP_H

#include <stddef.h>

struct valmap {
	const void **keys;
	int *vals;
	size_t cap, n;
};

/* The index of key, or -1. */
int valmap_get(const struct valmap *m, const void *key);
/* Sets key's index; 0, or -1 out of memory. */
int valmap_put(struct valmap *m, const void *key, int val);
void valmap_free(struct valmap *m);

#endif
