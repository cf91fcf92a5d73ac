/* The B0->A0 pass's bytes: site classes, in-place opcodes, DS2 split, ADDTID, s_branch, far jump.
 */
#include "b0a0_encode.h"

#include <string.h>

#include "le_bytes.h"

#include <mirage/isa.h>

/* Opcode numbers, first dwords and what each instruction does come from the decoder's rows
 * (isa/gfx1250.def: opcodes pinned against llvm-mc-22 by tests/integration/isa_rows.sh, the
 * meaning columns by unit/isa_meaning); this file only places fields. */
#define OPCODE(id) (isa_gfx1250_rows[ISA_OP_##id].opcode)
#define WORD0(id)  isa_gfx1250_word0(ISA_OP_##id)

/* VGLOBAL: the opcode is dword0[21:14], the SGPR base dword0[6:0] (0x7c: off). */
#define VG_OP_SHIFT  14
#define VG_OP_MASK   (0xffu << VG_OP_SHIFT)
#define VG_SADDR_OFF 0x7cu
/* SOP1: the opcode is byte 1, ssrc0 byte 0 (below 0x80: a register, m0 included). */
/* DS: offset0 [7:0], offset1 [15:8] (one 16-bit offset in the single forms), opcode [25:18]. */
#define DS_OP_SHIFT 18
#define DS_OP_MASK  (0xffu << DS_OP_SHIFT)

/* The gfx1250 row of (format, opcode), NULL for none. */
static const struct isa_row *row_at(unsigned format, unsigned opcode)
{
	unsigned id = isa_find(ISA_ARCH_GFX1250, format, opcode);
	return id ? &isa_gfx1250_rows[id] : NULL;
}

/*
 * The row of format that does what r does with mem for its MEM (the same TYPE and OPER) and
 * one address: a cluster load's global load, a two-address half's single form, an ADDTID
 * access with a VGPR address.  NULL when the table has none.
 */
static const struct isa_row *counterpart(const struct isa_row *r, unsigned format, unsigned mem)
{
	for (unsigned id = 1; id < ISA_OP_COUNT; id++) {
		const struct isa_row *c = &isa_gfx1250_rows[id];
		if (c->mnemonic && c->format == format && c->mem == mem && c->type == r->type &&
		    c->oper == r->oper && !(c->shape & ISA_S_2ADDR))
			return c;
	}
	return NULL;
}

/* The A0 load a cluster load (B0-only, ISA_M_CLUSTER) becomes: the same global load. */
static const struct isa_row *cluster_target(const struct isa_row *r)
{
	if (!r || !(r->mem & ISA_M_CLUSTER))
		return NULL;
	return counterpart(r, ISA_FMT_VGLOBAL, r->mem & ~ISA_M_CLUSTER);
}

enum hs_b0a0_site hs_b0a0_classify(const uint8_t *p, size_t size, unsigned format, unsigned opcode)
{
	const struct isa_row *r = row_at(format, opcode);

	if (!r)
		return HS_SITE_NONE;
	switch (format) {
	case ISA_FMT_VGLOBAL:
		if (size < 12 || !cluster_target(r))
			return HS_SITE_NONE;
		return (p[0] & 0x7f) == VG_SADDR_OFF ? HS_SITE_CLUSTER_LOAD : HS_SITE_CLUSTER_SADDR;
	case ISA_FMT_SOP1:
		if (size < 4 || r != &isa_gfx1250_rows[ISA_OP_S_BARRIER_SIGNAL_ISFIRST])
			return HS_SITE_NONE;
		return p[0] < 0x80 ? HS_SITE_ISFIRST_REG : HS_SITE_ISFIRST;
	case ISA_FMT_DS:
		if (size != 8)
			return HS_SITE_NONE;
		if (r->mem & ISA_M_ADDTID)
			return HS_SITE_ADDTID;
		return r->shape & ISA_S_2ADDR ? HS_SITE_DS2 : HS_SITE_NONE;
	default:
		return HS_SITE_NONE;
	}
}

void hs_b0a0_in_place(uint8_t dw0[4], enum hs_b0a0_site kind)
{
	uint32_t w = hs_rd32(dw0);
	const struct isa_row *to;

	if (kind == HS_SITE_ISFIRST) {
		dw0[1] = (uint8_t)OPCODE(S_BARRIER_SIGNAL);
		return;
	}
	to = cluster_target(row_at(ISA_FMT_VGLOBAL, (w & VG_OP_MASK) >> VG_OP_SHIFT));
	if (!to)
		return;
	w = (w & ~VG_OP_MASK) | (uint32_t)to->opcode << VG_OP_SHIFT;
	hs_wr32(dw0, w);
}

void hs_nop_encode(uint8_t out[4])
{
	hs_wr32(out, WORD0(S_NOP)); /* simm16 0 */
}

bool hs_sbranch_encode(uint64_t pc, uint64_t target, uint8_t out[4])
{
	/* target = pc + 4 + 4 * simm16, simm16 in [-32768, 32767]. */
	int64_t d = (int64_t)(target - (pc + 4));

	if (d % 4 || d / 4 < INT16_MIN || d / 4 > INT16_MAX)
		return false;
	hs_wr32(out, WORD0(S_BRANCH) | ((uint32_t)(d / 4) & 0xffffu));
	return true;
}

/* SOP1 sdst [22:16], ssrc0 [7:0]; SOP2 sdst [22:16], ssrc1 [15:8], ssrc0 [7:0]. */
#define SRC_LIT32 0xffu
#define SRC_LIT64 0xfeu
/* Source operand codes: m0, the inline constants 0, 2 and -1. */
#define SRC_M0   0x7du
#define SRC_ZERO 0x80u
#define SRC_TWO  0x82u
#define SRC_NEG1 0xc1u

size_t hs_far_jump_size(uint64_t pc, uint64_t target)
{
	return 4 + hs_far_gate_size(pc, target);
}

size_t hs_far_gate_size(uint64_t pc, uint64_t target)
{
	return target - (pc + 4) < (1ull << 31) ? HS_FAR_JUMP_MIN - 4 : HS_FAR_JUMP_MAX - 4;
}

void hs_get_pc_encode(unsigned pair, uint8_t out[4])
{
	hs_wr32(out, WORD0(S_GET_PC_I64) | (pair & 0x7fu) << 16);
}

size_t hs_far_gate_encode(uint64_t pc, uint64_t target, unsigned pair, size_t room, uint8_t *out)
{
	uint64_t delta = target - (pc + 4); /* s_get_pc_i64 gives the next instruction's address */
	size_t size = hs_far_gate_size(pc, target);
	bool lit32 = size == HS_FAR_JUMP_MIN - 4;
	uint32_t p = pair & 0x7fu;

	if (size > room)
		return 0;
	hs_wr32(out, WORD0(S_ADD_NC_U64) | p << 16 | (lit32 ? SRC_LIT32 : SRC_LIT64) << 8 | p);
	if (lit32)
		hs_wr32(out + 4, (uint32_t)delta);
	else
		hs_wr64(out + 4, delta);
	hs_wr32(out + size - 4, WORD0(S_SET_PC_I64) | p);
	return size;
}

size_t hs_far_jump_encode(uint64_t pc, uint64_t target, unsigned pair, size_t room, uint8_t *out)
{
	if (hs_far_jump_size(pc, target) > room)
		return 0;
	hs_get_pc_encode(pair, out);
	return 4 + hs_far_gate_encode(pc, target, pair, room - 4, out + 4);
}

/* True when register ranges [a, a+na) and [b, b+nb) share a VGPR. */
static bool overlap(unsigned a, unsigned na, unsigned b, unsigned nb)
{
	return na && nb && a < b + nb && b < a + na;
}

enum hs_ds2_refusal hs_ds2_split(const uint8_t site[8], uint8_t out[HS_DS2_SPLIT_SIZE])
{
	uint32_t w0 = hs_rd32(site), w1 = hs_rd32(site + 4);
	const struct isa_row *r = row_at(ISA_FMT_DS, (w0 & DS_OP_MASK) >> DS_OP_SHIFT), *one;
	unsigned addr = w1 & 0xff, data[2] = {(w1 >> 8) & 0xff, (w1 >> 16) & 0xff};
	unsigned vdst = w1 >> 24, dw, nd, nw, first, elem, kind;
	uint32_t off[2];

	if (!r || !(r->shape & ISA_S_2ADDR))
		return HS_DS2_UNKNOWN;
	one = counterpart(r, ISA_FMT_DS, r->mem & ~ISA_M_STRIDE64);
	if (!one)
		return HS_DS2_UNKNOWN;
	elem = isa_type_bits(r->type) / 8;
	kind = r->mem & ISA_M_KIND; /* a load, a store, or an exchange (the atomics) */
	dw = elem / 4;
	nd = kind == ISA_M_STORE ? 0 : dw; /* VGPRs each half writes */
	nw = kind == ISA_M_LOAD ? 0 : dw;  /* data VGPRs each half reads */
	for (int h = 0; h < 2; h++) {
		off[h] = (uint32_t)((w0 >> (8 * h)) & 0xff) * elem *
		         (r->mem & ISA_M_STRIDE64 ? 64u : 1u);
		if (off[h] > 0xffff)
			return HS_DS2_OFFSET;
	}
	/* Half h writes vdst + h*dw; the half issued second must still read what it needs. */
	first = 0;
	if (overlap(vdst, nd, addr, 1) || overlap(vdst, nd, data[1], nw)) {
		first = 1;
		if (overlap(vdst + dw, nd, addr, 1) || overlap(vdst + dw, nd, data[0], nw))
			return HS_DS2_CYCLIC;
	}
	for (unsigned i = 0; i < 2; i++) {
		unsigned h = first ^ i;
		uint32_t a =
		    (w0 & ~(DS_OP_MASK | 0xffffu)) | (uint32_t)one->opcode << DS_OP_SHIFT | off[h];
		uint32_t b = addr | (nw ? data[h] << 8 : 0) | (nd ? (vdst + h * dw) << 24 : 0);
		hs_wr32(out + 8 * i, a);
		hs_wr32(out + 8 * i + 4, b);
	}
	hs_wr32(out + 16, WORD0(S_WAIT_DSCNT)); /* s_wait_dscnt 0 */
	return HS_DS2_OK;
}

/* The ADDTID row of a site, NULL when it is none. */
static const struct isa_row *addtid_row(const uint8_t site[8])
{
	const struct isa_row *r = row_at(ISA_FMT_DS, (hs_rd32(site) & DS_OP_MASK) >> DS_OP_SHIFT);
	return r && (r->mem & ISA_M_ADDTID) ? r : NULL;
}

bool hs_addtid_is_store(const uint8_t site[8])
{
	const struct isa_row *r = addtid_row(site);
	return r && (r->mem & ISA_M_KIND) == ISA_M_STORE;
}

void hs_addtid_encode(const uint8_t site[8], unsigned scratch, uint8_t out[HS_ADDTID_SIZE])
{
	uint32_t w0 = hs_rd32(site), w1 = hs_rd32(site + 4);
	const struct isa_row *r = addtid_row(site);
	/* the same access with a VGPR address: ds_load_b32 / ds_store_b32 */
	const struct isa_row *one = r ? counterpart(r, ISA_FMT_DS, r->mem & ~ISA_M_ADDTID) : NULL;
	bool store = hs_addtid_is_store(site);
	uint32_t t = store ? scratch & 0xff : w1 >> 24, d = (w1 >> 8) & 0xff;
	uint32_t vop2 = t << 17 | t << 9; /* vdst [24:17], vsrc1 [16:9] */

	/* VOP3 vdst [7:0]; dword 1 src0 [8:0], src1 [17:9] (VGPRs at 256). */
	hs_wr32(out + 0, WORD0(V_MBCNT_LO_U32_B32) | t); /* v_mbcnt_lo_u32_b32 t, -1, 0 */
	hs_wr32(out + 4, SRC_NEG1 | SRC_ZERO << 9);
	hs_wr32(out + 8, WORD0(V_MBCNT_HI_U32_B32) | t); /* v_mbcnt_hi_u32_b32 t, -1, t */
	hs_wr32(out + 12, SRC_NEG1 | (256u + t) << 9);
	hs_wr32(out + 16, WORD0(V_LSHLREV_B32) | SRC_TWO | vop2); /* v_lshlrev_b32 t, 2, t */
	hs_wr32(out + 20, WORD0(V_ADD_NC_U32) | SRC_M0 | vop2);   /* v_add_nc_u32 t, m0, t */
	/* v_and_b32 t, 0xfffff, t (B0's 20 bits) */
	hs_wr32(out + 24, WORD0(V_AND_B32) | SRC_LIT32 | vop2);
	hs_wr32(out + 28, 0x000fffffu);
	/* ds_load_b32 t, t offset:N | ds_store_b32 t, d offset:N (the site's other bits kept) */
	hs_wr32(out + 32, (w0 & ~DS_OP_MASK) | (uint32_t)(one ? one->opcode : 0) << DS_OP_SHIFT);
	hs_wr32(out + 36, store ? (d << 8 | t) : (t << 24 | t));
}
