/*
 * The one gfx table of the project: processor name <-> ELF EF_AMDGPU_MACH <->
 * KFD gfx_target_version <-> family <-> default wavefront size <-> generic
 * target.  The launcher, discovery and the rewriter all read it; nothing else
 * may hard-code these numbers.  Pure data and lookups: no allocation, safe in
 * any process (the intercept uses it too).
 */
#ifndef MIRAGE_GFX_TABLE_H
#define MIRAGE_GFX_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What HotSwap can do when this processor is the *target* of a gfx1250-family source. */
enum gfx_retarget {
	GFX_RETARGET_NONE = 0,     /* not a HotSwap target */
	GFX_RETARGET_SAME_ISA = 1, /* gfx125x: entry trampolines, stepping patches */
	GFX_RETARGET_CROSS = 2,    /* gfx942/gfx950: needs the cross-family translator */
};

struct gfx_info {
	const char *name;     /* "gfx942"; generics: "gfx9-4-generic" */
	uint8_t mach;         /* EF_AMDGPU_MACH_* (ELF e_flags & 0xff) */
	uint32_t kfd_version; /* KFD gfx_target_version; 0 for generic targets */
	const char *family; /* "gfx6", "gfx7", "gfx8", "gfx9", "gfx9.4", "gfx10.1" ... "gfx12.5" */
	uint8_t wavefront_size;     /* default wavefront size: 64 or 32 */
	const char *generic;        /* generic target covering it, or NULL */
	bool is_generic;            /* a generic target, not a processor */
	bool llvm22_known;          /* LLVM 22 accepts -mcpu=<name> */
	enum gfx_retarget retarget; /* see enum gfx_retarget */
	bool translation_source; /* the translator reads its code for a GFX_RETARGET_CROSS target */
};

/* All rows, in table order; *count receives the number of rows. */
const struct gfx_info *gfx_table(size_t *count);
/* Exact, case-sensitive lookups; NULL when unknown. */
const struct gfx_info *gfx_by_name(const char *name);
const struct gfx_info *gfx_by_mach(uint8_t mach);
const struct gfx_info *gfx_by_kfd_version(uint32_t version);
/*
 * The silicon stepping HotSwap treats a processor as, from its ASIC revision.  Only gfx1250 has
 * an A0 (ASIC revision 0) that needs the B0->A0 patches; any other revision, and every other
 * gfx12.5 processor, runs B0 code.  NONE outside gfx12.5, where steppings mean nothing to us.
 */
enum gfx_stepping {
	GFX_STEPPING_NONE = 0,
	GFX_STEPPING_A0,
	GFX_STEPPING_B0
};
bool gfx_has_a0_stepping(const struct gfx_info *g);
enum gfx_stepping gfx_stepping(const struct gfx_info *g, unsigned asic_revision);

/*
 * Formats the KFD name of a gfx_target_version into buf ("gfx" + major +
 * minor + stepping in lowercase hex; 90010 -> "gfx90a").  Works for versions
 * the table does not know.  Returns buf, or NULL if it does not fit.
 */
char *gfx_name_from_kfd_version(uint32_t version, char *buf, size_t size);

/*
 * The processor of a target id, without the triple and the features ("gfx1250:32",
 * "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" -> "gfx1250", "gfx942") into buf.  The name is
 * not looked up.  Returns buf, or NULL if it does not fit.
 */
const char *gfx_target_processor(const char *target_id, char *buf, size_t size);

#endif
