/* mirage's own table-driven AMDGPU ISA decoder: bytes in, one structured record per instruction. */
#ifndef MIRAGE_ISA_H
#define MIRAGE_ISA_H

#include <stddef.h>
#include <stdint.h>

/*
 * One decoded instruction is a struct isa_inst: its encoding family, size (literal
 * included), the opcode id of the table row that matched (ISA_OP_UNKNOWN when no row
 * did), every operand in assembler order, the implicit register defs/uses, the modifiers
 * and the literal.  The rows live in one table per ISA (isa/gfx1250.def,
 * isa/gfx942.def); both name the same op ids, so one switch on enum isa_op serves
 * every ISA.  See docs/isa-decoder.md for the layout and how to add a row.
 */

/* Encoding families.  DPP is a variant of VOP1/VOP2/VOPC/VOP3/VOP3P (isa_inst.dpp). */
enum isa_format {
	ISA_FMT_NONE = 0,
	ISA_FMT_SOP1,
	ISA_FMT_SOP2,
	ISA_FMT_SOPK,
	ISA_FMT_SOPC,
	ISA_FMT_SOPP,
	ISA_FMT_SMEM,
	ISA_FMT_VOP1,
	ISA_FMT_VOP2,
	ISA_FMT_VOPC,
	ISA_FMT_VOP3,
	ISA_FMT_VOP3P,
	ISA_FMT_VOPD,
	ISA_FMT_VOPD3,
	ISA_FMT_DS,
	ISA_FMT_VFLAT,
	ISA_FMT_VGLOBAL,
	ISA_FMT_VSCRATCH,
	ISA_FMT_VBUFFER,
	ISA_FMT_COUNT
};

/*
 * The opcode ids: the canonical op list of every table.  The gfx1250 rows name them first;
 * the gfx942 table reuses an id where the operation is the same (s_load_dword is
 * ISA_OP_S_LOAD_B32) and adds its own (ISA_ROW_NEW) after them.
 */
enum isa_op {
	ISA_OP_UNKNOWN = 0,
#define ISA_ROW(id, ...) ISA_OP_##id,
#include "../../gfx1250.def"
#undef ISA_ROW
#define ISA_ROW(id, ...)
#define ISA_ROW_NEW(id, ...) ISA_OP_##id,
#include "../../gfx942.def"
#include "../../gfx950.def"
#undef ISA_ROW
#undef ISA_ROW_NEW
	ISA_OP_COUNT
};

/* The ISA a table and a record belong to (isa_inst.arch). */
enum isa_arch {
	ISA_ARCH_GFX1250 = 0, /* gfx1250 / gfx1251 (GFX12.5, wave32) */
	ISA_ARCH_GFX942 = 1,  /* gfx942, gfx9-4-generic (GFX9.4 CDNA3, wave64) */
	ISA_ARCH_GFX950 = 2,  /* gfx950 (CDNA4): the gfx942 table plus gfx950.def */
	ISA_ARCH_COUNT
};

enum isa_operand_kind {
	ISA_OPK_NONE = 0,
	ISA_OPK_SGPR,    /* reg = s index */
	ISA_OPK_VGPR,    /* reg = v index, s_set_vgpr_msb applied (0..1023) */
	ISA_OPK_AGPR,    /* reg = a index (CDNA tables; gfx1250 has no AGPRs) */
	ISA_OPK_TTMP,    /* reg = ttmp index */
	ISA_OPK_SPECIAL, /* reg = enum isa_special_reg (the 8-bit source encoding) */
	ISA_OPK_INLINE, /* inline constant: reg = its encoding, imm = integer value or float bits */
	ISA_OPK_LITERAL, /* the instruction's literal: imm = value, as encoded */
	ISA_OPK_IMM,     /* an immediate field (simm16, hwreg, waits, ...): imm = value */
	ISA_OPK_LABEL,   /* a branch target: imm = target byte offset in the section */
};

/* Special scalar registers, by their source-operand encoding. */
enum isa_special_reg {
	ISA_REG_VCC_LO = 106,
	ISA_REG_VCC_HI = 107,
	ISA_REG_NULL = 124,
	ISA_REG_M0 = 125,
	ISA_REG_EXEC_LO = 126,
	ISA_REG_EXEC_HI = 127,
	ISA_REG_FLAT_SCRATCH_BASE_LO = 230,
	ISA_REG_FLAT_SCRATCH_BASE_HI = 231,
	ISA_REG_SHARED_BASE = 235,
	ISA_REG_SHARED_LIMIT = 236,
	ISA_REG_PRIVATE_BASE = 237,
	ISA_REG_PRIVATE_LIMIT = 238,
	ISA_REG_POPS_EXITING_WAVE_ID = 239,
	ISA_REG_VCCZ = 251,
	ISA_REG_EXECZ = 252,
	ISA_REG_SCC = 253,
	/* GFX9 only (gfx942): codes 102..105 are these, not SGPRs; its m0 (code 124) is ISA_REG_M0.
	 */
	ISA_REG_FLAT_SCRATCH_LO = 102,
	ISA_REG_FLAT_SCRATCH_HI = 103,
	ISA_REG_XNACK_MASK_LO = 104,
	ISA_REG_XNACK_MASK_HI = 105,
	ISA_REG_LDS_DIRECT = 254, /* GFX9 src_lds_direct (gfx1250: the 64-bit literal code) */
};

enum isa_role {
	ISA_ROLE_SRC = 0,
	ISA_ROLE_DST = 1,
};

/* isa_operand.flags */
#define ISA_OPF_NEG      0x01u /* neg modifier (VOP3 / VOPD3 / VOP3P neg_lo) */
#define ISA_OPF_ABS      0x02u /* abs modifier */
#define ISA_OPF_FIXED    0x04u /* fixed by the opcode (vcc_lo of VOPC e32), printed */
#define ISA_OPF_FLOATINL 0x08u /* a floating-point inline constant (0.5, 1.0, ..., 1/(2pi)) */
#define ISA_OPF_OFF      0x10u /* an absent address register, printed "off" (kind SPECIAL, NULL) */
#define ISA_OPF_TIED                                                                               \
	0x20u /* the same register as the operand after it (buffer atomics), not printed */

struct isa_operand {
	uint8_t kind;  /* enum isa_operand_kind */
	uint8_t role;  /* enum isa_role */
	uint8_t width; /* dwords (1, 2, 3, 4, 8, 16); 0 for IMM/LABEL */
	uint8_t flags; /* ISA_OPF_* */
	uint16_t reg;
	int64_t imm;
};

/* Implicit register bits (isa_inst.impl_def / impl_use, and the table's implicit regs). */
#define ISA_IMPL_EXEC 0x01u
#define ISA_IMPL_VCC  0x02u
#define ISA_IMPL_SCC  0x04u
#define ISA_IMPL_M0   0x08u
/* In a table row: the registers used, packed above the ones defined. */
#define ISA_USE(x) ((x) << 4)

/* Row flags (isa_row.flags), also copied to isa_inst.flags. */
#define ISA_F_E64     0x0001u /* a VOP1/VOP2/VOPC row that also has the VOP3 form */
#define ISA_F_BRANCH  0x0002u /* simm16 is a branch offset (label) */
#define ISA_F_TERM    0x0004u /* no fall-through: s_branch, s_endpgm, s_set_pc/add_pc/rfe_i64 */
#define ISA_F_BARRIER 0x0008u /* workgroup barrier signal/wait */
#define ISA_F_WAIT    0x0010u /* a counter wait / dependency hint */
#define ISA_F_CALL    0x0020u /* s_swap_pc_i64 / s_call_i64 */
#define ISA_F_LITK    0x0040u /* a mandatory literal constant K (fmamk/fmaak, s_setreg_imm32) */
#define ISA_F_LITK64  0x0080u /* ... that is 64 bits wide */
#define ISA_F_RTN     0x0100u /* atomic with a return value (FLAT: th bit 0 selects it) */
#define ISA_F_STORE   0x0200u /* memory store / atomic without destination */
#define ISA_F_CONDBR  0x0400u /* conditional branch (ends a block, falls through) */
#define ISA_F_SIMM    0x0800u /* SOPP/SOPK: the simm16 is an operand */
#define ISA_F_FLOAT   0x1000u /* floating-point sources: inline constants are floats */
#define ISA_F_MSB     0x4000u /* sets the VGPR banks (s_set_vgpr_msb, a MODE write): decoder state */
#define ISA_F_F16     0x8000u /* 16-bit float sources (inline constants are f16) */

/* Operand shape bits (isa_row.shape): which fields are registers of which file. */
#define ISA_S_SDST    0x0001u /* VOP3: dst is an SGPR (readlane, VOP3 compares) */
#define ISA_S_SDST2   0x0002u /* VOP3SD: vdst plus an SGPR carry-out in [14:8] */
#define ISA_S_VCCIN   0x0008u /* e32 form reads vcc_lo as its last source (cndmask, addc) */
#define ISA_S_VCCOUT  0x0010u /* e32 form writes vcc_lo (VOPC, add_co_ci) */
#define ISA_S_NODST   0x0020u /* VOPC: no destination (v_cmpx writes EXEC) */
#define ISA_S_2ADDR   0x0100u /* DS: offset0/offset1 instead of offset */
#define ISA_S_NOADDR  0x0200u /* no address operand (DS/global addtid, ds_append, cache ops) */
#define ISA_S_NODATA  0x0800u /* FLAT / DS: no data operand (a load) */
#define ISA_S_SWZ     0x1000u /* DS: offset is a swizzle pattern */
#define ISA_S_KMID    0x2000u /* the literal K sits between the sources (fmamk) */
#define ISA_S_VDSTSRC 0x4000u /* FLAT: the vdst field is read (an LDS address) */
#define ISA_S_ADST    0x0040u /* gfx942: the destination is an AGPR (v_accvgpr_write) */
#define ISA_S_ASRC    0x0080u /* gfx942: src0 is an AGPR (v_accvgpr_read) */

/*
 * What a row does, as data (docs/isa-decoder.md, "What a row means"), the way LLVM's records
 * carry mayLoad and MemVT: consumers read these columns, never the mnemonic.
 *
 * TYPE (isa_row.type): the data type, ISA_T(kind, bits): a memory row's element, any other
 * row's sources as LLVM names them last (v_add_f32: f32, v_cvt_f32_f16: f16, v_cmp_lt_i32:
 * i32, v_mad_u64_u32: u32); 0 when the name gives none (v_cvt_f32_ubyte0, s_nop).
 */
#define ISA_TK_B          1 /* bits (no arithmetic meaning) */
#define ISA_TK_U          2 /* unsigned integer */
#define ISA_TK_I          3 /* signed integer */
#define ISA_TK_F          4 /* IEEE float */
#define ISA_TK_BF         5 /* bfloat */
#define ISA_T(kind, bits) (ISA_TK_##kind << 12 | (bits))

static inline unsigned isa_type_kind(unsigned type)
{
	return type >> 12;
}

static inline unsigned isa_type_bits(unsigned type)
{
	return type & 0xfffu;
}

/*
 * MEM (isa_row.mem): a memory access, its kind in the low two bits (ISA_M_KIND) and what
 * qualifies it; 0 for a row that is no load, store or atomic (cache controls, prefetches, the
 * cross-lane DS moves, ds_append).  Two-address DS forms are the shape's ISA_S_2ADDR.
 */
#define ISA_M_LOAD     0x001u
#define ISA_M_STORE    0x002u
#define ISA_M_ATOMIC   0x003u /* a read-modify-write: which one is OPER (0: none of ours) */
#define ISA_M_KIND     0x003u /* the mask of the three above */
#define ISA_M_D16      0x004u /* 16 bits of the VGPR: the low half, or the high with ISA_M_HI */
#define ISA_M_HI       0x008u
#define ISA_M_STRIDE64 0x010u /* two-address: offsets count 64 elements */
#define ISA_M_RTN      0x020u /* an atomic that returns the old value (FLAT: when th says so) */
#define ISA_M_RSRC     0x040u /* addressed through a buffer resource (s_buffer_*, buffer_*) */
#define ISA_M_ASYNC    0x080u /* a copy between global memory and LDS: LOAD to it, STORE from */
#define ISA_M_ADDTID   0x100u /* no address operand: M0 plus the lane's id */
#define ISA_M_CLUSTER  0x200u /* B0's cluster load: a global load broadcast to the cluster */
#define ISA_M_TR       0x400u /* a transposing load */

/*
 * OPER (isa_row.oper): the operation, where consumers dispatch on what a row does rather than
 * on which row it is: scalar float math (v_/s_<op>_f16/f32/f64), the compares' condition
 * (v_cmp*, v_cmpx*, s_cmp*) and a memory atomic's read-modify-write (isa/isa_opers.def).
 * Other rows have 0.
 */
enum isa_oper {
	ISA_O_NONE = 0,
#define ISA_OPER(id, name) ISA_O_##id,
#include "../../isa_opers.def"
#undef ISA_OPER
	ISA_O_COUNT
};

/* The compare conditions are one run of enum isa_oper. */
static inline int isa_oper_is_compare(unsigned oper)
{
	return oper >= ISA_O_CMP_LT && oper <= ISA_O_CMP_CLASS;
}

/* The name of an enum isa_oper ("add", "cmpswap", "lt"), "" for ISA_O_NONE. */
const char *isa_oper_name(unsigned oper);

struct isa_row {
	const char *mnemonic;
	uint8_t format;                /* enum isa_format: the native encoding */
	uint16_t opcode;               /* opcode number inside that family */
	uint8_t dst, src0, src1, src2; /* width in dwords of each slot; 0 = absent */
	uint16_t shape;                /* ISA_S_* */
	uint8_t impl_def, impl_use;    /* ISA_IMPL_* */
	uint32_t flags;                /* ISA_F_* */
	uint8_t vopd;                  /* VOPD/VOPD3 component opcode + 1; 0 = none */
	uint8_t oper;                  /* enum isa_oper */
	uint16_t type;                 /* ISA_T(kind, bits) */
	uint16_t mem;                  /* ISA_M_* */
	const char *sample;            /* assembler text pinned against llvm-mc (tests) */
};

/* A table of rows for one ISA, indexed by enum isa_op (mnemonic NULL: no row in that ISA). */
extern const struct isa_row isa_gfx1250_rows[ISA_OP_COUNT];
extern const struct isa_row isa_gfx942_rows[ISA_OP_COUNT];
extern const struct isa_row isa_gfx950_rows[ISA_OP_COUNT];

/* The rows of an enum isa_arch, or NULL. */
const struct isa_row *isa_arch_rows(unsigned arch);
/* The row id of (format, opcode: the family's opcode field) in the table of arch, or
 * ISA_OP_UNKNOWN (a VOP1/VOP2/VOPC row is found at its native format only). */
unsigned isa_find(unsigned arch, unsigned format, unsigned opcode);
/* "gfx1250" / "gfx942" / "gfx950", or "?". */
const char *isa_arch_name(unsigned arch);
/* The enum isa_arch named "gfx1250" / "gfx942" / "gfx950", or -1. */
int isa_arch_by_name(const char *name);
/* The LDS a workgroup of that processor may have, in bytes (0 for no table). */
uint32_t isa_arch_lds_limit(unsigned arch);
/* The block a workgroup's LDS is allocated in, in bytes (1 for no table): a workgroup may use
 * its static and dynamic LDS rounded up to it. */
uint32_t isa_arch_lds_granule(unsigned arch);
/*
 * The table for a code object's processor, from its ELF e_flags: ISA_ARCH_GFX1250 for the
 * gfx12.5 family, ISA_ARCH_GFX950 for gfx950, ISA_ARCH_GFX942 for the rest of gfx9.4 (gfx942,
 * gfx9-4-generic); -1 for any other processor (no table).
 */
int isa_arch_of_e_flags(uint32_t e_flags);

/* Modifiers; only the fields meaningful for the format are set, the rest are 0. */
struct isa_mods {
	uint8_t clamp, omod;               /* VOP3 */
	uint8_t op_sel, op_sel_hi, neg_hi; /* VOP3 / VOP3P bit masks per source (op_sel b3 = dst) */
	uint8_t bitop3;                    /* v_bitop3 / v_dual_bitop2 truth table */
	int32_t offset;                    /* SMEM / FLAT / DS / VBUFFER byte offset */
	uint8_t offset0, offset1;          /* DS 2addr */
	uint8_t th, scope;                 /* cache policy (SMEM, FLAT, VBUFFER) */
	uint8_t sve, offen, idxen;         /* scratch VGPR-address enable; VBUFFER address modes */
	uint16_t dpp_ctrl;                 /* DPP16 control */
	uint8_t row_mask, bank_mask, bound_ctrl, fi; /* DPP16 / DPP8 */
	uint32_t dpp8_sel;                           /* DPP8 lane selects (3 bits x 8) */
	uint16_t simm16;                             /* SOPP / SOPK immediate */
};

#define ISA_MAX_OPERANDS 10

struct isa_inst {
	uint32_t offset;     /* byte offset of the instruction in the buffer given */
	uint8_t size;        /* bytes, literal included; 0 when not known (see isa_decode) */
	uint8_t format;      /* enum isa_format actually encoded (VOP3 for an e64 of a VOP2 row) */
	uint8_t dpp;         /* 0, 16 (DPP16) or 8 (DPP8) */
	uint8_t nops;        /* operands used */
	uint16_t op, op_y;   /* enum isa_op; op_y is VOPD's second component */
	uint16_t raw_opcode; /* opcode field as encoded (for UNKNOWN records and reports) */
	uint8_t impl_def, impl_use; /* ISA_IMPL_* */
	uint8_t literal_size;       /* 0, 4 or 8 */
	uint8_t nops_x;             /* VOPD: operands [0, nops_x) belong to X, the rest to Y */
	uint32_t flags;             /* the row's ISA_F_* */
	uint64_t literal;
	struct isa_mods mods;
	struct isa_operand ops[ISA_MAX_OPERANDS];
	/* Added with the gfx942 table (after the gfx1250 fields, which keep their layout): */
	uint8_t arch; /* enum isa_arch of the table that decoded it */
	uint8_t sdwa; /* 1: a GFX9 SDWA variant of VOP1/VOP2/VOPC (the fields below) */
	uint8_t sdwa_dst_sel, sdwa_dst_unused, sdwa_src0_sel, sdwa_src1_sel; /* SDWA selects */
	uint8_t acc;       /* gfx942 memory forms: the data/vdst registers are AGPRs (acc bit) */
	uint8_t sdwa_sext; /* SDWA: bit 0 src0, bit 1 src1 sign-extended (sext) */
};

/* Decoder state carried across a linear sweep of one function. */
struct isa_state {
	uint8_t vgpr_msb; /* s_set_vgpr_msb imm[7:0]: 2 bits each of src0, src1, src2, dst */
};

/* Resets the state for the start of a function. */
void isa_state_reset(struct isa_state *st);

/* Return codes of the isa_decode_* functions (0 = a record, possibly ISA_OP_UNKNOWN). */
enum isa_status {
	ISA_OK = 0,
	ISA_ERR_TRUNCATED = -1,    /* the instruction runs past the end of the buffer */
	ISA_ERR_SIZE_UNKNOWN = -2, /* an unknown form whose size the format does not fix */
	ISA_ERR_ARG = -3,          /* NULL arguments */
};

/*
 * Decodes the instruction at buf[off] (buf holds len bytes).  On ISA_OK *out is the
 * record: out->op is ISA_OP_UNKNOWN for a form no row describes, whose size the format
 * fixes (it is never guessed).  On ISA_ERR_TRUNCATED / ISA_ERR_SIZE_UNKNOWN out->offset,
 * out->format, out->raw_opcode and (for truncation) out->size say where and what.  Reads
 * no byte outside buf[0, len).  st (may be NULL: no MSB state) is read for VGPR numbers
 * and updated by s_set_vgpr_msb.
 */
int isa_decode_gfx1250(const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
                       struct isa_inst *out);
/*
 * The first dword of a gfx1250 instruction with every operand field zero: its family's prefix
 * and the row's opcode, from the tables the decoder reads, so that code which emits
 * instructions (the B0->A0 pass) holds no opcode numbers of its own.  A VOP1/VOP2/VOPC row
 * gives its e32 form.  0 for an unknown op or a VOPD component.
 */
uint32_t isa_gfx1250_word0(unsigned op);

/*
 * The same for gfx942 (GFX9.4, wave64; gfx950 code decodes with this table): 64-bit masks
 * (vcc, exec, compare results), AGPRs, SDWA and GFX9 DPP, 8-byte FLAT/GLOBAL/SCRATCH, MUBUF
 * (ISA_FMT_VBUFFER).  st is accepted for symmetry (GFX9 has no decoder state).
 */
int isa_decode_gfx942(const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
                      struct isa_inst *out);
/* The same with the gfx950 table (gfx942's rows plus v_bitop3). */
int isa_decode_gfx950(const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
                      struct isa_inst *out);
/* The one decoder: the table of enum isa_arch (ISA_ERR_ARG for another); the isa_decode_gfx*
 * above are it for their table. */
int isa_decode(unsigned arch, const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
               struct isa_inst *out);

/* Text of an isa_status. */
const char *isa_strerror(int status);

/* Name of a format ("VOP2", ...). */
const char *isa_format_name(unsigned format);

/* The mnemonic of a record: the row's, "v_dual_X" for VOPD, "<unknown>" for none. */
const char *isa_inst_mnemonic(const struct isa_inst *in);

/*
 * Prints the record as LLVM-style assembler text (mnemonic, operands, the modifiers
 * that matter to tests) into buf; returns the length it needed, like snprintf.
 */
int isa_inst_format(const struct isa_inst *in, char *buf, size_t size);

#endif
