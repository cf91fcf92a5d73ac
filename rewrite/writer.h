/*
 * Writers: turn a loaded object and its finalized plan into output bytes.  They consume
 * the plan only (patches, pool bytes, symbols, metadata updates, provenance) and never
 * learn which pass an edit came from.
 *
 * The patch writer (patch_layout.c + patch_emit.c) keeps its object and grows it: in-place
 * patches, one appended pool segment, relocated tables.  The translation route
 * (route_translate.c) has the translator link a new object and then runs this same writer
 * over a plan for that object, so there is one writer; rewrite.c picks the route, not the
 * passes.  See docs/rewriter.md.
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
