/*
 * The kernel descriptor codec: the 64-byte descriptor (one layout on every family since
 * code object v3) and the COMPUTE_PGM_RSRC1/2/3 bit fields, whose meanings differ by
 * family (gfx6-gfx8, gfx9, gfx90a/gfx9.4, gfx10, gfx11, gfx12, gfx12.5), named as LLVM 22's
 * AMDHSAKernelDescriptor.h names them.  Pure data and bit arithmetic: a leaf.
 */
#ifndef HS_KD_CODEC_H
#define HS_KD_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "hs_attr.h"

struct gfx_info;

/* The descriptor as it lies in the file (little-endian fields, no padding). */
struct hs_kd_raw {
	uint32_t group_segment_fixed_size;
	uint32_t private_segment_fixed_size;
	uint32_t kernarg_size;
	uint8_t reserved0[4];
	int64_t kernel_code_entry_byte_offset;
	uint8_t reserved1[20];
	uint32_t compute_pgm_rsrc3;
	uint32_t compute_pgm_rsrc1;
	uint32_t compute_pgm_rsrc2;
	uint16_t kernel_code_properties;
	uint16_t kernarg_preload;
	uint8_t reserved3[4];
};
#define HS_KD_SIZE 64u
_Static_assert(sizeof(struct hs_kd_raw) == HS_KD_SIZE, "the kernel descriptor is 64 bytes");
/* Byte offset of a descriptor field: HS_KD_AT(compute_pgm_rsrc3) == 44. */
#define HS_KD_AT(field) offsetof(struct hs_kd_raw, field)

/* The descriptor's fields, decoded from its 64 bytes. */
struct hs_kd {
	uint32_t group_segment_fixed_size, private_segment_fixed_size, kernarg_size;
	int64_t entry_offset; /* kernel_code_entry_byte_offset */
	uint32_t rsrc1, rsrc2, rsrc3;
	uint16_t properties, kernarg_preload;
};
HS_INTERNAL void hs_kd_decode(const uint8_t raw[HS_KD_SIZE], struct hs_kd *kd);

/* One bit field of a register: bits [lo, lo + width). */
struct hs_kd_field {
	const char *name;
	uint8_t lo, width;
};
enum hs_kd_reg {
	HS_KD_RSRC1 = 0,
	HS_KD_RSRC2,
	HS_KD_RSRC3,
	HS_KD_NREGS
};
/* The named (non-reserved) fields of the three registers on one family. */
struct hs_kd_layout {
	const char *name; /* "gfx12.5" */
	const struct hs_kd_field *field[HS_KD_NREGS];
	size_t n[HS_KD_NREGS];
	/* RSRC3's INST_PREF_SIZE (128-byte lines the CP prefetches), width 0 when absent. */
	struct hs_kd_field inst_pref_size;
};
/* The layout of g's family (never NULL: an unknown family gets the gfx9 one). */
HS_INTERNAL const struct hs_kd_layout *hs_kd_layout_of(const struct gfx_info *g);
HS_INTERNAL uint32_t hs_kd_field_get(uint32_t reg, const struct hs_kd_field *f);
HS_INTERNAL uint32_t hs_kd_field_set(uint32_t reg, const struct hs_kd_field *f, uint32_t v);

#endif
