/*
 * The vector handlers' operand access (raise_valu.h): sources as integers or floats at a
 * width, with op_sel and the float inline constants; results written with clamp, as 16-bit
 * halves (GFX9's zeroed high half), packed-math half selects; the float intrinsics they call.
 */
#include "raise_valu.h"

#include <string.h>

#define B (r->B)
void vx_split(const struct isa_operand *ops, unsigned n, struct vops *v)
{
	memset(v, 0, sizeof(*v));
	for (unsigned i = 0; i < n; i++) {
		if (ops[i].role == ISA_ROLE_DST && v->nd < 2)
			v->d[v->nd++] = &ops[i];
		else if (ops[i].role == ISA_ROLE_SRC && v->ns < 4)
			v->s[v->ns++] = &ops[i];
	}
}

LLVMTypeRef vx_ftype(struct rz *r, unsigned bits)
{
	return bits == 64 ? r->f64 : bits == 16 ? r->f16 : r->f32;
}

/* A source the form lacks: refused, read as 0. */
static LLVMValueRef missing(struct rz *r, unsigned k, unsigned bits)
{
	rz_refuse(r, RAISE_UNSUPPORTED_FORM, "source %u is missing", k);
	return LLVMConstNull(LLVMIntTypeInContext(r->C, bits));
}

/* A 16-bit VOP3 source k reads op_sel bit k (the high half when set). */
static bool op_sel16(struct rz *r, unsigned k, unsigned bits)
{
	if (bits != 16 || r->in->format != ISA_FMT_VOP3)
		return false;
	rz_mod_used(r, RZ_MOD_OP_SEL0 + k);
	return r->in->mods.op_sel >> k & 1;
}

/* Source k as an integer of bits; a 16-bit VOP3 source honours op_sel. */
LLVMValueRef vx_isrc(struct rz *r, const struct vops *o, unsigned k, unsigned bits)
{
	if (k >= o->ns)
		return missing(r, k, bits);
	if (op_sel16(r, k, bits)) {
		LLVMValueRef v = rz_src(r, o->s[k], 32, 0);
		return LLVMBuildTrunc(B, LLVMBuildLShr(B, v, c32(r, 16), ""), r->i16, "");
	}
	return rz_src(r, o->s[k], bits, 0);
}

LLVMValueRef vx_fsrc(struct rz *r, const struct vops *o, unsigned k, unsigned bits)
{
	LLVMValueRef v;
	if (k >= o->ns)
		return LLVMBuildBitCast(B, missing(r, k, bits), vx_ftype(r, bits), "");
	if (op_sel16(r, k, bits)) {
		struct isa_operand t = *o->s[k];
		t.flags &= (uint8_t) ~(ISA_OPF_NEG | ISA_OPF_ABS);
		rz_operand_mods_used(r, o->s[k], o->s[k]->flags);
		v = LLVMBuildTrunc(B, LLVMBuildLShr(B, rz_src(r, &t, 32, 0), c32(r, 16), ""),
		                   r->i16, "");
		if (o->s[k]->flags & ISA_OPF_ABS)
			v = LLVMBuildAnd(B, v, LLVMConstInt(r->i16, 0x7fff, 0), "");
		if (o->s[k]->flags & ISA_OPF_NEG)
			v = LLVMBuildXor(B, v, LLVMConstInt(r->i16, 0x8000, 0), "");
	} else {
		v = rz_src(r, o->s[k], bits, bits);
	}
	return LLVMBuildBitCast(B, v, vx_ftype(r, bits), "");
}

LLVMValueRef vx_fcall1(struct rz *r, const char *name, LLVMValueRef x)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	return rz_intrinsic(r, name, &t, 1, &x, 1);
}

LLVMValueRef vx_fcall2(struct rz *r, const char *name, LLVMValueRef x, LLVMValueRef y)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	LLVMValueRef a[2] = {x, y};
	return rz_intrinsic(r, name, &t, 1, a, 2);
}

LLVMValueRef vx_fma3(struct rz *r, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	LLVMValueRef a[3] = {x, y, z};
	return rz_intrinsic(r, "llvm.fma", &t, 1, a, 3);
}

LLVMValueRef vx_hook1(struct rz *r, enum raise_hook h, LLVMValueRef x)
{
	return rz_call(r, h, &x, 1);
}

/* A float result clamped to [0, 1] when the instruction asks: NaN, -0 and negatives give +0
 * (DX10 clamp, which gfx12 always has and the host binding requires on gfx9).  maximumNumber
 * orders -0 below +0 and lets 0 win over a NaN; llvm.maxnum would leave both to the backend. */
LLVMValueRef vx_fclamp(struct rz *r, LLVMValueRef f)
{
	LLVMTypeRef t = LLVMTypeOf(f);
	rz_mod_used(r, RZ_MOD_CLAMP);
	if (!r->in->mods.clamp)
		return f;
	f = vx_fcall2(r, "llvm.maximumnum", f, LLVMConstReal(t, 0.0));
	return vx_fcall2(r, "llvm.minimumnum", f, LLVMConstReal(t, 1.0));
}

/* Whether float x is a signalling NaN (i1), and x with its quiet bit set. */
static LLVMValueRef is_snan(struct rz *r, LLVMValueRef x)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	LLVMValueRef a[2] = {x, c32(r, 1)}; /* llvm.is.fpclass's fcSNan */
	return rz_intrinsic(r, "llvm.is.fpclass", &t, 1, a, 2);
}

static LLVMValueRef quieted(struct rz *r, LLVMValueRef x)
{
	LLVMTypeRef t = LLVMTypeOf(x);
	unsigned bits = t == r->f64 ? 64 : t == r->f16 ? 16 : 32;
	LLVMTypeRef it = LLVMIntTypeInContext(r->C, bits);
	LLVMValueRef q = LLVMConstInt(it, 1ull << (bits == 64 ? 51 : bits == 16 ? 9 : 22), 0);
	return LLVMBuildBitCast(B, LLVMBuildOr(B, LLVMBuildBitCast(B, x, it, ""), q, ""), t, "");
}

/* The float minimum or maximum of x and y (v_{min,max}_num_*, gfx9's v_{min,max}_f*): IEEE
 * 754-2019 minimumNumber/maximumNumber, -0 < +0 and a NaN losing to a number; on gfx9 in IEEE
 * mode (the host binding requires it, float_env.c) a signalling-NaN operand gives itself
 * quieted, the first source's first, as the ISA's pseudocode says. */
LLVMValueRef vx_fminmax(struct rz *r, LLVMValueRef x, LLVMValueRef y, bool max)
{
	LLVMValueRef m;

	if (r->arch == ISA_ARCH_GFX1250) {
		/*
		 * A signalling NaN loses to a number in minimumNumber as a quiet one does, so the
		 * sources quieted first (llvm.canonicalize, denormals kept) give every result the
		 * same.  It is for the gfx942/gfx950 translation: LLVM 22 builds gfx9's v_min3_f32
		 * / v_max3_f32 of two minimumnum / maximumnum calls on the sources as they are, and
		 * there, in IEEE mode, a signalling NaN wins (min(min(-1, 1), sNaN) gave NaN).
		 */
		x = vx_fcall1(r, "llvm.canonicalize", x);
		y = vx_fcall1(r, "llvm.canonicalize", y);
		return vx_fcall2(r, max ? "llvm.maximumnum" : "llvm.minimumnum", x, y);
	}
	m = vx_fcall2(r, max ? "llvm.maximumnum" : "llvm.minimumnum", x, y);
	m = LLVMBuildSelect(B, is_snan(r, y), quieted(r, y), m, "");
	return LLVMBuildSelect(B, is_snan(r, x), quieted(r, x), m, "");
}

/*
 * A run-time fault at this instruction for an active lane where bad (i1) holds: an operand whose
 * result the raiser does not model (mx.fault with RAISE_UNSUPPORTED_FORM, "a lane's operand is
 * one whose result is not modelled"; in a translation, a trap), never a guess.  The check is lane
 * predication, so it is no branch the halves of a wave64 could take apart around a barrier.  The
 * code after it goes on in a new block, which the check's block dominates, so the lane's active
 * bit (with a DPP write mask) stays what it was.
 */
void vx_lane_fault(struct rz *r, LLVMValueRef bad)
{
	LLVMValueRef why[2] = {c32(r, RAISE_UNSUPPORTED_FORM), c32(r, rz_pc(r))};
	LLVMBasicBlockRef fault = LLVMAppendBasicBlockInContext(r->C, r->F, "lane_fault");
	LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(r->C, r->F, "lane_ok");
	LLVMValueRef br = LLVMBuildCondBr(B, LLVMBuildAnd(B, rz_active(r), bad, ""), fault, ok);

	LLVMSetMetadata(br, r->md_lane_pred,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	LLVMPositionBuilderAtEnd(B, fault);
	rz_call(r, HOOK_FAULT, why, 2);
	LLVMBuildBr(B, ok);
	LLVMPositionBuilderAtEnd(B, ok);
}

/* Writes a float result: clamp to [0, 1] when asked, as the destination's integer. */
int vx_fwrite(struct rz *r, const struct isa_operand *d, LLVMValueRef f)
{
	LLVMTypeRef t = LLVMTypeOf(f);
	unsigned bits = LLVMGetTypeKind(t) == LLVMDoubleTypeKind ? 64
	                : LLVMGetTypeKind(t) == LLVMHalfTypeKind ? 16
	                                                         : 32;
	f = vx_fclamp(r, f);
	if (bits == 16)
		return vx_write16(r, d, LLVMBuildBitCast(B, f, r->i16, ""));
	return rz_write(r, d, LLVMBuildBitCast(B, f, LLVMIntTypeInContext(r->C, bits), ""));
}

/*
 * An integer add or subtract of a and b (i16 or i32); clamp saturates it, unsigned or signed
 * as the opcode is, instead of wrapping (the ISA's rule for V_ADD/V_SUB_NC_{U,I}{16,32}: what
 * LLVM selects for uadd.sat, sadd.sat, usub.sat and ssub.sat).
 */
LLVMValueRef vx_addsub_clamped(struct rz *r, bool sub, bool is_signed, LLVMValueRef a,
                               LLVMValueRef b)
{
	static const char *const sat[2][2] = {{"llvm.uadd.sat", "llvm.sadd.sat"},
	                                      {"llvm.usub.sat", "llvm.ssub.sat"}};
	LLVMTypeRef t = LLVMTypeOf(a);
	LLVMValueRef args[2] = {a, b};

	rz_mod_used(r, RZ_MOD_CLAMP);
	if (r->in->mods.clamp)
		return rz_intrinsic(r, sat[sub][is_signed], &t, 1, args, 2);
	return sub ? LLVMBuildSub(B, a, b, "") : LLVMBuildAdd(B, a, b, "");
}

LLVMValueRef vx_zx(struct rz *r, LLVMValueRef v, LLVMTypeRef t)
{
	return LLVMBuildZExt(B, v, t, "");
}

LLVMValueRef vx_sx(struct rz *r, LLVMValueRef v, LLVMTypeRef t)
{
	return LLVMBuildSExt(B, v, t, "");
}

LLVMValueRef vx_sh32(struct rz *r, LLVMValueRef v)
{
	return LLVMBuildAnd(B, v, c32(r, 31), "");
}

/*
 * The 16-bit ops that on GFX9 (gfx942/gfx950) clear bits [31:16] of the destination instead
 * of keeping them: LLVM's list (GCNSubtarget::zeroesHigh16BitsOfDest), which its code for those
 * targets relies on.  From GFX10 on (gfx1250) every 16-bit op keeps them.  Under SDWA the
 * destination select places bits of that same 32-bit result: dst_sel:DWORD writes it whole,
 * the zeroed half too (LLVM selects v_max_i16_sdwa ... dst_sel:DWORD for a zero-extended max).
 */
static const uint16_t gfx9_zeroes_high16[] = {
    ISA_OP_V_CVT_F16_F32,    ISA_OP_V_CVT_F16_U16,       ISA_OP_V_CVT_F16_I16,
    ISA_OP_V_RCP_F16,        ISA_OP_V_RSQ_F16,           ISA_OP_V_SQRT_F16,
    ISA_OP_V_LOG_F16,        ISA_OP_V_EXP_F16,           ISA_OP_V_SIN_F16,
    ISA_OP_V_COS_F16,        ISA_OP_V_FLOOR_F16,         ISA_OP_V_CEIL_F16,
    ISA_OP_V_TRUNC_F16,      ISA_OP_V_RNDNE_F16,         ISA_OP_V_FRACT_F16,
    ISA_OP_V_FREXP_MANT_F16, ISA_OP_V_FREXP_EXP_I16_F16, ISA_OP_V_LDEXP_F16,
    ISA_OP_V_LSHLREV_B16,    ISA_OP_V_LSHRREV_B16,       ISA_OP_V_ASHRREV_I16,
    ISA_OP_V_ADD_NC_U16,     ISA_OP_V_SUB_NC_U16,        ISA_OP_V_MUL_LO_U16,
    ISA_OP_V_ADD_F16,        ISA_OP_V_SUB_F16,           ISA_OP_V_SUBREV_F16,
    ISA_OP_V_MUL_F16,        ISA_OP_V_MAX_NUM_F16,       ISA_OP_V_MIN_NUM_F16,
    ISA_OP_V_MAX_U16,        ISA_OP_V_MIN_U16,           ISA_OP_V_MAX_I16,
    ISA_OP_V_MIN_I16,        ISA_OP_V_MAD_U16,           ISA_OP_V_MAD_I16,
    ISA_OP_V_FMA_F16,        ISA_OP_V_DIV_FIXUP_F16,
};

static bool zeroes_high16(const struct rz *r)
{
	/* The scalar f16 ops (SOP1, SOP2) write their 16-bit result into the low half of the SGPR
	 * and set bits [31:16] to 0, the ISA's rule for every scalar F16 instruction
	 * (docs/raiser.md, "Scalar float"). */
	if (r->in->format == ISA_FMT_SOP1 || r->in->format == ISA_FMT_SOP2)
		return true;
	if (r->arch == ISA_ARCH_GFX1250)
		return false;
	for (size_t i = 0; i < sizeof(gfx9_zeroes_high16) / sizeof(gfx9_zeroes_high16[0]); i++)
		if (gfx9_zeroes_high16[i] == r->in->op)
			return true;
	return false;
}

/*
 * A 16-bit result into the low half of the destination, the high half kept (cleared by the
 * GFX9 ops above and by the scalar ones); with op_sel[3] into the high half, the low half kept.
 */
int vx_write16(struct rz *r, const struct isa_operand *d, LLVMValueRef v16)
{
	LLVMValueRef old = rz_src(r, d, 32, 0), v = LLVMBuildZExt(B, v16, r->i32, "");
	if (r->in->format == ISA_FMT_VOP3)
		rz_mod_used(r, RZ_MOD_OP_SEL0 + 3);
	if (r->in->format == ISA_FMT_VOP3 && (r->in->mods.op_sel & 8))
		v = LLVMBuildOr(B, LLVMBuildAnd(B, old, c32(r, 0xffff), ""),
		                LLVMBuildShl(B, v, c32(r, 16), ""), "");
	else if (!zeroes_high16(r))
		v = LLVMBuildOr(B, LLVMBuildAnd(B, old, c32(r, 0xffff0000u), ""), v, "");
	return rz_write(r, d, v);
}

/*
 * VOP3P source k of the low (hi false) or high half: whether it reads the source's high half
 * (op_sel / op_sel_hi) and whether it is negated (neg_lo / neg_hi), both marked applied.
 */
bool vx_packed_select(struct rz *r, const struct vops *o, unsigned k, bool hi, bool *neg)
{
	const struct isa_mods *m = &r->in->mods;

	rz_mod_used(r, (hi ? RZ_MOD_OP_SEL_HI0 : RZ_MOD_OP_SEL0) + k);
	if (hi) {
		rz_mod_used(r, RZ_MOD_NEG_HI0 + k);
		*neg = m->neg_hi >> k & 1;
	} else {
		rz_operand_mods_used(r, o->s[k], ISA_OPF_NEG);
		*neg = o->s[k]->flags & ISA_OPF_NEG;
	}
	return (hi ? m->op_sel_hi : m->op_sel) >> k & 1;
}
