/*
 * What an AMDGPU code object's ELF header says, without libelf: whether the header is one a
 * reader may trust with the rest of the file (the checks the rewriter runs before libelf sees
 * the bytes), the ISA it states (EF_AMDGPU_MACH and the xnack/sramecc fields of e_flags) as
 * LLVM spells a target id, and how far an object nobody sized reaches.  Used by the rewriter
 * (hs_code_object_isa and its ELF model), the doctor's self-test, and the intercept core, which
 * looks at a code object before it copies it and decides on its ISA without loading the
 * rewriter.  Pure: no allocation, safe in any process.
 */
#ifndef MIRAGE_CODEOBJ_ELF_ISA_H
#define MIRAGE_CODEOBJ_ELF_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gfx_table.h"

/* The triple LLVM writes before the processor in a target id. */
#define COB_TRIPLE_PREFIX "amdgcn-amd-amdhsa--"

/* A feature's setting; "any" is what a target id leaves unsaid (the values are the
 * rewriter's enum hs_feature's). */
enum cob_feature {
	COB_FEAT_ANY = 0,
	COB_FEAT_ON,
	COB_FEAT_OFF,
};

struct cob_isa {
	const struct gfx_info *gfx;
	enum cob_feature sramecc, xnack;
};

/* 0 when b[0..size) starts with an ELF64 header of a linked AMDGPU code object whose program
 * and section header tables lie inside the file; -1 with the reason in err otherwise. */
int cob_elf_header_check(const void *b, size_t size, char *err, size_t err_size);

/* The ISA that e_flags and EI_ABIVERSION state; -1 when EF_AMDGPU_MACH is no processor we
 * know (its message: cob_isa_unknown_mach). */
int cob_isa_from_elf(uint32_t e_flags, uint8_t abi_version, struct cob_isa *isa);
void cob_isa_unknown_mach(uint32_t e_flags, char *err, size_t err_size);

/* True when b[0..size) starts with an ELF64 header for EM_AMDGPU (nothing else checked). */
bool cob_elf_is_amdgpu(const void *b, size_t size);

/* The processor EF_AMDGPU_MACH names when b[0..size) starts with an AMDGPU ELF64 header; NULL
 * when it does not, or names no processor we know.  The header alone is read: the first look
 * at bytes before anything copies or opens them. */
const struct gfx_info *cob_elf_processor(const void *b, size_t size);

/*
 * How far the ELF64 at b reaches when nobody said (the deprecated hsa_code_object_t is a bare
 * pointer): the furthest end of its header, its two header tables, its segments and its
 * sections with file contents.  0 when b is not an ELF64.  The tables are read where the
 * header places them, so b must be a whole object in readable memory.
 */
size_t cob_elf_extent(const void *b);

/* "amdgcn-amd-amdhsa--gfx1250[:sramecc±][:xnack±]" into buf (LLVM's canonical order, "any"
 * written as nothing); false if it does not fit. */
bool cob_isa_format(const struct cob_isa *isa, char *buf, size_t size);

/* Both of the above for the object at b: its target id and processor ("gfx1250") into isa and
 * proc (either may be NULL); 0, or -1 with the reason in err. */
int cob_code_object_isa(const void *b, size_t size, char *isa, size_t isa_size, char *proc,
                        size_t proc_size, char *err, size_t err_size);

#endif
