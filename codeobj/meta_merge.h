/*
 * How a code object's AMDGPU metadata records add up (libmirage_codeobj).  An object linked
 * from several inputs carries one NT_AMDGPU_METADATA record per input.  The HSA runtime's
 * reader (comgr) takes the first as the metadata and appends each later record's
 * amdhsa.kernels to it when the two agree on amdhsa.version (and on amdhsa.printf, when both
 * have one); a record that does not agree is left out.  The rewriter and the translator both
 * read the records this way, through this rule.
 */
#ifndef MIRAGE_CODEOBJ_META_MERGE_H
#define MIRAGE_CODEOBJ_META_MERGE_H

#include <stdbool.h>

#include <msgpack.h>

/* The value of key in the msgpack map, or NULL (map is not a map, or has no such key). */
const msgpack_object *codeobj_map_get(const msgpack_object *map, const char *key);

/* Whether the record later (a document root) merges into the first record first. */
bool codeobj_meta_mergeable(const msgpack_object *first, const msgpack_object *later);

#endif
