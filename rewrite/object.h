/*
 * The code object as the rewriter sees it, loaded and validated once (hs_object_load):
 * the ELF model, the ISA its header states, the descriptor layout of that ISA's family,
 * the kernels by descriptor address joined to their metadata, the metadata, and the
 * provenance of earlier rewrites.  Rewrite, inspect and later the translator start from
 * it; after loading nobody changes it (passes record their edits in a plan instead).
 * The pipeline it starts: docs/rewriter.md.
 */
#ifndef HS_OBJECT_H
#define HS_OBJECT_H

#include "hs_internal.h"

struct hs_object {
	struct cob_elf e;
	struct hs_isa isa;              /* what e_flags and EI_ABIVERSION state */
	const struct kd_layout *layout; /* RSRC1/2/3 fields of isa's family */
	struct cob_kernels ks;          /* by descriptor address, each joined to meta */
	struct hs_meta *meta;           /* NULL when there is no metadata note */
	int meta_unjoined;              /* a metadata kernel no descriptor joined, or -1 */
	struct hs_provenance *prov;     /* one per earlier pool */
	size_t n_prov;
};

/* Copies in[0..size) and loads it into *o (fail closed; *o is empty on failure). */
HS_INTERNAL enum hs_status hs_object_load(struct hs_object *o, const void *in, size_t size);
HS_INTERNAL void hs_object_free(struct hs_object *o);

#endif
