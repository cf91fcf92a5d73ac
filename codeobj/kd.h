/*
 * The kernel descriptor codec (libmirage_codeobj): the 64-byte descriptor (one layout on every
 * family since code object v3), the COMPUTE_PGM_RSRC1/2/3 bit fields, whose meanings differ by
 * family (gfx6-gfx8, gfx9, gfx90a/gfx9.4, gfx10, gfx11, gfx12, gfx12.5), and the kernel code
 * properties and kernarg preload fields, all named as LLVM 22's AMDHSAKernelDescriptor.h
 * names them.  Every component reads descriptor fields through it, never at a byte offset.
 * Pure data and bit arithmetic: a leaf.
 */
#ifndef KD_CODEC_H
#define KD_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct gfx_info;

/* The descriptor as it lies in the file (little-endian fields, no padding). */
struct kd_raw {
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
#define KD_SIZE 64u
_Static_assert(sizeof(struct kd_raw) == KD_SIZE, "the kernel descriptor is 64 bytes");
/* Byte offset of a descriptor field: KD_AT(compute_pgm_rsrc3) == 44. */
#define KD_AT(field) offsetof(struct kd_raw, field)

/* The descriptor's fields, decoded from its 64 bytes. */
struct kd {
	uint32_t group_segment_fixed_size, private_segment_fixed_size, kernarg_size;
	int64_t entry_offset; /* kernel_code_entry_byte_offset */
	uint32_t rsrc1, rsrc2, rsrc3;
	uint16_t properties, kernarg_preload;
};
void kd_decode(const uint8_t raw[KD_SIZE], struct kd *kd);

/* One bit field of a register: bits [lo, lo + width). */
struct kd_field {
	const char *name;
	uint8_t lo, width;
};
enum kd_reg {
	KD_RSRC1 = 0,
	KD_RSRC2,
	KD_RSRC3,
	KD_NREGS
};
/* The named (non-reserved) fields of the three registers on one family. */
struct kd_layout {
	const char *name; /* "gfx12.5" */
	const struct kd_field *field[KD_NREGS];
	size_t n[KD_NREGS];
	/* RSRC3's INST_PREF_SIZE (128-byte lines the CP prefetches), width 0 when absent. */
	struct kd_field inst_pref_size;
};
/* The layout of g's family (never NULL: an unknown family gets the gfx9 one). */
const struct kd_layout *kd_layout_of(const struct gfx_info *g);
uint32_t kd_field_get(uint32_t reg, const struct kd_field *f);
uint32_t kd_field_set(uint32_t reg, const struct kd_field *f, uint32_t v);

/*
 * A field by its LLVM name, looked up in L's RSRC1/2/3 and in the family-independent kernel
 * code properties ("enable_sgpr_dispatch_ptr", "enable_wavefront_size32", ...) and kernarg
 * preload ("kernarg_preload_spec_length", "kernarg_preload_spec_offset").  kd_find returns
 * false for a name the family does not have; kd_get reads the field from d, 0 when absent.
 */
bool kd_find(const struct kd_layout *L, const char *name, const struct kd_field **field,
             unsigned *which);
uint32_t kd_get(const struct kd *d, const struct kd_layout *L, const char *name);

#endif
