/*
 * Scalar float semantics: gfx12's SALU float rows (SOP1, SOP2, SOPC) by operation.  The ISA
 * gives a scalar float instruction its VALU counterpart's result, so each is computed by the
 * vector rule: float math by the row's OPER at its TYPE's width (raise_vfloat.c, vx_float), the
 * conversions, which have no OPER, by their vector row, compares by their condition
 * (raise_valu.c, vx_fcompare).  What is the scalar forms' own: a compare sets SCC, a 16-bit
 * result clears bits [31:16] of its SGPR (vx_write16), s_cvt_hi_f32_f16 reads its source's high
 * half and s_cvt_pk_rtz_f16_f32 rounds toward zero.  No other op sets SCC.  The rows with
 * float sources carry ISA_F_FLOAT or ISA_F_F16, so a kernel with one is held to the float mode
 * the CPU computes in (the float-mode refusal, as for the vector rows; the conversions from
 * integers carry neither, as their vector rows).  Every lane computes the same value.
 */
#include "raise_valu.h"

#define B (r->B)

/* The vector row that computes what scalar op computes, for the conversions (no OPER). */
static unsigned vector_counterpart(unsigned op)
{
	static const uint16_t pairs[][2] = {
	    {ISA_OP_S_CVT_F32_I32, ISA_OP_V_CVT_F32_I32},
	    {ISA_OP_S_CVT_F32_U32, ISA_OP_V_CVT_F32_U32},
	    {ISA_OP_S_CVT_I32_F32, ISA_OP_V_CVT_I32_F32},
	    {ISA_OP_S_CVT_U32_F32, ISA_OP_V_CVT_U32_F32},
	    {ISA_OP_S_CVT_F16_F32, ISA_OP_V_CVT_F16_F32},
	    {ISA_OP_S_CVT_F32_F16, ISA_OP_V_CVT_F32_F16},
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (pairs[i][0] == op)
			return pairs[i][1];
	return 0;
}

/* The forms the vector rule has no case for: 0 raised, -1 refused, 1 not one. */
static int scalar_own(struct rz *r, const struct isa_inst *in, const struct vops *o)
{
	LLVMValueRef v, h, lo, hi;

	switch (in->op) {
	case ISA_OP_S_CVT_HI_F32_F16:
		/* The high half of a constant: what the hardware reads there is no rule we hold. */
		if (o->ns < 1 || o->s[0]->kind == ISA_OPK_INLINE ||
		    o->s[0]->kind == ISA_OPK_LITERAL)
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
			                 "the high half of a constant source");
		v = LLVMBuildLShr(B, rz_src(r, o->s[0], 32, 0), c32(r, 16), "");
		h = LLVMBuildBitCast(B, LLVMBuildTrunc(B, v, r->i16, ""), r->f16, "");
		return vx_fwrite(r, o->d[0], LLVMBuildFPExt(B, h, r->f32, ""));
	case ISA_OP_S_CVT_PK_RTZ_F16_F32:
		/* the rule of v_cvt_pk_rtz_f16_f32 (raise_vfloat.c) */
		lo = LLVMBuildZExt(B, vx_f16_rtz(r, vx_fsrc(r, o, 0, 32)), r->i32, "");
		hi = LLVMBuildZExt(B, vx_f16_rtz(r, vx_fsrc(r, o, 1, 32)), r->i32, "");
		return rz_write(r, o->d[0],
		                LLVMBuildOr(B, lo, LLVMBuildShl(B, hi, c32(r, 16), ""), ""));
	default:
		return 1;
	}
}

int rz_sfloat(struct rz *r, const struct isa_inst *in)
{
	const struct isa_row *row = rz_row(r, in->op);
	unsigned counterpart = vector_counterpart(in->op), bits = isa_type_bits(row->type);
	struct vops o;
	int rc;

	if (in->format != ISA_FMT_SOP1 && in->format != ISA_FMT_SOP2 && in->format != ISA_FMT_SOPC)
		return 1;
	if (!counterpart && !(row->flags & (ISA_F_FLOAT | ISA_F_F16)))
		return 1;
	vx_split(in->ops, in->nops, &o);
	if (in->format == ISA_FMT_SOPC) {
		LLVMValueRef p;
		if (!isa_oper_is_compare(row->oper) || isa_type_kind(row->type) != ISA_TK_F)
			return 1;
		p = vx_fcompare(r, row->oper, vx_fsrc(r, &o, 0, bits), vx_fsrc(r, &o, 1, bits));
		if (!p)
			return 1;
		rz_store_scc(r, p);
		return 0;
	}
	if (!o.nd)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "no destination");
	rc = scalar_own(r, in, &o);
	return rc != 1 ? rc : vx_float(r, in, counterpart ? counterpart : in->op, &o);
}
