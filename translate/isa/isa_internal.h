/* Internals shared by the decoder's files: row lookup and the field helpers. */
#ifndef MIRAGE_ISA_INTERNAL_H
#define MIRAGE_ISA_INTERNAL_H

#include <stdbool.h>

#include "mirage/isa.h"

/* Widest opcode field (VOP3: 10 bits) and the VOPD3 component field (6 bits). */
#define ISA_OPCODE_SPACE 1024
#define ISA_VOPD_SPACE   64

/* The row id for (format, opcode), or ISA_OP_UNKNOWN. */
unsigned isa_gfx1250_find(unsigned format, unsigned opcode);
/* The row id of VOPD/VOPD3 component opcode code, or ISA_OP_UNKNOWN. */
unsigned isa_gfx1250_find_vopd(unsigned code);

static inline uint32_t isa_bits(uint32_t w, unsigned hi, unsigned lo)
{
	return (w >> lo) & ((hi - lo == 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1u));
}

#endif
