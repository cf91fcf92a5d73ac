/*
 * The integer min/max family of the vector ALU: the three-source forms (min3, max3, med3, and
 * maxmin/minmax, the ISA's clamp pair) at 32 and 16 bits, signed or unsigned as the row's TYPE
 * says; the add-then-min/max forms (v_add_{min,max}_{u,i}32, whose add saturates: LLVM selects
 * them for umin/smin/umax/smax of uadd.sat/sadd.sat); and v_cls_i32, the count of leading bits
 * equal to the sign bit (LLVM's llvm.amdgcn.sffbh).
 */
#include "raise_valu.h"

#define B (r->B)

/* a if a p b, else b: min with an LT predicate, max with a GT one. */
LLVMValueRef vx_pick(struct rz *r, LLVMValueRef a, LLVMValueRef b, LLVMIntPredicate p)
{
	return LLVMBuildSelect(B, LLVMBuildICmp(B, p, a, b, ""), a, b, "");
}

static LLVMValueRef three(struct rz *r, unsigned op, LLVMValueRef a, LLVMValueRef b, LLVMValueRef c,
                          LLVMIntPredicate lt, LLVMIntPredicate gt)
{
	switch (op) {
	case ISA_OP_V_MIN3_I32:
	case ISA_OP_V_MIN3_U32:
	case ISA_OP_V_MIN3_I16:
	case ISA_OP_V_MIN3_U16:
		return vx_pick(r, vx_pick(r, a, b, lt), c, lt);
	case ISA_OP_V_MAX3_I32:
	case ISA_OP_V_MAX3_U32:
	case ISA_OP_V_MAX3_I16:
	case ISA_OP_V_MAX3_U16:
		return vx_pick(r, vx_pick(r, a, b, gt), c, gt);
	/* max then min (maxmin), min then max (minmax): the ISA's "clamp" pair, which unlike
	 * med3 keeps its order when the bounds cross. */
	case ISA_OP_V_MAXMIN_I32:
	case ISA_OP_V_MAXMIN_U32:
		return vx_pick(r, vx_pick(r, a, b, gt), c, lt);
	case ISA_OP_V_MINMAX_I32:
	case ISA_OP_V_MINMAX_U32:
		return vx_pick(r, vx_pick(r, a, b, lt), c, gt);
	default: /* med3: the larger of min(a, b) and min(max(a, b), c) */
		return vx_pick(r, vx_pick(r, a, b, gt), vx_pick(r, vx_pick(r, a, b, lt), c, gt),
		               lt);
	}
}

/* 0 raised, -1 refused, 2 not this family's. */
int vx_minmax(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	const struct isa_row *row = rz_row(r, op);
	bool is_signed = isa_type_kind(row->type) == ISA_TK_I;
	unsigned bits = isa_type_bits(row->type);
	LLVMIntPredicate lt = is_signed ? LLVMIntSLT : LLVMIntULT;
	LLVMIntPredicate gt = is_signed ? LLVMIntSGT : LLVMIntUGT;
	LLVMValueRef a, b, c, v;

	(void)in;
	switch (op) {
	case ISA_OP_V_MIN3_I32:
	case ISA_OP_V_MAX3_I32:
	case ISA_OP_V_MIN3_U32:
	case ISA_OP_V_MAX3_U32:
	case ISA_OP_V_MAXMIN_I32:
	case ISA_OP_V_MAXMIN_U32:
	case ISA_OP_V_MINMAX_I32:
	case ISA_OP_V_MINMAX_U32:
	case ISA_OP_V_MED3_I32:
	case ISA_OP_V_MED3_U32:
	case ISA_OP_V_MIN3_I16:
	case ISA_OP_V_MAX3_I16:
	case ISA_OP_V_MIN3_U16:
	case ISA_OP_V_MAX3_U16:
	case ISA_OP_V_MED3_I16:
	case ISA_OP_V_MED3_U16:
		a = vx_isrc(r, o, 0, bits), b = vx_isrc(r, o, 1, bits), c = vx_isrc(r, o, 2, bits);
		v = three(r, op, a, b, c, lt, gt);
		return bits == 16 ? vx_write16(r, o->d[0], v) : rz_write(r, o->d[0], v);
	case ISA_OP_V_ADD_MIN_U32:
	case ISA_OP_V_ADD_MAX_U32:
	case ISA_OP_V_ADD_MIN_I32:
	case ISA_OP_V_ADD_MAX_I32: {
		LLVMTypeRef i32 = r->i32;
		LLVMValueRef args[2] = {vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32)};
		v = rz_intrinsic(r, is_signed ? "llvm.sadd.sat" : "llvm.uadd.sat", &i32, 1, args,
		                 2);
		c = vx_isrc(r, o, 2, 32);
		return rz_write(
		    r, o->d[0],
		    vx_pick(r, v, c,
		            op == ISA_OP_V_ADD_MIN_U32 || op == ISA_OP_V_ADD_MIN_I32 ? lt : gt));
	}
	case ISA_OP_V_CLS_I32: {
		/* The first bit below the sign bit that differs from it, counted from the top (1 to
		 * 31), or -1 when every bit is the sign bit: ctlz of x ^ (x >> 31). */
		LLVMTypeRef i32 = r->i32;
		LLVMValueRef x = vx_isrc(r, o, 0, 32);
		LLVMValueRef y = LLVMBuildXor(B, x, LLVMBuildAShr(B, x, c32(r, 31), ""), "");
		LLVMValueRef args[2] = {y, LLVMConstInt(r->i1, 0, 0)};
		v = rz_intrinsic(r, "llvm.ctlz", &i32, 1, args, 2);
		return rz_write(r, o->d[0],
		                LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, y, c32(r, 0), ""),
		                                c32(r, 0xffffffffu), v, ""));
	}
	default:
		return 2;
	}
}
