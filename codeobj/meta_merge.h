/*
 * How a code object's AMDGPU metadata records add up (libmirage_codeobj).  An object linked
 * from several inputs carries one NT_AMDGPU_METADATA record per input.  The HSA runtime's
 * reader (comgr) takes the first as the metadata and appends each later record's
 * amdhsa.kernels to it when the two agree on amdhsa.version (and on amdhsa.printf, when both
 * have one); a record that does not agree is left out.  The rewriter and the translator's
 * reader (mirage/code_object.h) both read the records this way, through struct cob_meta.
 */
#ifndef MIRAGE_CODEOBJ_META_MERGE_H
#define MIRAGE_CODEOBJ_META_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <msgpack.h>

/* True when o is the msgpack string s. */
bool codeobj_str_is(const msgpack_object *o, const char *s);
/* The value of key in the msgpack map, or NULL (map is not a map, or has no such key). */
const msgpack_object *codeobj_map_get(const msgpack_object *map, const char *key);

/* Whether the record later (a document root) merges into the first record first. */
bool codeobj_meta_mergeable(const msgpack_object *first, const msgpack_object *later);

/* One record of the metadata: the first, or a later one merged into it. */
struct cob_meta_record {
	uint8_t *blob; /* an owned copy of the record's desc: the document's bytes */
	size_t blob_size;
	msgpack_unpacked doc;          /* the document, a map */
	const msgpack_object *kernels; /* its amdhsa.kernels array, NULL when it has none */
	size_t first;                  /* merged index of its first kernel */
};

/* The metadata as comgr reads it: the records taken, their kernels numbered across them. */
struct cob_meta {
	struct cob_meta_record *rec;
	size_t n_rec;
	size_t n_kernels;
	size_t n_left_out; /* later records left out: not a document, or not merging */
};
#define COB_META_INIT                                                                              \
	{                                                                                          \
		NULL, 0, 0, 0                                                                      \
	}

/* What became of a record offered to cob_meta_add. */
enum cob_meta_verdict {
	COB_META_TAKEN = 0,         /* the metadata (the first record), or merged into it */
	COB_META_LEFT_OUT,          /* a later record that does not merge */
	COB_META_NOT_DOCUMENT,      /* not exactly one valid msgpack document */
	COB_META_NOT_MAP,           /* a document, but not a map */
	COB_META_KERNELS_NOT_ARRAY, /* its amdhsa.kernels is not an array */
	COB_META_NO_MEMORY,
};

/*
 * Offers the next record, in the object's order (its desc bytes, copied).  A later record that
 * is not a well-formed metadata document is left out as one that does not merge (counted, the
 * verdict says why); the first is then not taken, and whether that is fatal is the caller's.
 */
enum cob_meta_verdict cob_meta_add(struct cob_meta *m, const void *desc, size_t size);
/* The record holding merged kernel k (k < n_kernels). */
size_t cob_meta_record_of(const struct cob_meta *m, size_t k);
/* Merged kernel k's map in amdhsa.kernels, or NULL when k is out of range. */
const msgpack_object *cob_meta_kernel(const struct cob_meta *m, size_t k);
void cob_meta_free(struct cob_meta *m);

#endif
