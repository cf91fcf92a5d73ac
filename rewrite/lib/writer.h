/*
 * Writers: turn a loaded object and its finalized plan into output bytes.  They consume
 * the plan only (patches, pool bytes, symbols, metadata updates, provenance) and never
 * learn which pass an edit came from.
 *
 * Two seats.  The patch writer (patch_layout.c + patch_emit.c) keeps the input and grows
 * it: in-place patches, one appended pool segment, relocated tables.  The cross-family
 * translator will add a second writer that emits a new object from scratch (its own
 * sections, descriptors and metadata); rewrite.c picks the writer, not the passes.
 * See docs/rewriter.md.
 */
#ifndef HS_WRITER_H
#define HS_WRITER_H

#include "plan.h"

struct hs_written {
	uint8_t *data; /* malloc()ed, caller frees */
	size_t size;
	uint64_t pool_vaddr, pool_size; /* the pool segment, 0/0 when none was added */
};

struct hs_writer {
	const char *name;
	enum hs_status (*write)(const struct hs_object *o, const struct hs_plan *p,
	                        struct hs_written *out);
};

/* The input with the plan's edits applied; grows one pool segment when the plan needs it. */
HS_INTERNAL extern const struct hs_writer hs_patch_writer;

#endif
