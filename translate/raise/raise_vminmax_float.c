/*
 * The float three-operand min/max family of the vector ALU, at the row's width (f32, or f16 with
 * op_sel picking each source's half and the result's): v_min3_num, v_max3_num, v_minmax_num,
 * v_maxmin_num and v_med3_num.  Each is a composition of the two-operand minimumNumber and
 * maximumNumber of v_min_num / v_max_num (vx_fminmax, which also quiets the sources of the
 * gfx1250 forms for the translations' sake), as the ISA's pseudocode writes them;
 * neg/abs come with the float source reader, clamp and the half of the result with the float
 * result writer (docs/raiser.md, "Modifiers").
 */
#include "raise_valu.h"

#define B (r->B)

static LLVMValueRef fmin2(struct rz *r, LLVMValueRef x, LLVMValueRef y)
{
	return vx_fminmax(r, x, y, false);
}

static LLVMValueRef fmax2(struct rz *r, LLVMValueRef x, LLVMValueRef y)
{
	return vx_fminmax(r, x, y, true);
}

/* The float's bits, to compare two results exactly (the sign of a zero included). */
static LLVMValueRef bits_of(struct rz *r, LLVMValueRef f)
{
	unsigned w = LLVMGetTypeKind(LLVMTypeOf(f)) == LLVMHalfTypeKind ? 16 : 32;
	return LLVMBuildBitCast(B, f, LLVMIntTypeInContext(r->C, w), "");
}

/*
 * v_med3_num: the ISA's pseudocode.  With a NaN among the three, the minimum of the three
 * (v_min3_num); else the maximum of the two operands left when the first one equal to the
 * maximum of the three is taken out, equality being the float compare's, where -0 equals +0.
 * That last rule and the median of the three ordered with -0 below +0 differ only for zeros of
 * both signs (med3(-0, -0, +0): +0 by the pseudocode, -0 by the order), and which one the
 * hardware gives there is no rule we can check: a lane where they differ is a run-time fault
 * (vx_lane_fault), never a guess.
 */
static LLVMValueRef med3(struct rz *r, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c)
{
	LLVMValueRef max3 = fmax2(r, fmax2(r, a, b), c);
	LLVMValueRef rule =
	    LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, max3, a, ""), fmax2(r, b, c),
	                    LLVMBuildSelect(B, LLVMBuildFCmp(B, LLVMRealOEQ, max3, b, ""),
	                                    fmax2(r, a, c), fmax2(r, a, b), ""),
	                    "");
	LLVMValueRef ordered = fmax2(r, fmin2(r, a, b), fmin2(r, fmax2(r, a, b), c));
	LLVMValueRef nan = LLVMBuildOr(B, LLVMBuildFCmp(B, LLVMRealUNO, a, b, ""),
	                               LLVMBuildFCmp(B, LLVMRealUNO, c, c, ""), "");
	LLVMValueRef differ =
	    LLVMBuildICmp(B, LLVMIntNE, bits_of(r, rule), bits_of(r, ordered), "");

	vx_lane_fault(r, LLVMBuildAnd(B, LLVMBuildNot(B, nan, ""), differ, ""));
	return LLVMBuildSelect(B, nan, fmin2(r, fmin2(r, a, b), c), rule, "");
}

/* 0 raised, -1 refused, 1 not this family's. */
int vx_fminmax3(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	unsigned bits = isa_type_bits(rz_row(r, op)->type);
	LLVMValueRef a, b, c, v;

	(void)in;
	switch (op) {
	case ISA_OP_V_MIN3_NUM_F32:
	case ISA_OP_V_MIN3_NUM_F16:
	case ISA_OP_V_MAX3_NUM_F32:
	case ISA_OP_V_MAX3_NUM_F16:
	case ISA_OP_V_MINMAX_NUM_F32:
	case ISA_OP_V_MINMAX_NUM_F16:
	case ISA_OP_V_MAXMIN_NUM_F32:
	case ISA_OP_V_MAXMIN_NUM_F16:
	case ISA_OP_V_MED3_NUM_F32:
	case ISA_OP_V_MED3_NUM_F16:
		break;
	default:
		return 1;
	}
	a = vx_fsrc(r, o, 0, bits), b = vx_fsrc(r, o, 1, bits), c = vx_fsrc(r, o, 2, bits);
	switch (op) {
	case ISA_OP_V_MIN3_NUM_F32:
	case ISA_OP_V_MIN3_NUM_F16:
		v = fmin2(r, fmin2(r, a, b), c);
		break;
	case ISA_OP_V_MAX3_NUM_F32:
	case ISA_OP_V_MAX3_NUM_F16:
		v = fmax2(r, fmax2(r, a, b), c);
		break;
	/* min then max (minmax), max then min (maxmin): unlike med3 they keep their order when
	 * the bounds cross */
	case ISA_OP_V_MINMAX_NUM_F32:
	case ISA_OP_V_MINMAX_NUM_F16:
		v = fmax2(r, fmin2(r, a, b), c);
		break;
	case ISA_OP_V_MAXMIN_NUM_F32:
	case ISA_OP_V_MAXMIN_NUM_F16:
		v = fmin2(r, fmax2(r, a, b), c);
		break;
	default:
		v = med3(r, a, b, c);
		break;
	}
	return vx_fwrite(r, o->d[0], v);
}
