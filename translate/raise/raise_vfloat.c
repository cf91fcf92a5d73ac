/* Vector float semantics: 16-bit integer ops, float math by operation at the row's width (its
 * OPER and TYPE: one case for f16, f32 and f64), conversions, and VOP3P packed math
 * (raise_valu.h). */
#include "raise_valu.h"

#define B (r->B)

int vx_f16(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	const struct isa_operand *d = o->d[0];
	LLVMValueRef a, b, s;

	switch (op) {
	case ISA_OP_V_ADD_NC_U16:
	case ISA_OP_V_ADD_NC_I16:
		return vx_write16(r, d,
		                  vx_addsub_clamped(r, false, op == ISA_OP_V_ADD_NC_I16,
		                                    vx_isrc(r, o, 0, 16), vx_isrc(r, o, 1, 16)));
	case ISA_OP_V_SUB_NC_U16:
	case ISA_OP_V_SUB_NC_I16:
		return vx_write16(r, d,
		                  vx_addsub_clamped(r, true, op == ISA_OP_V_SUB_NC_I16,
		                                    vx_isrc(r, o, 0, 16), vx_isrc(r, o, 1, 16)));
	case ISA_OP_V_MAD_U16:
	case ISA_OP_V_MAD_I16:
		return vx_write16(
		    r, d,
		    LLVMBuildAdd(B, LLVMBuildMul(B, vx_isrc(r, o, 0, 16), vx_isrc(r, o, 1, 16), ""),
		                 vx_isrc(r, o, 2, 16), ""));
	case ISA_OP_V_MUL_LO_U16:
		return vx_write16(r, d,
		                  LLVMBuildMul(B, vx_isrc(r, o, 0, 16), vx_isrc(r, o, 1, 16), ""));
	case ISA_OP_V_LSHLREV_B16:
	case ISA_OP_V_LSHRREV_B16:
	case ISA_OP_V_ASHRREV_I16:
		s = LLVMBuildAnd(B, vx_isrc(r, o, 0, 16), LLVMConstInt(r->i16, 15, 0), "");
		a = vx_isrc(r, o, 1, 16);
		return vx_write16(r, d,
		                  op == ISA_OP_V_LSHLREV_B16   ? LLVMBuildShl(B, a, s, "")
		                  : op == ISA_OP_V_LSHRREV_B16 ? LLVMBuildLShr(B, a, s, "")
		                                               : LLVMBuildAShr(B, a, s, ""));
	case ISA_OP_V_MAX_U16:
	case ISA_OP_V_MAX_I16:
	case ISA_OP_V_MIN_U16:
	case ISA_OP_V_MIN_I16: {
		LLVMIntPredicate p = op == ISA_OP_V_MAX_U16   ? LLVMIntUGT
		                     : op == ISA_OP_V_MAX_I16 ? LLVMIntSGT
		                     : op == ISA_OP_V_MIN_U16 ? LLVMIntULT
		                                              : LLVMIntSLT;
		a = vx_isrc(r, o, 0, 16), b = vx_isrc(r, o, 1, 16);
		return vx_write16(r, d,
		                  LLVMBuildSelect(B, LLVMBuildICmp(B, p, a, b, ""), a, b, ""));
	}
	case ISA_OP_V_AND_B16:
		return vx_write16(r, d,
		                  LLVMBuildAnd(B, vx_isrc(r, o, 0, 16), vx_isrc(r, o, 1, 16), ""));
	case ISA_OP_V_OR_B16:
		return vx_write16(r, d,
		                  LLVMBuildOr(B, vx_isrc(r, o, 0, 16), vx_isrc(r, o, 1, 16), ""));
	case ISA_OP_V_XOR_B16:
		return vx_write16(r, d,
		                  LLVMBuildXor(B, vx_isrc(r, o, 0, 16), vx_isrc(r, o, 1, 16), ""));
	case ISA_OP_V_NOT_B16:
		return vx_write16(r, d, LLVMBuildNot(B, vx_isrc(r, o, 0, 16), ""));
	case ISA_OP_V_CVT_F16_U16:
	case ISA_OP_V_CVT_F16_I16: {
		LLVMValueRef f = op == ISA_OP_V_CVT_F16_U16
		                     ? LLVMBuildUIToFP(B, vx_isrc(r, o, 0, 16), r->f16, "")
		                     : LLVMBuildSIToFP(B, vx_isrc(r, o, 0, 16), r->f16, "");
		return vx_write16(r, d, LLVMBuildBitCast(B, f, r->i16, ""));
	}
	case ISA_OP_V_CVT_U32_U16:
		return rz_write(r, d, LLVMBuildZExt(B, vx_isrc(r, o, 0, 16), r->i32, ""));
	case ISA_OP_V_CVT_I32_I16:
		return rz_write(r, d, LLVMBuildSExt(B, vx_isrc(r, o, 0, 16), r->i32, ""));
	case ISA_OP_V_PK_MOV_B32: {
		/* the low dword from src0, the high one from src1, op_sel[0] / op_sel[1] picking
		 * which dword of each */
		LLVMValueRef lo = rz_read32(r, o->s[0], in->mods.op_sel & 1);
		LLVMValueRef hi = rz_read32(r, o->s[1], in->mods.op_sel >> 1 & 1);
		rz_mod_used(r, RZ_MOD_OP_SEL0);
		rz_mod_used(r, RZ_MOD_OP_SEL0 + 1);
		/* the ISA's pseudo-code reads OPSEL only; LLVM sets op_sel_hi on both sources */
		rz_mod_used(r, RZ_MOD_OP_SEL_HI0);
		rz_mod_used(r, RZ_MOD_OP_SEL_HI0 + 1);
		return rz_write(r, d,
		                LLVMBuildOr(B, LLVMBuildZExt(B, lo, r->i64, ""),
		                            LLVMBuildShl(B, LLVMBuildZExt(B, hi, r->i64, ""),
		                                         rz_const64(r, 32), ""),
		                            ""));
	}
	case ISA_OP_V_PK_FMA_F32:
	case ISA_OP_V_PK_ADD_F32:
	case ISA_OP_V_PK_MUL_F32: {
		/* two f32 lanes in a register pair; op_sel / op_sel_hi pick each source's dword */
		LLVMValueRef res[2];
		for (int hi = 0; hi < 2; hi++) {
			LLVMValueRef x[3];
			for (unsigned k = 0; k < o->ns && k < 3; k++) {
				bool neg, sel = vx_packed_select(r, o, k, hi, &neg);
				LLVMValueRef v =
				    o->s[k]->kind == ISA_OPK_VGPR || o->s[k]->kind == ISA_OPK_SGPR
				        ? rz_read32(r, o->s[k], sel)
				        : rz_read32(r, o->s[k], 0);
				if (neg)
					v = LLVMBuildXor(B, v, c32(r, 0x80000000u), "");
				x[k] = LLVMBuildBitCast(B, v, r->f32, "");
			}
			res[hi] = op == ISA_OP_V_PK_FMA_F32   ? vx_fma3(r, x[0], x[1], x[2])
			          : op == ISA_OP_V_PK_ADD_F32 ? LLVMBuildFAdd(B, x[0], x[1], "")
			                                      : LLVMBuildFMul(B, x[0], x[1], "");
			res[hi] =
			    LLVMBuildZExt(B, LLVMBuildBitCast(B, res[hi], r->i32, ""), r->i64, "");
		}
		return rz_write(
		    r, d,
		    LLVMBuildOr(B, res[0], LLVMBuildShl(B, res[1], rz_const64(r, 32), ""), ""));
	}
	default:
		return 1;
	}
}

/*
 * v_cvt_pk_{i,u}16_f32: each f32 source truncated toward zero into its 16-bit half (src0 the
 * low).  LLVM selects them only for a plain fptosi/fptoui, where a value whose truncation does
 * not fit is poison, and what the hardware gives for one is no rule we can check.  So an active
 * lane with such a value (or a NaN) is a run-time fault naming the instruction (vx_lane_fault),
 * never a guess.
 */
static int convert_pk16(struct rz *r, bool is_signed, const struct vops *o)
{
	LLVMValueRef lo = LLVMConstReal(r->f32, is_signed ? -32769.0 : -1.0);
	LLVMValueRef hi = LLVMConstReal(r->f32, is_signed ? 32768.0 : 65536.0);
	LLVMValueRef x[2], fits = NULL, half[2];

	for (unsigned k = 0; k < 2; k++) {
		LLVMValueRef f;
		x[k] = vx_fsrc(r, o, k, 32);
		/* Ordered compares: a NaN fits nowhere. */
		f = LLVMBuildAnd(B, LLVMBuildFCmp(B, LLVMRealOGT, x[k], lo, ""),
		                 LLVMBuildFCmp(B, LLVMRealOLT, x[k], hi, ""), "");
		fits = fits ? LLVMBuildAnd(B, fits, f, "") : f;
	}
	vx_lane_fault(r, LLVMBuildNot(B, fits, ""));
	for (unsigned k = 0; k < 2; k++) {
		LLVMValueRef v = is_signed ? LLVMBuildFPToSI(B, x[k], r->i16, "")
		                           : LLVMBuildFPToUI(B, x[k], r->i16, "");
		/* An inactive lane's value may not fit: frozen, and its write is masked anyway. */
		half[k] = LLVMBuildZExt(B, LLVMBuildFreeze(B, v, ""), r->i32, "");
	}
	return rz_write(r, o->d[0],
	                LLVMBuildOr(B, half[0], LLVMBuildShl(B, half[1], c32(r, 16), ""), ""));
}

/*
 * f32 x to f16 rounded toward zero, as i16 bits: rounded to nearest even, then one step toward
 * zero when that went away from zero (the bits of a sign-magnitude float count its magnitude; a
 * finite value past the largest half, rounded to infinity, steps back to 65504).  NaN and
 * infinities stay.
 */
LLVMValueRef vx_f16_rtz(struct rz *r, LLVMValueRef x)
{
	LLVMValueRef h = LLVMBuildFPTrunc(B, x, r->f16, "");
	LLVMValueRef hb = LLVMBuildBitCast(B, h, r->i16, "");
	LLVMValueRef away = LLVMBuildFCmp(
	    B, LLVMRealOGT, vx_fcall1(r, "llvm.fabs", LLVMBuildFPExt(B, h, r->f32, "")),
	    vx_fcall1(r, "llvm.fabs", x), "");
	return LLVMBuildSelect(B, away, LLVMBuildSub(B, hb, LLVMConstInt(r->i16, 1, 0), ""), hb,
	                       "");
}

/* Conversions and packing, by id: 0 raised, -1 refused, 1 not one. */
static int float_convert(struct rz *r, unsigned op, const struct vops *o)
{
	const struct isa_operand *d = o->d[0];
	LLVMValueRef a, b;

	switch (op) {
	case ISA_OP_V_CVT_F32_U32:
		return vx_fwrite(r, d, LLVMBuildUIToFP(B, vx_isrc(r, o, 0, 32), r->f32, ""));
	case ISA_OP_V_CVT_F32_I32:
		return vx_fwrite(r, d, LLVMBuildSIToFP(B, vx_isrc(r, o, 0, 32), r->f32, ""));
	case ISA_OP_V_CVT_F64_U32:
		return vx_fwrite(r, d, LLVMBuildUIToFP(B, vx_isrc(r, o, 0, 32), r->f64, ""));
	case ISA_OP_V_CVT_F64_I32:
		return vx_fwrite(r, d, LLVMBuildSIToFP(B, vx_isrc(r, o, 0, 32), r->f64, ""));
	case ISA_OP_V_CVT_U32_F32:
	case ISA_OP_V_CVT_I32_F32:
	case ISA_OP_V_CVT_U32_F64:
	case ISA_OP_V_CVT_I32_F64: {
		bool s = op == ISA_OP_V_CVT_I32_F32 || op == ISA_OP_V_CVT_I32_F64;
		unsigned fb = op == ISA_OP_V_CVT_U32_F64 || op == ISA_OP_V_CVT_I32_F64 ? 64 : 32;
		LLVMTypeRef t[2] = {r->i32, vx_ftype(r, fb)};
		LLVMValueRef x = vx_fsrc(r, o, 0, fb);
		return rz_write(
		    r, d, rz_intrinsic(r, s ? "llvm.fptosi.sat" : "llvm.fptoui.sat", t, 2, &x, 1));
	}
	case ISA_OP_V_CVT_F64_F32:
		return vx_fwrite(r, d, LLVMBuildFPExt(B, vx_fsrc(r, o, 0, 32), r->f64, ""));
	case ISA_OP_V_CVT_F32_F64:
		return vx_fwrite(r, d, LLVMBuildFPTrunc(B, vx_fsrc(r, o, 0, 64), r->f32, ""));
	case ISA_OP_V_CVT_F32_F16:
		return vx_fwrite(r, d, LLVMBuildFPExt(B, vx_fsrc(r, o, 0, 16), r->f32, ""));
	case ISA_OP_V_CVT_F16_F32:
		return vx_fwrite(r, d, LLVMBuildFPTrunc(B, vx_fsrc(r, o, 0, 32), r->f16, ""));
	case ISA_OP_V_CVT_F32_UBYTE0:
	case ISA_OP_V_CVT_F32_UBYTE1:
	case ISA_OP_V_CVT_F32_UBYTE2:
	case ISA_OP_V_CVT_F32_UBYTE3: {
		unsigned k = op - ISA_OP_V_CVT_F32_UBYTE0;
		a = LLVMBuildAnd(B, LLVMBuildLShr(B, vx_isrc(r, o, 0, 32), c32(r, 8 * k), ""),
		                 c32(r, 0xff), "");
		return vx_fwrite(r, d, LLVMBuildUIToFP(B, a, r->f32, ""));
	}
	case ISA_OP_V_CVT_PK_I16_F32:
	case ISA_OP_V_CVT_PK_U16_F32:
		return convert_pk16(r, op == ISA_OP_V_CVT_PK_I16_F32, o);
	case ISA_OP_V_CVT_PK_F16_F32:
	case ISA_OP_V_CVT_PK_RTZ_F16_F32: {
		/* src0 into the low half, src1 into the high one; to nearest even (the mode the
		 * host binding requires) or toward zero */
		LLVMValueRef h[2];
		for (unsigned k = 0; k < 2; k++) {
			LLVMValueRef x = vx_fsrc(r, o, k, 32);
			h[k] = LLVMBuildZExt(
			    B,
			    op == ISA_OP_V_CVT_PK_RTZ_F16_F32
			        ? vx_f16_rtz(r, x)
			        : LLVMBuildBitCast(B, LLVMBuildFPTrunc(B, x, r->f16, ""), r->i16,
			                           ""),
			    r->i32, "");
		}
		return rz_write(r, d,
		                LLVMBuildOr(B, h[0], LLVMBuildShl(B, h[1], c32(r, 16), ""), ""));
	}
	case ISA_OP_V_CVT_I16_F16:
	case ISA_OP_V_CVT_U16_F16: {
		/* Truncated toward zero and saturated, as the ISA documents them; what a NaN gives
		 * it does not say, so an active lane's NaN is a run-time fault (vx_lane_fault). */
		bool s = op == ISA_OP_V_CVT_I16_F16;
		LLVMTypeRef t[2] = {r->i16, r->f16};
		LLVMValueRef x = vx_fsrc(r, o, 0, 16);
		vx_lane_fault(r, LLVMBuildFCmp(B, LLVMRealUNO, x, x, ""));
		return vx_write16(
		    r, d, rz_intrinsic(r, s ? "llvm.fptosi.sat" : "llvm.fptoui.sat", t, 2, &x, 1));
	}
	case ISA_OP_V_PACK_B32_F16: {
		a = LLVMBuildZExt(B, LLVMBuildBitCast(B, vx_fsrc(r, o, 0, 16), r->i16, ""), r->i32,
		                  "");
		b = LLVMBuildZExt(B, LLVMBuildBitCast(B, vx_fsrc(r, o, 1, 16), r->i16, ""), r->i32,
		                  "");
		return rz_write(r, d, LLVMBuildOr(B, a, LLVMBuildShl(B, b, c32(r, 16), ""), ""));
	}
	default:
		return 1;
	}
}

/*
 * The hook of the one-operand math the environment computes (raise_hooks.def) for a float
 * operation at bits, or HOOK_COUNT: f16 is computed at f32 and rounded once (sqrt, rcp and rsq
 * are then within 1 ULP); exp, log, sin, cos and rcp_iflag are modelled at f32 only.
 */
static enum raise_hook math_hook(unsigned oper, unsigned bits)
{
	switch (oper) {
	case ISA_O_RCP:
		return bits == 64 ? HOOK_RCP_F64 : HOOK_RCP_F32;
	case ISA_O_RSQ:
		return bits == 64 ? HOOK_RSQ_F64 : HOOK_RSQ_F32;
	case ISA_O_SQRT:
		return bits == 64 ? HOOK_SQRT_F64 : HOOK_SQRT_F32;
	case ISA_O_RCP_IFLAG:
		return bits == 32 ? HOOK_RCP_F32 : HOOK_COUNT;
	case ISA_O_EXP:
		return bits == 32 ? HOOK_EXP_F32 : HOOK_COUNT;
	case ISA_O_LOG:
		return bits == 32 ? HOOK_LOG_F32 : HOOK_COUNT;
	case ISA_O_SIN:
		return bits == 32 ? HOOK_SIN_F32 : HOOK_COUNT;
	case ISA_O_COS:
		return bits == 32 ? HOOK_COS_F32 : HOOK_COUNT;
	default:
		return HOOK_COUNT;
	}
}

static int float_hook(struct rz *r, enum raise_hook h, unsigned bits, const struct vops *o)
{
	LLVMValueRef x, f;

	if (bits != 16)
		return vx_fwrite(r, o->d[0], vx_hook1(r, h, vx_fsrc(r, o, 0, bits)));
	x = LLVMBuildFPExt(B, vx_fsrc(r, o, 0, 16), r->f32, "");
	f = LLVMBuildFPTrunc(B, vx_hook1(r, h, x), r->f16, "");
	return vx_write16(r, o->d[0], LLVMBuildBitCast(B, f, r->i16, ""));
}

/* The intrinsics of the rounding operations. */
static const char *const rounding[ISA_O_COUNT] = {
    [ISA_O_TRUNC] = "llvm.trunc",
    [ISA_O_CEIL] = "llvm.ceil",
    [ISA_O_FLOOR] = "llvm.floor",
    [ISA_O_RNDNE] = "llvm.roundeven",
};

/* The largest float below 1 at bits: where the ISA clamps v_fract_f32 and _f64. */
static LLVMValueRef below_one(struct rz *r, unsigned bits)
{
	return LLVMBuildBitCast(
	    B, bits == 64 ? rz_const64(r, 0x3fefffffffffffffull) : c32(r, 0x3f7fffffu),
	    vx_ftype(r, bits), "");
}

/*
 * The exponent operations, rounding and fract, at f16, f32 and f64: 0 raised, -1 refused, 1 not
 * one.  At f16 the exponent of ldexp is the second source's 16 bits and that of frexp a 16-bit
 * result.
 */
static int float_parts(struct rz *r, unsigned oper, unsigned bits, const struct vops *o)
{
	const struct isa_operand *d = o->d[0];
	LLVMValueRef a, v;

	switch (oper) {
	case ISA_O_LDEXP: {
		LLVMTypeRef t[2] = {vx_ftype(r, bits), bits == 16 ? r->i16 : r->i32};
		LLVMValueRef args[2] = {vx_fsrc(r, o, 0, bits),
		                        vx_isrc(r, o, 1, bits == 16 ? 16 : 32)};
		return vx_fwrite(r, d, rz_intrinsic(r, "llvm.ldexp", t, 2, args, 2));
	}
	case ISA_O_FREXP_MANT:
	case ISA_O_FREXP_EXP: {
		LLVMTypeRef t[2] = {vx_ftype(r, bits), r->i32};
		LLVMValueRef x = vx_fsrc(r, o, 0, bits);
		v = rz_intrinsic(r, "llvm.frexp", t, 2, &x, 1);
		/* inf and NaN: the mantissa is the input and the exponent 0, as on the hardware */
		LLVMValueRef fin = LLVMBuildFCmp(B, LLVMRealOLT, vx_fcall1(r, "llvm.fabs", x),
		                                 LLVMConstReal(vx_ftype(r, bits), 1.0 / 0.0), "");
		if (oper == ISA_O_FREXP_MANT)
			return vx_fwrite(
			    r, d,
			    LLVMBuildSelect(B, fin, LLVMBuildExtractValue(B, v, 0, ""), x, ""));
		v = LLVMBuildSelect(B, fin, LLVMBuildExtractValue(B, v, 1, ""), c32(r, 0), "");
		/* an f16's exponent (-23 to 16) fits its 16-bit result */
		return bits == 16 ? vx_write16(r, d, LLVMBuildTrunc(B, v, r->i16, ""))
		                  : rz_write(r, d, v);
	}
	case ISA_O_TRUNC:
	case ISA_O_CEIL:
	case ISA_O_FLOOR:
	case ISA_O_RNDNE:
		return vx_fwrite(r, d, vx_fcall1(r, rounding[oper], vx_fsrc(r, o, 0, bits)));
	case ISA_O_FRACT:
		/*
		 * x - floor(x), rounded once.  For a small negative x that rounds to 1.0: the ISA
		 * clamps the f32 and f64 results to the largest float below 1; for f16 it says
		 * nothing, so an active lane there is a run-time fault (vx_lane_fault).  A NaN
		 * (also inf - inf) compares false and stays.
		 */
		a = vx_fsrc(r, o, 0, bits);
		v = LLVMBuildFSub(B, a, vx_fcall1(r, "llvm.floor", a), "");
		{
			LLVMValueRef one = LLVMBuildFCmp(B, LLVMRealOGE, v,
			                                 LLVMConstReal(vx_ftype(r, bits), 1.0), "");
			if (bits == 16)
				vx_lane_fault(r, one);
			else
				v = LLVMBuildSelect(B, one, below_one(r, bits), v, "");
		}
		return vx_fwrite(r, d, v);
	default:
		return 1;
	}
}

/*
 * Float math by its operation (the row's OPER) at the row's width (its TYPE): one case per
 * operation for f16, f32 and f64.  0 raised, -1 refused, 1 not one.
 */
static int float_math(struct rz *r, unsigned oper, unsigned bits, const struct vops *o)
{
	const struct isa_operand *d = o->d[0];

	switch (oper) {
	case ISA_O_ADD:
		return vx_fwrite(
		    r, d, LLVMBuildFAdd(B, vx_fsrc(r, o, 0, bits), vx_fsrc(r, o, 1, bits), ""));
	case ISA_O_SUB:
		return vx_fwrite(
		    r, d, LLVMBuildFSub(B, vx_fsrc(r, o, 0, bits), vx_fsrc(r, o, 1, bits), ""));
	case ISA_O_SUBREV:
		return vx_fwrite(
		    r, d, LLVMBuildFSub(B, vx_fsrc(r, o, 1, bits), vx_fsrc(r, o, 0, bits), ""));
	case ISA_O_MUL:
		return vx_fwrite(
		    r, d, LLVMBuildFMul(B, vx_fsrc(r, o, 0, bits), vx_fsrc(r, o, 1, bits), ""));
	case ISA_O_FMA: /* fma, fmamk, fmaak: the decoder puts K where it belongs */
		return vx_fwrite(r, d,
		                 vx_fma3(r, vx_fsrc(r, o, 0, bits), vx_fsrc(r, o, 1, bits),
		                         vx_fsrc(r, o, 2, bits)));
	case ISA_O_FMAC: {
		LLVMValueRef acc = LLVMBuildBitCast(B, rz_src(r, d, bits, 0),
		                                    LLVMTypeOf(vx_fsrc(r, o, 0, bits)), "");
		return vx_fwrite(r, d,
		                 vx_fma3(r, vx_fsrc(r, o, 0, bits), vx_fsrc(r, o, 1, bits), acc));
	}
	/* IEEE 754-2019 minimumNumber and maximumNumber (vx_fminmax): llvm.minnum leaves the sign
	 * of a zero result to the backend, and x86 at -O0 and at -O2 gave fdim(-0, +0) different
	 * signs. */
	case ISA_O_MIN:
	case ISA_O_MAX:
		return vx_fwrite(r, d,
		                 vx_fminmax(r, vx_fsrc(r, o, 0, bits), vx_fsrc(r, o, 1, bits),
		                            oper == ISA_O_MAX));
	case ISA_O_MINIMUM:
	case ISA_O_MAXIMUM:
		return vx_fwrite(r, d,
		                 vx_fcall2(r,
		                           oper == ISA_O_MINIMUM ? "llvm.minimum" : "llvm.maximum",
		                           vx_fsrc(r, o, 0, bits), vx_fsrc(r, o, 1, bits)));
	/*
	 * The precise-division sequence (div_scale, rcp, fma chain, div_fmas, div_fixup) computes
	 * n/d to within 1 ULP; its fixup step is raised as the IEEE quotient itself, so div_scale
	 * never needs to scale (VCC 0, the operand unchanged) and div_fmas is the plain fma.
	 */
	case ISA_O_DIV_SCALE:
		if (o->nd > 1 && rz_write(r, o->d[1], c32(r, 0)))
			return -1;
		return vx_fwrite(r, d, vx_fsrc(r, o, 0, bits));
	case ISA_O_DIV_FMAS:
		return vx_fwrite(r, d,
		                 vx_fma3(r, vx_fsrc(r, o, 0, bits), vx_fsrc(r, o, 1, bits),
		                         vx_fsrc(r, o, 2, bits)));
	case ISA_O_DIV_FIXUP:
		return vx_fwrite(
		    r, d, LLVMBuildFDiv(B, vx_fsrc(r, o, 2, bits), vx_fsrc(r, o, 1, bits), ""));
	default:
		return float_parts(r, oper, bits, o);
	}
}

int vx_float(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	const struct isa_row *row = rz_row(r, op);
	unsigned bits = isa_type_bits(row->type);
	enum raise_hook h = math_hook(row->oper, bits);
	int rc;

	if (h != HOOK_COUNT)
		return float_hook(r, h, bits, o);
	rc = float_math(r, row->oper, bits, o);
	return rc != 1 ? rc : float_convert(r, op, o);
}

/* VOP3P packed 16-bit math: each half picks its sources by op_sel / op_sel_hi. */
static LLVMValueRef half_value(struct rz *r, const struct isa_operand *src, bool sel)
{
	struct isa_operand t = *src;

	t.flags &= (uint8_t) ~(ISA_OPF_NEG | ISA_OPF_ABS);
	if (t.kind == ISA_OPK_INLINE || t.kind == ISA_OPK_LITERAL)
		return LLVMBuildTrunc(B, rz_src(r, &t, 16, 16), r->i16, "");
	return LLVMBuildTrunc(B, LLVMBuildLShr(B, rz_src(r, &t, 32, 0), c32(r, sel ? 16 : 0), ""),
	                      r->i16, "");
}

static LLVMValueRef half_of(struct rz *r, const struct vops *o, unsigned k, bool hi)
{
	bool neg, sel = vx_packed_select(r, o, k, hi, &neg);
	LLVMValueRef v = half_value(r, o->s[k], sel);

	if (neg)
		v = LLVMBuildXor(B, v, LLVMConstInt(r->i16, 0x8000, 0), "");
	return v;
}

/*
 * A half of an integer source: op_sel / op_sel_hi only.  What neg_lo / neg_hi do to an
 * integer operand is not a rule we hold, so they are left unmarked and a set one refuses
 * the instruction (raise_mods.c).
 */
static LLVMValueRef int_half_of(struct rz *r, const struct vops *o, unsigned k, bool hi)
{
	const struct isa_mods *m = &r->in->mods;

	rz_mod_used(r, (hi ? RZ_MOD_OP_SEL_HI0 : RZ_MOD_OP_SEL0) + k);
	return half_value(r, o->s[k], (hi ? m->op_sel_hi : m->op_sel) >> k & 1);
}

/* The larger (smaller) of two halves by predicate p: a select on the compare. */
static LLVMValueRef pick(struct rz *r, LLVMIntPredicate p, LLVMValueRef a, LLVMValueRef b)
{
	return LLVMBuildSelect(B, LLVMBuildICmp(B, p, a, b, ""), a, b, "");
}

/* A 16-bit shift by the low four bits of the amount, as the hardware reads it. */
static LLVMValueRef shift16(struct rz *r, LLVMOpcode how, LLVMValueRef value, LLVMValueRef amount)
{
	return LLVMBuildBinOp(B, how, value,
	                      LLVMBuildAnd(B, amount, LLVMConstInt(r->i16, 15, 0), ""), "");
}

/* The packed integer ops whose sources are read without neg_lo / neg_hi (int_half_of). */
static bool integer_halves(unsigned op)
{
	switch (op) {
	case ISA_OP_V_PK_LSHLREV_B16:
	case ISA_OP_V_PK_LSHRREV_B16:
	case ISA_OP_V_PK_ASHRREV_I16:
	case ISA_OP_V_PK_MAX_I16:
	case ISA_OP_V_PK_MIN_I16:
	case ISA_OP_V_PK_MAX_U16:
	case ISA_OP_V_PK_MIN_U16:
	case ISA_OP_V_PK_MAD_U16:
	case ISA_OP_V_PK_MAD_I16:
		return true;
	default:
		return false;
	}
}

int vx_packed(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	LLVMValueRef res[2];

	if (op == ISA_OP_V_FMA_MIX_F32 || op == ISA_OP_V_FMA_MIXLO_F16 ||
	    op == ISA_OP_V_FMA_MIXHI_F16) {
		LLVMValueRef s[3];
		for (unsigned k = 0; k < 3; k++) {
			rz_mod_used(r, RZ_MOD_OP_SEL_HI0 + k);
			if (in->mods.op_sel_hi >> k & 1) {
				LLVMValueRef h = half_of(r, o, k, false);
				s[k] = LLVMBuildFPExt(B, LLVMBuildBitCast(B, h, r->f16, ""), r->f32,
				                      "");
				rz_operand_mods_used(r, o->s[k], ISA_OPF_ABS);
				if (o->s[k]->flags & ISA_OPF_ABS)
					s[k] = vx_fcall1(r, "llvm.fabs", s[k]);
			} else {
				s[k] = vx_fsrc(r, o, k, 32);
			}
		}
		LLVMValueRef f = vx_fma3(r, s[0], s[1], s[2]);
		if (op == ISA_OP_V_FMA_MIX_F32)
			return vx_fwrite(r, o->d[0], f);
		{
			LLVMValueRef h = LLVMBuildZExt(
			    B, LLVMBuildBitCast(B, LLVMBuildFPTrunc(B, f, r->f16, ""), r->i16, ""),
			    r->i32, "");
			LLVMValueRef old = rz_src(r, o->d[0], 32, 0);
			LLVMValueRef v =
			    op == ISA_OP_V_FMA_MIXLO_F16
			        ? LLVMBuildOr(B, LLVMBuildAnd(B, old, c32(r, 0xffff0000u), ""), h,
			                      "")
			        : LLVMBuildOr(B, LLVMBuildAnd(B, old, c32(r, 0xffff), ""),
			                      LLVMBuildShl(B, h, c32(r, 16), ""), "");
			return rz_write(r, o->d[0], v);
		}
	}
	for (int hi = 0; hi < 2; hi++) {
		LLVMValueRef x = NULL, y = NULL, xi = NULL, yi = NULL, ni[2] = {NULL, NULL};
		LLVMValueRef f;
		/* Only the halves an op reads are read: reading one marks its modifiers used. */
		if (integer_halves(op)) {
			ni[0] = int_half_of(r, o, 0, hi);
			ni[1] = int_half_of(r, o, 1, hi);
		} else {
			x = LLVMBuildBitCast(B, half_of(r, o, 0, hi), r->f16, "");
			y = o->ns > 1 ? LLVMBuildBitCast(B, half_of(r, o, 1, hi), r->f16, "")
			              : NULL;
			xi = half_of(r, o, 0, hi);
			yi = o->ns > 1 ? half_of(r, o, 1, hi) : NULL;
		}
		switch (op) {
		case ISA_OP_V_PK_ADD_F16:
			f = LLVMBuildFAdd(B, x, y, "");
			break;
		case ISA_OP_V_PK_MUL_F16:
			f = LLVMBuildFMul(B, x, y, "");
			break;
		case ISA_OP_V_PK_FMA_F16:
			f = vx_fma3(r, x, y, LLVMBuildBitCast(B, half_of(r, o, 2, hi), r->f16, ""));
			break;
		case ISA_OP_V_PK_MIN_NUM_F16:
		case ISA_OP_V_PK_MAX_NUM_F16:
			f = vx_fminmax(r, x, y, op == ISA_OP_V_PK_MAX_NUM_F16);
			break;
		case ISA_OP_V_PK_ADD_U16:
		case ISA_OP_V_PK_ADD_I16:
			f = vx_addsub_clamped(r, false, op == ISA_OP_V_PK_ADD_I16, xi, yi);
			break;
		case ISA_OP_V_PK_SUB_U16:
		case ISA_OP_V_PK_SUB_I16:
			f = vx_addsub_clamped(r, true, op == ISA_OP_V_PK_SUB_I16, xi, yi);
			break;
		case ISA_OP_V_PK_MUL_LO_U16:
			f = LLVMBuildMul(B, xi, yi, "");
			break;
		/* The "rev" shifts take the amount from the first source, the value from the
		 * second. */
		case ISA_OP_V_PK_LSHLREV_B16:
			f = shift16(r, LLVMShl, ni[1], ni[0]);
			break;
		case ISA_OP_V_PK_LSHRREV_B16:
			f = shift16(r, LLVMLShr, ni[1], ni[0]);
			break;
		case ISA_OP_V_PK_ASHRREV_I16:
			f = shift16(r, LLVMAShr, ni[1], ni[0]);
			break;
		case ISA_OP_V_PK_MAX_I16:
			f = pick(r, LLVMIntSGT, ni[0], ni[1]);
			break;
		case ISA_OP_V_PK_MIN_I16:
			f = pick(r, LLVMIntSLT, ni[0], ni[1]);
			break;
		case ISA_OP_V_PK_MAX_U16:
			f = pick(r, LLVMIntUGT, ni[0], ni[1]);
			break;
		case ISA_OP_V_PK_MIN_U16:
			f = pick(r, LLVMIntULT, ni[0], ni[1]);
			break;
		/* Multiply and add per half, modulo 2^16 (clamp, saturation, is not modelled:
		 * refused when set). */
		case ISA_OP_V_PK_MAD_U16:
		case ISA_OP_V_PK_MAD_I16:
			f = LLVMBuildAdd(B, LLVMBuildMul(B, ni[0], ni[1], ""),
			                 int_half_of(r, o, 2, hi), "");
			break;
		default:
			return 1;
		}
		if (LLVMGetTypeKind(LLVMTypeOf(f)) == LLVMHalfTypeKind)
			f = LLVMBuildBitCast(B, vx_fclamp(r, f), r->i16, "");
		res[hi] = LLVMBuildZExt(B, f, r->i32, "");
	}
	return rz_write(r, o->d[0],
	                LLVMBuildOr(B, res[0], LLVMBuildShl(B, res[1], c32(r, 16), ""), ""));
}
