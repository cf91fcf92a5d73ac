/*
 * gfx942 field extraction (GFX9.4: CDNA3 MI300, and gfx950 CDNA4 with its own table), wave64:
 * which family a word belongs to, and each family's operand fields.  The rows are gfx942.def
 * (gfx950: plus gfx950.def); the record is the same as gfx1250's (docs/isa-decoder.md, "The
 * gfx942 table").
 */
#include "isa_internal.h"

/* Source encodings that are not registers (GFX9). */
#define SRC_M0    124
#define SRC_NULL  125 /* LLVM 22 prints "null" for it */
#define SRC_SDWA  249
#define SRC_DPP   250
#define SRC_LIT32 255
#define SRC_VGPR0 256

static struct isa_operand *reg_in(struct isa_ctx *c, unsigned kind, unsigned role, unsigned width,
                                  unsigned index)
{
	struct isa_operand *o = isa_add(c, kind, role, width);
	o->reg = (uint16_t)index;
	return o;
}

/*
 * A 9-bit source field: SGPRs s0..s101, the GFX9 specials (flat_scratch, xnack_mask, vcc,
 * ttmp0..15, m0, exec, apertures, ...), inline constants, the literal, VGPRs above 255.
 * m0 (124 here) is reported as ISA_REG_M0 and code 125 as ISA_REG_NULL (gfx1250's numbers, the
 * other way round), so that consumers see one register set.
 */
static struct isa_operand *src(struct isa_ctx *c, unsigned code, unsigned width, unsigned role)
{
	struct isa_operand *o;

	if (code >= SRC_VGPR0)
		return reg_in(c, ISA_OPK_VGPR, role, width, code - SRC_VGPR0);
	if (code <= 101)
		return reg_in(c, ISA_OPK_SGPR, role, width, isa_align_tuple(code, width));
	if (code >= 108 && code <= 123)
		return reg_in(c, ISA_OPK_TTMP, role, width, isa_align_tuple(code - 108, width));
	if (code >= 128 && code <= 208) {
		o = isa_add(c, ISA_OPK_INLINE, role, width);
		o->imm = code <= 192 ? (int64_t)code - 128 : 192 - (int64_t)code;
	} else if (code >= 240 && code <= 248) {
		o = isa_add(c, ISA_OPK_INLINE, role, width);
		o->flags |= ISA_OPF_FLOATINL;
		o->imm = isa_float_inline[code - 240];
	} else if (code == SRC_LIT32) {
		o = isa_add(c, ISA_OPK_LITERAL, role, width);
		c->lit = 4; /* GFX9 literals are 32 bits, also for 64-bit operands */
	} else {
		o = isa_add(c, ISA_OPK_SPECIAL, role, width);
		if (code == SRC_M0)
			code = ISA_REG_M0;
		else if (code == SRC_NULL)
			code = ISA_REG_NULL;
		else if (code == 102 || code == 104 || code == 106 || code == 126)
			code = isa_align_tuple(code,
			                       width); /* pairs: flat_scratch, xnack, vcc, exec */
	}
	o->reg = (uint16_t)code;
	return o;
}

/* An 8-bit VGPR field, or an AGPR one where the acc bit / the row says so. */
static void vreg(struct isa_ctx *c, unsigned v8, unsigned width, unsigned role, bool agpr)
{
	reg_in(c, agpr ? ISA_OPK_AGPR : ISA_OPK_VGPR, role, width, v8);
}

static bool is_lit(unsigned code)
{
	return code == SRC_LIT32;
}

/* The literal constant K of fmamk/fmaak and s_setreg_imm32 rows. */
static void literal_k(struct isa_ctx *c)
{
	struct isa_operand *o = isa_add(c, ISA_OPK_LITERAL, ISA_ROLE_SRC, 1);
	o->reg = SRC_LIT32;
	c->lit = 4;
}

static void sources_k(struct isa_ctx *c, const struct isa_row *r, unsigned s0, unsigned s1)
{
	bool k = r->flags & ISA_F_LITK, mid = r->shape & ISA_S_KMID;

	if (r->src0)
		src(c, s0, r->src0, ISA_ROLE_SRC);
	if (k && mid)
		literal_k(c);
	if (r->src1)
		src(c, s1, r->src1, ISA_ROLE_SRC);
	if (k && !mid)
		literal_k(c);
}

/* ---- scalar families (the same shapes as gfx1250, GFX9 opcode numbers) ---- */

static int sop1(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);

	if (!r)
		return isa_unknown(c, is_lit(isa_bits(w, 7, 0)));
	if (r->dst)
		src(c, isa_bits(w, 22, 16), r->dst, ISA_ROLE_DST);
	if (r->src0)
		src(c, isa_bits(w, 7, 0), r->src0, ISA_ROLE_SRC);
	return ISA_OK;
}

static int sop2(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned s0 = isa_bits(w, 7, 0), s1 = isa_bits(w, 15, 8);

	if (!r)
		return isa_unknown(c, is_lit(s0) || is_lit(s1));
	src(c, isa_bits(w, 22, 16), r->dst, ISA_ROLE_DST);
	sources_k(c, r, s0, s1);
	return ISA_OK;
}

static int sopc(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned s0 = isa_bits(w, 7, 0), s1 = isa_bits(w, 15, 8);

	if (!r)
		return isa_unknown(c, is_lit(s0) || is_lit(s1));
	src(c, s0, r->src0, ISA_ROLE_SRC);
	if (r->flags & ISA_F_SIMM) /* s_set_gpr_idx_on: SSRC1's field is the SIMM4 mode */
		isa_imm(c, ISA_OPK_IMM, s1 & 0xf);
	else
		src(c, s1, r->src1, ISA_ROLE_SRC);
	return ISA_OK;
}

static int sopk(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned sdst = isa_bits(w, 22, 16);

	if (!r)
		return isa_unknown(c, false);
	if (r->dst)
		src(c, sdst, r->dst, ISA_ROLE_DST);
	isa_simm_operand(c, r, w);
	if (r->src0)
		src(c, sdst, r->src0, ISA_ROLE_SRC);
	if (r->flags & ISA_F_LITK)
		literal_k(c);
	return ISA_OK;
}

static int sopp(struct isa_ctx *c, const struct isa_row *r)
{
	if (!r)
		return isa_unknown(c, false);
	isa_simm_operand(c, r, isa_word(c, 0));
	return ISA_OK;
}

/*
 * SMEM (8 bytes): sbase [5:0] (pairs), sdata [12:6], soe [14], nv [15], glc [16], imm [17],
 * op [25:18]; offset [52:32] (21-bit signed, imm=1) or an SGPR in [38:32] (imm=0), soffset [63:57]
 * (soe=1).  th gets glc.
 */
static int smem(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);
	bool imm_off = isa_bits(w0, 17, 17), soe = isa_bits(w0, 14, 14);
	int has_soff = soe || !imm_off;
	unsigned soffset = soe ? isa_bits(w1, 31, 25) : isa_bits(w1, 6, 0);

	c->in->mods.offset = imm_off ? (int32_t)isa_sext(isa_bits(w1, 20, 0), 21) : 0;
	c->in->mods.th = (uint8_t)isa_bits(w0, 16, 16);
	if (!r)
		return isa_unknown(c, false);
	if (!r->dst && !r->src0)
		return ISA_OK; /* s_dcache_wb and the like: no operands */
	if (r->dst)
		src(c, isa_bits(w0, 12, 6), r->dst, ISA_ROLE_DST);
	src(c, isa_bits(w0, 5, 0) * 2, r->src0, ISA_ROLE_SRC);
	if (has_soff)
		src(c, soffset, 1, ISA_ROLE_SRC);
	else
		isa_imm(c, ISA_OPK_IMM, c->in->mods.offset);
	return ISA_OK;
}

/* ---- vector ALU ---- */

/* GFX9 DPP word: src0 [7:0], dpp_ctrl [16:8], bound_ctrl [19], neg/abs [23:20], masks. */
static unsigned dpp(struct isa_ctx *c, unsigned *neg, unsigned *abs)
{
	struct isa_inst *in = c->in;
	uint32_t d = isa_word(c, 1);

	in->dpp = 16;
	in->mods.dpp_ctrl = (uint16_t)isa_bits(d, 16, 8);
	in->mods.bound_ctrl = (uint8_t)isa_bits(d, 19, 19);
	in->mods.bank_mask = (uint8_t)isa_bits(d, 27, 24);
	in->mods.row_mask = (uint8_t)isa_bits(d, 31, 28);
	*neg = isa_bits(d, 20, 20) | isa_bits(d, 22, 22) << 1;
	*abs = isa_bits(d, 21, 21) | isa_bits(d, 23, 23) << 1;
	return SRC_VGPR0 + isa_bits(d, 7, 0);
}

/*
 * SDWA word: src0 [7:0] (an SGPR when [23]), dst_sel [10:8], dst_unused [12:11] (VOPC: sdst
 * [14:8] when [15], else vcc), src0_sel [18:16], neg/abs [21:20], src1_sel [26:24], neg/abs
 * [29:28], src1 an SGPR when [31].  Returns the src0 code; *s1 becomes the src1 code.
 */
static unsigned sdwa(struct isa_ctx *c, unsigned vsrc1, unsigned *s1, unsigned *neg, unsigned *abs,
                     unsigned *sdst)
{
	struct isa_inst *in = c->in;
	uint32_t d = isa_word(c, 1);

	in->sdwa = 1;
	in->sdwa_src0_sel = (uint8_t)isa_bits(d, 18, 16);
	in->sdwa_src1_sel = (uint8_t)isa_bits(d, 26, 24);
	in->sdwa_sext = (uint8_t)(isa_bits(d, 19, 19) | isa_bits(d, 27, 27) << 1);
	if (c->fmt == ISA_FMT_VOPC) {
		*sdst = isa_bits(d, 15, 15) ? isa_bits(d, 14, 8) : ISA_REG_VCC_LO;
	} else {
		in->sdwa_dst_sel = (uint8_t)isa_bits(d, 10, 8);
		in->sdwa_dst_unused = (uint8_t)isa_bits(d, 12, 11);
		in->mods.clamp = (uint8_t)isa_bits(d, 13, 13);
		in->mods.omod = (uint8_t)isa_bits(d, 15, 14);
	}
	*neg = isa_bits(d, 20, 20) | isa_bits(d, 28, 28) << 1;
	*abs = isa_bits(d, 21, 21) | isa_bits(d, 29, 29) << 1;
	*s1 = isa_bits(d, 31, 31) ? vsrc1 : SRC_VGPR0 + vsrc1;
	return isa_bits(d, 23, 23) ? isa_bits(d, 7, 0) : SRC_VGPR0 + isa_bits(d, 7, 0);
}

static void vdst(struct isa_ctx *c, const struct isa_row *r, unsigned code)
{
	if (r->shape & ISA_S_SDST)
		src(c, code, r->dst, ISA_ROLE_DST);
	else
		vreg(c, code, r->dst, ISA_ROLE_DST, r->shape & ISA_S_ADST);
}

/* VOP1/VOP2/VOPC: 4 bytes, 8 with a DPP or SDWA word. */
static int vop_e32(struct isa_ctx *c, const struct isa_row *r)
{
	uint32_t w = isa_word(c, 0);
	unsigned fmt = c->fmt, neg = 0, abs = 0, first, sdst = ISA_REG_VCC_LO;
	unsigned s0 = isa_bits(w, 8, 0), s1 = SRC_VGPR0 + isa_bits(w, 16, 9);
	unsigned code = isa_bits(w, 24, 17);

	if (!r)
		return isa_unknown(c, is_lit(s0) || s0 == SRC_DPP || s0 == SRC_SDWA);
	if ((s0 == SRC_DPP || s0 == SRC_SDWA) && r->src0) {
		c->base = 8;
		if (!isa_have(c, 8))
			return ISA_ERR_TRUNCATED;
		s0 = s0 == SRC_DPP ? dpp(c, &neg, &abs)
		                   : sdwa(c, isa_bits(w, 16, 9), &s1, &neg, &abs, &sdst);
	}
	if (fmt == ISA_FMT_VOPC) {
		if (c->in->sdwa && sdst != ISA_REG_VCC_LO)
			src(c, sdst, 2, ISA_ROLE_DST);
		else
			isa_fixed(c, ISA_REG_VCC_LO, ISA_ROLE_DST, 2);
	} else if (r->dst) {
		vdst(c, r, code);
	}
	if ((r->shape & ISA_S_VCCOUT) && fmt == ISA_FMT_VOP2)
		isa_fixed(c, ISA_REG_VCC_LO, ISA_ROLE_DST, 2);
	first = c->in->nops;
	if (r->shape & ISA_S_ASRC)
		vreg(c, s0 - SRC_VGPR0, r->src0, ISA_ROLE_SRC, true);
	else
		sources_k(c, r, s0, s1);
	if (r->shape & ISA_S_VCCIN)
		isa_fixed(c, ISA_REG_VCC_LO, ISA_ROLE_SRC, 2);
	isa_src_mods(c, first, neg, abs, true);
	return ISA_OK;
}

/*
 * VOP3 (and VOP3b with an SGPR carry-out in [14:8]) and VOP3P: vdst [7:0], abs/neg_hi [10:8],
 * op_sel [14:11], clamp [15]; src0/1/2 [8:0]/[17:9]/[26:18], omod/op_sel_hi [28:27], neg
 * [31:29].  VOP3P-MAI (v_accvgpr_*, v_mfma_*): [15] is acc_cd (vdst and src2 are AGPRs).
 */
static int vop3_any(struct isa_ctx *c, const struct isa_row *r, bool packed)
{
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);
	unsigned s[3] = {isa_bits(w1, 8, 0), isa_bits(w1, 17, 9), isa_bits(w1, 26, 18)};
	unsigned widths[3], first;
	bool sd, mai = packed && r && (r->shape & (ISA_S_ADST | ISA_S_ASRC));
	bool mfma = mai && r->src2, acc_cd = mfma && isa_bits(w0, 15, 15);

	if (!r)
		return isa_unknown(c, is_lit(s[0]) || is_lit(s[1]) || is_lit(s[2]));
	if (r->format != ISA_FMT_VOP3 && r->format != ISA_FMT_VOP3P &&
	    (r->shape & (ISA_S_VCCIN | ISA_S_VCCOUT))) {
		/* The e64 form of a VOPC / carry / cndmask row names SGPRs instead of VCC. */
		in->impl_def &= (uint8_t)~ISA_IMPL_VCC;
		in->impl_use &= (uint8_t)~ISA_IMPL_VCC;
	}
	widths[0] = r->src0;
	widths[1] = r->src1;
	widths[2] = r->src2;
	if (r->format == ISA_FMT_VOP2 && (r->shape & ISA_S_VCCIN))
		widths[2] = 2; /* cndmask / carry-in: the e64 form names an SGPR pair */
	if (r->format == ISA_FMT_VOPC)
		src(c, isa_bits(w0, 7, 0), 2, ISA_ROLE_DST);
	else if (mfma) /* MFMA: vdst and src2 are AGPRs iff acc_cd */
		vreg(c, isa_bits(w0, 7, 0), r->dst, ISA_ROLE_DST, acc_cd);
	else if (r->dst)
		vdst(c, r, isa_bits(w0, 7, 0));
	sd = !packed && (r->shape & (ISA_S_SDST2 | ISA_S_VCCOUT)) && r->format != ISA_FMT_VOPC;
	if (sd)
		src(c, isa_bits(w0, 14, 8), 2, ISA_ROLE_DST);
	first = in->nops;
	for (unsigned k = 0; k < 3; k++) {
		if (!widths[k])
			continue;
		if (k == 0 && (r->shape & ISA_S_ASRC) && s[0] >= SRC_VGPR0)
			vreg(c, s[0] - SRC_VGPR0, widths[0], ISA_ROLE_SRC, true);
		else if (k == 2 && mfma && s[2] >= SRC_VGPR0)
			vreg(c, s[2] - SRC_VGPR0, widths[2], ISA_ROLE_SRC, acc_cd);
		else if (k < 2 && mfma && s[k] >= SRC_VGPR0) /* [59]/[60]: src0/src1 in AGPRs */
			vreg(c, s[k] - SRC_VGPR0, widths[k], ISA_ROLE_SRC,
			     isa_bits(w1, 27 + k, 27 + k));
		else
			src(c, s[k], widths[k], ISA_ROLE_SRC);
	}
	if (mfma) { /* cbsz [10:8], abid [14:11], blgp [63:61]: kept in the op_sel fields */
		in->mods.neg_hi = (uint8_t)isa_bits(w0, 10, 8);
		in->mods.op_sel = (uint8_t)isa_bits(w0, 14, 11);
		in->mods.op_sel_hi = (uint8_t)isa_bits(w1, 31, 29);
	}
	if (mai)
		return ISA_OK;
	in->mods.clamp = (uint8_t)isa_bits(w0, 15, 15);
	if (packed) {
		in->mods.neg_hi = (uint8_t)isa_bits(w0, 10, 8);
		in->mods.op_sel = (uint8_t)isa_bits(w0, 13, 11);
		in->mods.op_sel_hi = (uint8_t)(isa_bits(w1, 28, 27) | isa_bits(w0, 14, 14) << 2);
		isa_src_mods(c, first, isa_bits(w1, 31, 29), 0, true);
	} else if (in->op == ISA_OP_V_BITOP3_B32 || in->op == ISA_OP_V_BITOP3_B16) {
		/* gfx950: the truth table in the neg [2:0], abs [5:3] and omod [7:6] fields */
		in->mods.bitop3 = (uint8_t)(isa_bits(w1, 31, 29) | isa_bits(w0, 10, 8) << 3 |
		                            isa_bits(w1, 28, 27) << 6);
		in->mods.op_sel = (uint8_t)isa_bits(w0, 14, 11);
	} else {
		in->mods.omod = (uint8_t)isa_bits(w1, 28, 27);
		if (!sd)
			in->mods.op_sel = (uint8_t)isa_bits(w0, 14, 11);
		isa_src_mods(c, first, isa_bits(w1, 31, 29), sd ? 0 : isa_bits(w0, 10, 8), true);
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

/* ---- memory ---- */

/*
 * DS (8 bytes): offset0 [7:0], offset1 [15:8], gds [16], op [24:17], acc [25]; addr [39:32],
 * data0 [47:40], data1 [55:48], vdst [63:56].  acc: data and vdst are AGPRs.
 */
static int ds(struct isa_ctx *c, const struct isa_row *r)
{
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);
	bool acc = isa_bits(w0, 25, 25);

	in->acc = acc;
	if (!r)
		return isa_unknown(c, false);
	if (r->shape & ISA_S_2ADDR) {
		in->mods.offset0 = (uint8_t)isa_bits(w0, 7, 0);
		in->mods.offset1 = (uint8_t)isa_bits(w0, 15, 8);
	} else {
		in->mods.offset = (int32_t)isa_bits(w0, 15, 0);
	}
	if (r->dst)
		vreg(c, isa_bits(w1, 31, 24), r->dst, ISA_ROLE_DST, acc);
	if (r->src0)
		vreg(c, isa_bits(w1, 7, 0), r->src0, ISA_ROLE_SRC, false);
	if (r->src1)
		vreg(c, isa_bits(w1, 15, 8), r->src1, ISA_ROLE_SRC, acc);
	if (r->src2)
		vreg(c, isa_bits(w1, 23, 16), r->src2, ISA_ROLE_SRC, acc);
	return ISA_OK;
}

/*
 * FLAT/GLOBAL/SCRATCH (8 bytes, the segment in [15:14]): offset [12:0] (13-bit signed for
 * global/scratch), sve [13] (scratch: the VGPR address is used), sc0 [16] (atomics: return),
 * nt [17], op [24:18], sc1 [25]; addr [39:32], data [47:40], saddr [54:48] (0x7f: off),
 * acc [55], vdst [63:56].  th gets sc0 | nt << 1 | sc1 << 2.
 */
static int flat(struct isa_ctx *c, const struct isa_row *r)
{
	unsigned fmt = c->fmt;
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);
	unsigned saddr = isa_bits(w1, 22, 16);
	bool has_saddr = fmt != ISA_FMT_VFLAT && saddr != 0x7f, acc = isa_bits(w1, 23, 23);

	in->acc = acc;
	in->mods.th =
	    (uint8_t)(isa_bits(w0, 16, 16) | isa_bits(w0, 17, 17) << 1 | isa_bits(w0, 25, 25) << 2);
	in->mods.sve = (uint8_t)(fmt == ISA_FMT_VSCRATCH && isa_bits(w0, 13, 13));
	in->mods.offset = fmt == ISA_FMT_VFLAT ? (int32_t)isa_bits(w0, 11, 0)
	                                       : (int32_t)isa_sext(isa_bits(w0, 12, 0), 13);
	if (!r)
		return isa_unknown(c, false);
	if (r->dst && (!(r->flags & ISA_F_RTN) || (in->mods.th & 1)))
		vreg(c, isa_bits(w1, 31, 24), r->dst, ISA_ROLE_DST, acc);
	if (fmt == ISA_FMT_VSCRATCH) {
		if (in->mods.sve)
			vreg(c, isa_bits(w1, 7, 0), 1, ISA_ROLE_SRC, false);
		else
			isa_off_operand(c);
	} else {
		vreg(c, isa_bits(w1, 7, 0), has_saddr ? 1 : 2, ISA_ROLE_SRC, false);
	}
	if (r->src1)
		vreg(c, isa_bits(w1, 15, 8), r->src1, ISA_ROLE_SRC, acc);
	if (has_saddr)
		src(c, saddr, fmt == ISA_FMT_VSCRATCH ? 1 : 2, ISA_ROLE_SRC);
	else if (fmt != ISA_FMT_VFLAT)
		isa_off_operand(c);
	return ISA_OK;
}

/*
 * MUBUF (8 bytes, ISA_FMT_VBUFFER): offset [11:0], offen [12], idxen [13], sc0 [14], sc1
 * [15], lds [16], nt [17], op [24:18]; vaddr [39:32], vdata [47:40], srsrc [52:48] (x4),
 * acc [55], soffset [63:56].
 */
static int mubuf(struct isa_ctx *c, const struct isa_row *r)
{
	struct isa_inst *in = c->in;
	uint32_t w0 = isa_word(c, 0), w1 = isa_word(c, 1);
	unsigned vdata = isa_bits(w1, 15, 8);
	bool acc = isa_bits(w1, 23, 23);

	in->acc = acc;
	in->mods.th =
	    (uint8_t)(isa_bits(w0, 14, 14) | isa_bits(w0, 17, 17) << 1 | isa_bits(w0, 15, 15) << 2);
	in->mods.offen = (uint8_t)isa_bits(w0, 12, 12);
	in->mods.idxen = (uint8_t)isa_bits(w0, 13, 13);
	in->mods.offset = (int32_t)isa_bits(w0, 11, 0);
	if (!r)
		return isa_unknown(c, false);
	if (r->shape & ISA_S_NOADDR)
		return ISA_OK; /* buffer_wbl2 / buffer_inv: cache controls, no operands */
	if (r->dst && (!(r->flags & ISA_F_RTN) || (in->mods.th & 1))) {
		vreg(c, vdata, r->dst, ISA_ROLE_DST, acc);
		if (r->src1)
			in->ops[in->nops - 1].flags |= ISA_OPF_TIED;
	}
	if (r->src1)
		vreg(c, vdata, r->src1, ISA_ROLE_SRC, acc);
	if (in->mods.offen || in->mods.idxen)
		vreg(c, isa_bits(w1, 7, 0), in->mods.offen && in->mods.idxen ? 2 : 1, ISA_ROLE_SRC,
		     false);
	else
		isa_off_operand(c);
	src(c, isa_bits(w1, 20, 16) * 4, 4, ISA_ROLE_SRC);
	src(c, isa_bits(w1, 31, 24), 1, ISA_ROLE_SRC);
	return ISA_OK;
}

/* ---- dispatch ---- */

static const struct isa_family families[ISA_FMT_COUNT] = {
    [ISA_FMT_SOP1] = {4, 15, 8, 0, sop1},      [ISA_FMT_SOP2] = {4, 29, 23, 0, sop2},
    [ISA_FMT_SOPK] = {4, 27, 23, 0, sopk},     [ISA_FMT_SOPC] = {4, 22, 16, 0, sopc},
    [ISA_FMT_SOPP] = {4, 22, 16, 0, sopp},     [ISA_FMT_SMEM] = {8, 25, 18, 0, smem},
    [ISA_FMT_VOP1] = {4, 16, 9, 1, vop_e32},   [ISA_FMT_VOP2] = {4, 30, 25, 1, vop_e32},
    [ISA_FMT_VOPC] = {4, 24, 17, 1, vop_e32},  [ISA_FMT_VOP3] = {8, 25, 16, 1, vop3},
    [ISA_FMT_VOP3P] = {8, 22, 16, 1, vop3p},   [ISA_FMT_DS] = {8, 24, 17, 1, ds},
    [ISA_FMT_VFLAT] = {8, 24, 18, 1, flat},    [ISA_FMT_VGLOBAL] = {8, 24, 18, 1, flat},
    [ISA_FMT_VSCRATCH] = {8, 24, 18, 1, flat}, [ISA_FMT_VBUFFER] = {8, 24, 18, 1, mubuf},
};

/* The first prefix that matches (SOP1/SOPC/SOPP/SOPK inside SOP2's space, VOP3P inside VOP3's). */
static const struct isa_prefix prefixes[] = {
    {23, 0x17d, ISA_FMT_SOP1},   {23, 0x17e, ISA_FMT_SOPC}, {23, 0x17f, ISA_FMT_SOPP},
    {28, 0xb, ISA_FMT_SOPK},     {30, 0x2, ISA_FMT_SOP2},   {25, 0x3f, ISA_FMT_VOP1},
    {25, 0x3e, ISA_FMT_VOPC},    {31, 0x0, ISA_FMT_VOP2},   {23, 0x1a7, ISA_FMT_VOP3P},
    {26, 0x34, ISA_FMT_VOP3},    {26, 0x30, ISA_FMT_SMEM},  {26, 0x36, ISA_FMT_DS},
    {26, 0x38, ISA_FMT_VBUFFER},
};

static unsigned classify(uint32_t w)
{
	static const uint8_t segments[4] = {ISA_FMT_VFLAT, ISA_FMT_VSCRATCH, ISA_FMT_VGLOBAL,
	                                    ISA_FMT_NONE};

	if ((w >> 26) == 0x37)
		return segments[isa_bits(w, 15, 14)];
	return isa_classify(prefixes, sizeof(prefixes) / sizeof(prefixes[0]), w);
}

/* What the one decoder (isa_decode.c) reads of GFX9 (the gfx942 and gfx950 tables): VOP3
 * opcodes 0x0.., 0x100.. and 0x140.. are the e64 forms of VOPC, VOP2 and VOP1 rows. */
const struct isa_codec isa_gfx9_codec = {
    .families = families,
    .classify = classify,
    .e64 = {{ISA_FMT_VOPC, 0, 0x100}, {ISA_FMT_VOP2, 0x100, 0x140}, {ISA_FMT_VOP1, 0x140, 0x1c0}},
};
