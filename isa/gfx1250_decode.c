/* gfx1250 field extraction: which family a word belongs to, and each family's operand fields. */
#include "isa_internal.h"

#include <string.h>

/* VGPR-MSB slots of s_set_vgpr_msb (two bits each in imm[7:0]). */
enum msb_slot {
	SLOT_SRC0 = 0,
	SLOT_SRC1 = 1,
	SLOT_SRC2 = 2,
	SLOT_DST = 3
};

/* Source encodings that are not registers. */
#define SRC_LIT64  254
#define SRC_LIT32  255
#define SRC_DPP16  250
#define SRC_DPP8   233
#define SRC_DPP8FI 234
#define SRC_VGPR0  256

/* A 9-bit source field (scalar codes < 256, VGPRs above), MSB bits of slot applied. */
static struct isa_operand *src(struct isa_ctx *c, unsigned code, unsigned width, unsigned role,
                               unsigned slot)
{
	struct isa_operand *o;

	if (code >= SRC_VGPR0) {
		o = isa_add(c, ISA_OPK_VGPR, role, width);
		o->reg = (uint16_t)(code - SRC_VGPR0 + 256 * ((c->msb >> (2 * slot)) & 3));
		return o;
	}
	if (code <= 105) {
		o = isa_add(c, ISA_OPK_SGPR, role, width);
		code = isa_align_tuple(code, width);
	} else if (code >= 108 && code <= 123) {
		o = isa_add(c, ISA_OPK_TTMP, role, width);
		code = isa_align_tuple(code - 108, width);
	} else if (code >= 128 && code <= 208) {
		o = isa_add(c, ISA_OPK_INLINE, role, width);
		o->imm = code <= 192 ? (int64_t)code - 128 : 192 - (int64_t)code;
	} else if (code >= 240 && code <= 248) {
		o = isa_add(c, ISA_OPK_INLINE, role, width);
		o->flags |= ISA_OPF_FLOATINL;
		o->imm = isa_float_inline[code - 240];
	} else if (code == SRC_LIT32 || code == SRC_LIT64) {
		o = isa_add(c, ISA_OPK_LITERAL, role, width);
		if (c->lit < (code == SRC_LIT64 ? 8u : 4u))
			c->lit = code == SRC_LIT64 ? 8 : 4;
		/*
		 * A 64-bit literal belongs to a 64-bit operand.  For a narrower one LLVM 22 does
		 * not agree with itself on the size (12 or 16 bytes), so neither do we guess.
		 */
		if (code == SRC_LIT64 && width < 2)
			c->lit64_narrow = true;
	} else {
		o = isa_add(c, ISA_OPK_SPECIAL, role, width);
	}
	o->reg = (uint16_t)code;
	return o;
}

static void vgpr(struct isa_ctx *c, unsigned v8, unsigned width, unsigned role, unsigned slot)
{
	src(c, SRC_VGPR0 + v8, width, role, slot);
}

/* The literal constant K of fmamk/fmaak-style rows. */
static void literal_k(struct isa_ctx *c, const struct isa_row *r)
{
	unsigned bytes = (r->flags & ISA_F_LITK64) ? 8 : 4;
	struct isa_operand *o = isa_add(c, ISA_OPK_LITERAL, ISA_ROLE_SRC, bytes / 4);
	o->reg = bytes == 8 ? SRC_LIT64 : SRC_LIT32;
	if (c->lit < bytes)
		c->lit = bytes;
}

/* src0, src1 and the K literal of fmamk/fmaak rows in assembler order (codes are 9-bit). */
static void sources_k(struct isa_ctx *c, const struct isa_row *r, unsigned s0, unsigned s1)
{
	bool k = r->flags & ISA_F_LITK, mid = r->shape & ISA_S_KMID;

	if (r->src0)
		src(c, s0, r->src0, ISA_ROLE_SRC, SLOT_SRC0);
	if (k && mid)
		literal_k(c, r);
	/* After a K in the middle the VGPR is LLVM's third operand: its MSB bits are src2's. */
	if (r->src1)
		src(c, s1, r->src1, ISA_ROLE_SRC, mid ? SLOT_SRC2 : SLOT_SRC1);
	if (k && !mid)
		literal_k(c, r);
}

static const struct isa_row *row_of(unsigned id)
{
	return id ? &isa_gfx1250_rows[id] : NULL;
}

static bool is_lit(unsigned code)
{
	return code == SRC_LIT32 || code == SRC_LIT64;
}

/* ---- scalar families ---- */

static int sop1(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned ssrc0 = isa_bits(w, 7, 0), sdst = isa_bits(w, 22, 16);

	if (!r)
		return isa_unknown(c, is_lit(ssrc0));
	if (r->dst)
		src(c, sdst, r->dst, ISA_ROLE_DST, SLOT_DST);
	if (r->src0)
		src(c, ssrc0, r->src0, ISA_ROLE_SRC, SLOT_SRC0);
	return ISA_OK;
}

static int sop2(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned s0 = isa_bits(w, 7, 0), s1 = isa_bits(w, 15, 8), sdst = isa_bits(w, 22, 16);

	if (!r)
		return isa_unknown(c, is_lit(s0) || is_lit(s1));
	src(c, sdst, r->dst, ISA_ROLE_DST, SLOT_DST);
	sources_k(c, r, s0, s1);
	return ISA_OK;
}

static int sopc(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned s0 = isa_bits(w, 7, 0), s1 = isa_bits(w, 15, 8);

	if (!r)
		return isa_unknown(c, is_lit(s0) || is_lit(s1));
	src(c, s0, r->src0, ISA_ROLE_SRC, SLOT_SRC0);
	src(c, s1, r->src1, ISA_ROLE_SRC, SLOT_SRC1);
	return ISA_OK;
}

/* SOPK has no literal except s_setreg_imm32_b32, which is a row: unknown opcodes are 4 bytes. */
static int sopk(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned sdst = isa_bits(w, 22, 16);

	if (!r)
		return isa_unknown(c, false);
	if (r->dst)
		src(c, sdst, r->dst, ISA_ROLE_DST, SLOT_DST);
	isa_simm_operand(c, r, w);
	if (r->src0)
		src(c, sdst, r->src0, ISA_ROLE_SRC, SLOT_SRC0);
	if (r->flags & ISA_F_LITK)
		literal_k(c, r);
	return ISA_OK;
}

static int sopp(struct isa_ctx *c, const struct isa_row *r)
{
	if (!r)
		return isa_unknown(c, false);
	isa_simm_operand(c, r, isa_word(c, 0));
	return ISA_OK;
}

static int smem(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);
	unsigned soffset = isa_bits(w1, 31, 25);

	c->in->mods.offset = (int32_t)isa_sext(isa_bits(w1, 23, 0), 24);
	c->in->mods.scope = (uint8_t)isa_bits(w0, 22, 21);
	c->in->mods.th = (uint8_t)isa_bits(w0, 24, 23);
	if (!r)
		return isa_unknown(c, false);
	if (!r->dst) { /* s_prefetch_data sbase, offset, soffset, count (the sdata field) */
		src(c, isa_bits(w0, 5, 0) * 2, r->src0, ISA_ROLE_SRC, SLOT_SRC0);
		isa_imm(c, ISA_OPK_IMM, c->in->mods.offset);
		src(c, soffset, 1, ISA_ROLE_SRC, SLOT_SRC1);
		isa_imm(c, ISA_OPK_IMM, isa_bits(w0, 12, 6));
		return ISA_OK;
	}
	src(c, isa_bits(w0, 12, 6), r->dst, ISA_ROLE_DST, SLOT_DST);
	src(c, isa_bits(w0, 5, 0) * 2, r->src0, ISA_ROLE_SRC, SLOT_SRC0);
	/* LLVM's order: "sbase, 0x10" or "sbase, soffset offset:0x10" (the offset a modifier). */
	if (soffset != ISA_REG_NULL)
		src(c, soffset, 1, ISA_ROLE_SRC, SLOT_SRC1);
	else
		isa_imm(c, ISA_OPK_IMM, c->in->mods.offset);
	return ISA_OK;
}

/* ---- vector ALU ---- */

/* The DPP word after a VOP1/VOP2/VOPC/VOP3 whose src0 field is a DPP marker. */
static unsigned dpp(struct isa_ctx *c, unsigned marker, unsigned dword)
{
	struct isa_inst *in = c->in;
	uint32_t d = isa_word(c, dword);

	if (marker == SRC_DPP16) {
		in->dpp = 16;
		in->mods.dpp_ctrl = (uint16_t)isa_bits(d, 16, 8);
		in->mods.fi = (uint8_t)isa_bits(d, 18, 18);
		in->mods.bound_ctrl = (uint8_t)isa_bits(d, 19, 19);
		in->mods.bank_mask = (uint8_t)isa_bits(d, 27, 24);
		in->mods.row_mask = (uint8_t)isa_bits(d, 31, 28);
	} else {
		in->dpp = 8;
		in->mods.fi = marker == SRC_DPP8FI;
		in->mods.dpp8_sel = isa_bits(d, 31, 8);
	}
	return SRC_VGPR0 + isa_bits(d, 7, 0);
}

static bool is_dpp(unsigned code)
{
	return code == SRC_DPP16 || code == SRC_DPP8 || code == SRC_DPP8FI;
}

/* VOP1/VOP2/VOPC: base 4 bytes, 8 with DPP. */
static int vop_e32(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned fmt = c->fmt;
	unsigned s0 = isa_bits(w, 8, 0), vsrc1 = isa_bits(w, 16, 9), vdst = isa_bits(w, 24, 17);

	if (!r) /* with a DPP marker the size depends on whether the opcode has a src0 */
		return isa_unknown(c, is_lit(s0) || is_dpp(s0));
	if (is_dpp(s0) && r->src0) {
		c->base = 8;
		if (!isa_have(c, 8))
			return ISA_ERR_TRUNCATED;
		s0 = dpp(c, s0, 1);
	}
	if (fmt == ISA_FMT_VOPC) {
		if (!(r->shape & ISA_S_NODST))
			isa_fixed(c, ISA_REG_VCC_LO, ISA_ROLE_DST, 1);
	} else if (r->dst) {
		if (r->shape & ISA_S_SDST)
			src(c, vdst, r->dst, ISA_ROLE_DST, SLOT_DST);
		else
			vgpr(c, vdst, r->dst, ISA_ROLE_DST, SLOT_DST);
	}
	if (r->shape & ISA_S_VCCOUT && fmt == ISA_FMT_VOP2)
		isa_fixed(c, ISA_REG_VCC_LO, ISA_ROLE_DST, 1);
	sources_k(c, r, s0, SRC_VGPR0 + vsrc1);
	if (r->shape & ISA_S_VCCIN)
		isa_fixed(c, ISA_REG_VCC_LO, ISA_ROLE_SRC, 1);
	return ISA_OK;
}

static int vop3_any(struct isa_ctx *c, const struct isa_row *r, bool packed)
{
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);
	unsigned s[3] = {isa_bits(w1, 8, 0), isa_bits(w1, 17, 9), isa_bits(w1, 26, 18)};
	unsigned vdst = isa_bits(w0, 7, 0), first;
	unsigned widths[3];

	if (!r)
		return isa_unknown(c, is_lit(s[0]) || is_lit(s[1]) || is_lit(s[2]) || is_dpp(s[0]));
	if (is_dpp(s[0]) && r->src0) {
		c->base = 12;
		if (!isa_have(c, 12))
			return ISA_ERR_TRUNCATED;
		s[0] = dpp(c, s[0], 2);
	}
	if (r->format != ISA_FMT_VOP3 && (r->shape & (ISA_S_VCCIN | ISA_S_VCCOUT))) {
		/* The e64 form of a VOPC / carry / cndmask row names SGPRs instead of VCC. */
		in->impl_def &= (uint8_t)~ISA_IMPL_VCC;
		in->impl_use &= (uint8_t)~ISA_IMPL_VCC;
	}
	widths[0] = r->src0;
	widths[1] = r->src1;
	widths[2] = r->src2;
	if (r->format == ISA_FMT_VOP2 && (r->shape & ISA_S_VCCIN))
		widths[2] = 1; /* cndmask / carry-in: the e64 form names an SGPR mask */
	if (r->format == ISA_FMT_VOPC) {
		if (!(r->shape & ISA_S_NODST))
			src(c, vdst, 1, ISA_ROLE_DST, SLOT_DST);
	} else if (r->dst) {
		if (r->shape & ISA_S_SDST)
			src(c, vdst, r->dst, ISA_ROLE_DST, SLOT_DST);
		else
			vgpr(c, vdst, r->dst, ISA_ROLE_DST, SLOT_DST);
	}
	if (!packed && (r->shape & (ISA_S_SDST2 | ISA_S_VCCOUT)) && r->format != ISA_FMT_VOPC)
		src(c, isa_bits(w0, 14, 8), 1, ISA_ROLE_DST, SLOT_DST);
	first = in->nops;
	for (unsigned k = 0; k < 3; k++)
		if (widths[k])
			src(c, s[k], widths[k], ISA_ROLE_SRC, k);
	in->mods.clamp = (uint8_t)isa_bits(w0, 15, 15);
	if (packed) {
		in->mods.neg_hi = (uint8_t)isa_bits(w0, 10, 8);
		in->mods.op_sel = (uint8_t)isa_bits(w0, 13, 11);
		in->mods.op_sel_hi = (uint8_t)(isa_bits(w1, 28, 27) | isa_bits(w0, 14, 14) << 2);
		isa_src_mods(c, first, isa_bits(w1, 31, 29), 0, false);
	} else {
		bool sd = r->shape & (ISA_S_SDST2 | ISA_S_VCCOUT) && r->format != ISA_FMT_VOPC;
		in->mods.omod = (uint8_t)isa_bits(w1, 28, 27);
		if (!sd)
			in->mods.op_sel = (uint8_t)isa_bits(w0, 14, 11);
		isa_src_mods(c, first, isa_bits(w1, 31, 29), sd ? 0 : isa_bits(w0, 10, 8), false);
		if (in->op == ISA_OP_V_BITOP3_B32 || in->op == ISA_OP_V_BITOP3_B16)
			in->mods.bitop3 =
			    (uint8_t)(isa_bits(w1, 31, 29) | isa_bits(w0, 10, 8) << 3 |
			              isa_bits(w1, 28, 27) << 6);
	}
	return ISA_OK;
}

static int vop3(struct isa_ctx *c, const struct isa_row *r)
{
	return vop3_any(c, r, false);
}

static int vop3p(struct isa_ctx *c, const struct isa_row *r)
{
	return vop3_any(c, r, true);
}

/* One VOPD component (X or Y): dst, src0, [K], src1. */
static void vopd_part(struct isa_ctx *c, const struct isa_row *r, unsigned vdst, unsigned s0,
                      unsigned vsrc1)
{
	vgpr(c, vdst, r->dst, ISA_ROLE_DST, SLOT_DST);
	sources_k(c, r, s0, SRC_VGPR0 + vsrc1);
}

static int vopd(struct isa_ctx *c, const struct isa_row *unused)
{
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);
	unsigned idx = isa_find_vopd(ISA_ARCH_GFX1250, isa_bits(w0, 25, 22));
	unsigned idy = isa_find_vopd(ISA_ARCH_GFX1250, isa_bits(w0, 21, 17));
	unsigned s0x = isa_bits(w0, 8, 0), s0y = isa_bits(w1, 8, 0);
	unsigned vdstx = isa_bits(w1, 31, 24);
	unsigned vdsty = isa_bits(w1, 23, 17) << 1 | (~vdstx & 1);

	if (!idx || !idy)
		return isa_unknown(c, is_lit(s0x) || is_lit(s0y));
	in->op = (uint16_t)idx;
	in->op_y = (uint16_t)idy;
	vopd_part(c, row_of(idx), vdstx, s0x, isa_bits(w0, 16, 9));
	in->nops_x = in->nops;
	vopd_part(c, row_of(idy), vdsty, s0y, isa_bits(w1, 16, 9));
	isa_set_impl(in, row_of(idx));
	isa_set_impl(in, row_of(idy));
	return ISA_OK;
}

/* One VOPD3 component: up to three sources, neg bits, bitop3 for the bitop2 form. */
static void vopd3_part(struct isa_ctx *c, unsigned id, unsigned vdst, unsigned s0, unsigned s1,
                       unsigned s2, unsigned neg)
{
	const struct isa_row *r = row_of(id);
	unsigned first;
	bool bitop = id == ISA_OP_V_BITOP3_B32;

	vgpr(c, vdst, r->dst, ISA_ROLE_DST, SLOT_DST);
	first = c->in->nops;
	src(c, s0, r->src0, ISA_ROLE_SRC, SLOT_SRC0);
	if (r->src1)
		vgpr(c, s1, r->src1, ISA_ROLE_SRC, SLOT_SRC1);
	if (r->shape & ISA_S_VCCIN)
		src(c, s2, 1, ISA_ROLE_SRC, SLOT_SRC2); /* cndmask names its SGPR mask */
	else if (r->src2 && !bitop)
		vgpr(c, s2, r->src2, ISA_ROLE_SRC, SLOT_SRC2);
	else if (bitop)
		c->in->mods.bitop3 = (uint8_t)s2;
	isa_src_mods(c, first, neg, 0, false);
}

static int vopd3(struct isa_ctx *c, const struct isa_row *unused)
{
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1), w2 = isa_word(c, 2);
	unsigned idx = isa_find_vopd(ISA_ARCH_GFX1250, isa_bits(w0, 23, 18));
	unsigned idy = isa_find_vopd(ISA_ARCH_GFX1250, isa_bits(w0, 17, 12));
	unsigned s0x = isa_bits(w0, 8, 0), s0y = isa_bits(w1, 8, 0);

	if (!idx || !idy)
		return isa_unknown(c, is_lit(s0x) || is_lit(s0y));
	in->op = (uint16_t)idx;
	in->op_y = (uint16_t)idy;
	vopd3_part(c, idx, isa_bits(w2, 7, 0), s0x, isa_bits(w1, 23, 16), isa_bits(w1, 31, 24),
	           isa_bits(w1, 11, 9));
	in->nops_x = in->nops;
	vopd3_part(c, idy, isa_bits(w2, 31, 24), s0y, isa_bits(w2, 15, 8), isa_bits(w2, 23, 16),
	           isa_bits(w1, 14, 12));
	isa_set_impl(in, row_of(idx));
	isa_set_impl(in, row_of(idy));
	/* VOPD3's cndmask names its mask SGPR: no implicit VCC. */
	if (idx == ISA_OP_V_CNDMASK_B32 || idy == ISA_OP_V_CNDMASK_B32)
		in->impl_use &= (uint8_t)~ISA_IMPL_VCC;
	return ISA_OK;
}

/* ---- memory ---- */

static int ds(struct isa_ctx *c, const struct isa_row *r)
{
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);

	if (!r)
		return isa_unknown(c, false);
	if (r->shape & ISA_S_2ADDR) {
		in->mods.offset0 = (uint8_t)isa_bits(w0, 7, 0);
		in->mods.offset1 = (uint8_t)isa_bits(w0, 15, 8);
	} else {
		in->mods.offset = (int32_t)isa_bits(w0, 15, 0);
	}
	if (r->dst)
		vgpr(c, isa_bits(w1, 31, 24), r->dst, ISA_ROLE_DST, SLOT_DST);
	if (r->src0)
		vgpr(c, isa_bits(w1, 7, 0), r->src0, ISA_ROLE_SRC, SLOT_SRC0);
	if (r->src1)
		vgpr(c, isa_bits(w1, 15, 8), r->src1, ISA_ROLE_SRC, SLOT_SRC1);
	if (r->src2)
		vgpr(c, isa_bits(w1, 23, 16), r->src2, ISA_ROLE_SRC, SLOT_SRC2);
	return ISA_OK;
}

static int flat(struct isa_ctx *c, const struct isa_row *r)
{
	unsigned fmt = c->fmt;
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1), w2 = isa_word(c, 2);
	unsigned saddr = isa_bits(w0, 6, 0);
	bool has_saddr = saddr != ISA_REG_NULL;

	in->mods.th = (uint8_t)isa_bits(w1, 22, 20);
	in->mods.scope = (uint8_t)isa_bits(w1, 19, 18);
	in->mods.sve = (uint8_t)isa_bits(w1, 17, 17);
	in->mods.offset = (int32_t)isa_sext(isa_bits(w2, 31, 8), 24);
	if (!r)
		return isa_unknown(c, false);
	if ((r->shape & ISA_S_NOADDR) && !r->dst && !r->src1)
		in->mods.offset = 0; /* global_inv / wb / wbinv: no address, the field is unused */
	if (r->dst && (!(r->flags & ISA_F_RTN) || (in->mods.th & 1)))
		vgpr(c, isa_bits(w1, 7, 0), r->dst, ISA_ROLE_DST, SLOT_DST);
	if (r->shape & ISA_S_VDSTSRC)
		vgpr(c, isa_bits(w1, 7, 0), 1, ISA_ROLE_SRC, SLOT_DST);
	if (!(r->shape & ISA_S_NOADDR)) {
		if (fmt == ISA_FMT_VSCRATCH) {
			if (in->mods.sve)
				vgpr(c, isa_bits(w2, 7, 0), 1, ISA_ROLE_SRC, SLOT_SRC0);
			else
				isa_off_operand(c);
		} else {
			vgpr(c, isa_bits(w2, 7, 0), has_saddr ? 1 : 2, ISA_ROLE_SRC, SLOT_SRC0);
		}
	}
	if (r->src1)
		vgpr(c, isa_bits(w1, 30, 23), r->src1, ISA_ROLE_SRC, SLOT_SRC1);
	if (has_saddr)
		src(c, saddr, fmt == ISA_FMT_VSCRATCH ? 1 : 2, ISA_ROLE_SRC, SLOT_SRC2);
	else if (fmt != ISA_FMT_VFLAT && !(r->shape & ISA_S_NOADDR))
		isa_off_operand(c);
	return ISA_OK;
}

static int vbuffer(struct isa_ctx *c, const struct isa_row *r)
{
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1), w2 = isa_word(c, 2);
	unsigned vdata = isa_bits(w1, 7, 0);

	in->mods.th = (uint8_t)isa_bits(w1, 22, 20);
	in->mods.scope = (uint8_t)isa_bits(w1, 19, 18);
	in->mods.offen = (uint8_t)isa_bits(w1, 30, 30);
	in->mods.idxen = (uint8_t)isa_bits(w1, 31, 31);
	in->mods.offset = (int32_t)isa_bits(w2, 31, 8);
	if (!r)
		return isa_unknown(c, false);
	/* One vdata field: the loaded value, the stored data, or an atomic's data and result. */
	if (r->dst && (!(r->flags & ISA_F_RTN) || (in->mods.th & 1))) {
		vgpr(c, vdata, r->dst, ISA_ROLE_DST, SLOT_DST);
		if (r->src1)
			in->ops[in->nops - 1].flags |= ISA_OPF_TIED;
	}
	if (r->src1) /* stored data too: VBUFFER's vdata takes the dst MSB bits */
		vgpr(c, vdata, r->src1, ISA_ROLE_SRC, SLOT_DST);
	if (in->mods.offen || in->mods.idxen)
		vgpr(c, isa_bits(w2, 7, 0), in->mods.offen && in->mods.idxen ? 2 : 1, ISA_ROLE_SRC,
		     SLOT_SRC0);
	else
		isa_off_operand(c);
	src(c, isa_bits(w1, 15, 9), 4, ISA_ROLE_SRC, SLOT_SRC2);
	src(c, isa_bits(w0, 6, 0), 1, ISA_ROLE_SRC, SLOT_SRC2);
	return ISA_OK;
}

/* ---- dispatch ---- */

/* Per family: size before any literal, the opcode field, and the operand decoder. */
static const struct isa_family families[ISA_FMT_COUNT] = {
    [ISA_FMT_SOP1] = {4, 15, 8, 0, sop1},       [ISA_FMT_SOP2] = {4, 29, 23, 0, sop2},
    [ISA_FMT_SOPK] = {4, 27, 23, 0, sopk},      [ISA_FMT_SOPC] = {4, 22, 16, 0, sopc},
    [ISA_FMT_SOPP] = {4, 22, 16, 0, sopp},      [ISA_FMT_SMEM] = {8, 20, 13, 0, smem},
    [ISA_FMT_VOP1] = {4, 16, 9, 1, vop_e32},    [ISA_FMT_VOP2] = {4, 30, 25, 1, vop_e32},
    [ISA_FMT_VOPC] = {4, 24, 17, 1, vop_e32},   [ISA_FMT_VOP3] = {8, 25, 16, 1, vop3},
    [ISA_FMT_VOP3P] = {8, 22, 16, 1, vop3p},    [ISA_FMT_VOPD] = {8, 25, 17, 1, vopd},
    [ISA_FMT_VOPD3] = {12, 23, 12, 1, vopd3},   [ISA_FMT_DS] = {8, 25, 18, 1, ds},
    [ISA_FMT_VFLAT] = {12, 21, 14, 1, flat},    [ISA_FMT_VGLOBAL] = {12, 21, 14, 1, flat},
    [ISA_FMT_VSCRATCH] = {12, 21, 14, 1, flat}, [ISA_FMT_VBUFFER] = {12, 21, 14, 1, vbuffer},
};

/*
 * Which family the first dword belongs to: the first prefix that matches (order matters:
 * SOP1/SOPC/SOPP/SOPK sit inside SOP2's space, VOP1/VOPC inside VOP2's, VOPD3 inside VOP3P's).
 */
static const struct isa_prefix prefixes[] = {
    {23, 0x17d, ISA_FMT_SOP1}, {23, 0x17e, ISA_FMT_SOPC},    {23, 0x17f, ISA_FMT_SOPP},
    {28, 0xb, ISA_FMT_SOPK},   {30, 0x2, ISA_FMT_SOP2},      {25, 0x3f, ISA_FMT_VOP1},
    {25, 0x3e, ISA_FMT_VOPC},  {31, 0x0, ISA_FMT_VOP2},      {24, 0xcf, ISA_FMT_VOPD3},
    {26, 0x3d, ISA_FMT_SMEM},  {26, 0x35, ISA_FMT_VOP3},     {26, 0x33, ISA_FMT_VOP3P},
    {26, 0x32, ISA_FMT_VOPD},  {26, 0x36, ISA_FMT_DS},       {26, 0x31, ISA_FMT_VBUFFER},
    {24, 0xec, ISA_FMT_VFLAT}, {24, 0xed, ISA_FMT_VSCRATCH}, {24, 0xee, ISA_FMT_VGLOBAL},
};

uint32_t isa_gfx1250_word0(unsigned op)
{
	const struct isa_row *r = op < ISA_OP_COUNT ? &isa_gfx1250_rows[op] : NULL;

	if (!r || !r->mnemonic || r->format == ISA_FMT_VOPD || r->format == ISA_FMT_VOPD3)
		return 0;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (prefixes[i].fmt == r->format)
			return (uint32_t)prefixes[i].value << prefixes[i].shift |
			       (uint32_t)r->opcode << families[r->format].op_lo;
	return 0;
}

static unsigned classify(uint32_t w)
{
	return isa_classify(prefixes, sizeof(prefixes) / sizeof(prefixes[0]), w);
}

/* What the one decoder (isa_decode.c) reads of gfx1250: VOP3 opcodes 0x0.., 0x100.. and
 * 0x180.. are the e64 forms of VOPC, VOP2 and VOP1 rows. */
const struct isa_codec isa_gfx1250_codec = {
    .families = families,
    .classify = classify,
    .e64 = {{ISA_FMT_VOPC, 0, 0x100}, {ISA_FMT_VOP2, 0x100, 0x140}, {ISA_FMT_VOP1, 0x180, 0x280}},
};
