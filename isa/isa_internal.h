/* Internals shared by the decoder's files: row lookup, the decode context and the field helpers. */
#ifndef MIRAGE_ISA_INTERNAL_H
#define MIRAGE_ISA_INTERNAL_H

#include <stdbool.h>
#include <string.h>

#include "mirage/isa.h"

/* Widest opcode field (VOP3: 10 bits) and the VOPD3 component field (6 bits). */
#define ISA_OPCODE_SPACE 1024
#define ISA_VOPD_SPACE   64

/* The row id of VOPD/VOPD3 component opcode code in the table of arch, or ISA_OP_UNKNOWN. */
unsigned isa_find_vopd(unsigned arch, unsigned code);

static inline uint32_t isa_bits(uint32_t w, unsigned hi, unsigned lo)
{
	return (w >> lo) & ((hi - lo == 31) ? 0xffffffffu : ((1u << (hi - lo + 1)) - 1u));
}

/* One decode in progress (every ISA's field extraction uses it). */
struct isa_ctx {
	const uint8_t *buf;
	size_t len, off;
	struct isa_inst *in;
	unsigned msb;      /* gfx1250: the MSB state in effect */
	unsigned lit;      /* literal bytes the operands need: 0, 4 or 8 */
	unsigned base;     /* bytes before the literal */
	unsigned fmt;      /* enum isa_format of the first dword */
	bool lit64_narrow; /* a 64-bit literal on a 32/16-bit operand: size not fixed */
};

static inline uint32_t isa_word(const struct isa_ctx *c, unsigned i)
{
	const uint8_t *p = c->buf + c->off + 4 * i;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline bool isa_have(const struct isa_ctx *c, unsigned bytes)
{
	return c->len - c->off >= bytes;
}

static inline struct isa_operand *isa_add(struct isa_ctx *c, unsigned kind, unsigned role,
                                          unsigned width)
{
	struct isa_inst *in = c->in;
	struct isa_operand *o;

	if (in->nops >= ISA_MAX_OPERANDS)
		return &in->ops[ISA_MAX_OPERANDS - 1]; /* cannot happen with the table's shapes */
	o = &in->ops[in->nops++];
	memset(o, 0, sizeof(*o));
	o->kind = (uint8_t)kind;
	o->role = (uint8_t)role;
	o->width = (uint8_t)width;
	return o;
}

static inline struct isa_operand *isa_imm(struct isa_ctx *c, unsigned kind, int64_t value)
{
	struct isa_operand *o = isa_add(c, kind, ISA_ROLE_SRC, 0);
	o->imm = value;
	return o;
}

/* A register the opcode fixes but LLVM prints (vcc of a VOPC e32); width 2 prints "vcc". */
static inline void isa_fixed(struct isa_ctx *c, unsigned reg, unsigned role, unsigned width)
{
	struct isa_operand *o = isa_add(c, ISA_OPK_SPECIAL, role, width);
	o->reg = (uint16_t)reg;
	o->flags |= ISA_OPF_FIXED;
}

static inline void isa_off_operand(struct isa_ctx *c)
{
	struct isa_operand *o = isa_add(c, ISA_OPK_SPECIAL, ISA_ROLE_SRC, 0);
	o->reg = ISA_REG_NULL;
	o->flags |= ISA_OPF_OFF;
}

static inline int64_t isa_sext(uint32_t v, unsigned bits)
{
	uint32_t m = 1u << (bits - 1);
	return (int64_t)(int32_t)((v ^ m) - m);
}

/*
 * Scalar register tuples are aligned: pairs to 2, wider ones to 4.  The hardware ignores the
 * low bits of a misaligned field and LLVM decodes it the same way (with a warning).
 */
static inline unsigned isa_align_tuple(unsigned index, unsigned width)
{
	return width >= 3 ? index & ~3u : width == 2 ? index & ~1u : index;
}

/* The f32 bit patterns of the float inline constants, codes 240..248 (both ISAs). */
static const int64_t isa_float_inline[9] = {0x3f000000, 0xbf000000, 0x3f800000,
                                            0xbf800000, 0x40000000, 0xc0000000,
                                            0x40800000, 0xc0800000, 0x3e22f983};

/* An unknown opcode: its size is the base size unless a source field asks for a literal. */
static inline int isa_unknown(struct isa_ctx *c, bool maybe_literal)
{
	if (maybe_literal)
		return ISA_ERR_SIZE_UNKNOWN;
	c->in->nops = 0;
	c->lit = 0;
	return ISA_OK;
}

static inline void isa_set_impl(struct isa_inst *in, const struct isa_row *r)
{
	in->impl_def |= r->impl_def;
	in->impl_use |= r->impl_use;
	in->flags |= r->flags;
}

/* Per family: size before any literal, the opcode field, and the operand decoder. */
struct isa_family {
	uint8_t base, op_hi, op_lo;
	uint8_t vector; /* a per-lane family: every instruction reads EXEC */
	int (*decode)(struct isa_ctx *c, const struct isa_row *r);
};

/* A family by the top bits of the first dword: (w >> shift) == value. */
struct isa_prefix {
	uint8_t shift;
	uint16_t value;
	uint8_t fmt;
};

/* The family of the first prefix that matches w (order matters), or ISA_FMT_NONE. */
unsigned isa_classify(const struct isa_prefix *prefixes, size_t n, uint32_t w);

/* VOP3 opcodes [first, end) are the e64 forms of fmt's rows at opcode - first. */
struct isa_e64 {
	uint8_t fmt;
	uint16_t first, end;
};

/* What an ISA's decode has of its own: its families' fields and where a first dword goes. */
struct isa_codec {
	const struct isa_family *families; /* [ISA_FMT_COUNT]; decode NULL: not a family */
	unsigned (*classify)(uint32_t w);  /* the family of a first dword, or ISA_FMT_NONE */
	struct isa_e64 e64[3];             /* the VOPC, VOP2 and VOP1 rows' VOP3 forms */
};

extern const struct isa_codec isa_gfx1250_codec, isa_gfx9_codec;

/* The one architecture table (isa_rows.c): one entry per enum isa_arch. */
struct isa_arch_info {
	const char *name;     /* "gfx1250": isa_arch_name(), the tools' --isa */
	const char *family;   /* the processor family (gfx_table) whose other members it decodes */
	uint32_t lds_bytes;   /* what a workgroup may have of LDS (LLVM 22's limit) */
	uint32_t lds_granule; /* the block LDS is allocated in for a workgroup, in bytes */
	const struct isa_row *rows;
	const struct isa_codec *codec;
};

/* The entry of arch, or NULL. */
const struct isa_arch_info *isa_arch_info(unsigned arch);

/* SOPP / SOPK simm16: a branch label, an immediate operand, or only the modifier. */
void isa_simm_operand(struct isa_ctx *c, const struct isa_row *r, uint32_t w);

/*
 * neg/abs bits (one per source, in order) onto the source operands from index first on,
 * skipping fixed registers (and, skip_literal, a K literal, which has no modifier bit).
 */
void isa_src_mods(struct isa_ctx *c, unsigned first, unsigned neg, unsigned abs, bool skip_literal);

/*
 * The end of every decode: the size, EXEC for vector families, the literal's bytes into the
 * record and its LITERAL operands.  rc is the family decoder's status.
 */
int isa_finish(struct isa_ctx *c, int rc, bool vector);

#endif
