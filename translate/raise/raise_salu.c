/* Scalar ALU semantics: SOP1, SOP2, SOPC, SOPK (every lane computes the same value); the float
 * ops are raise_sfloat.c's, offered first. */
#include "raise_internal.h"

#define B (r->B)

static LLVMValueRef c32(struct rz *r, uint64_t v)
{
	return rz_const32(r, v);
}

static LLVMValueRef ne0(struct rz *r, LLVMValueRef v)
{
	return LLVMBuildICmp(B, LLVMIntNE, v, LLVMConstNull(LLVMTypeOf(v)), "");
}

static LLVMValueRef simm16(struct rz *r, const struct isa_inst *in, int sign)
{
	return sign ? c32(r, (uint32_t)(int32_t)(int16_t)in->mods.simm16) : c32(r, in->mods.simm16);
}

/* Width in bits of the row's operands: 64 when the row's src0 slot is 2 dwords. */
static unsigned width_of(const struct rz *r, const struct isa_inst *in, unsigned slot)
{
	const struct isa_row *row = rz_row(r, in->op);
	unsigned w = slot == 0 ? row->dst : slot == 1 ? row->src0 : row->src1;
	return w == 2 ? 64 : 32;
}

/* The _b64 forms (wave64) compute the same on 64-bit masks. */
static unsigned saveexec_op32(unsigned op)
{
	static const uint16_t pairs[][2] = {
	    {ISA_OP_S_AND_SAVEEXEC_B64, ISA_OP_S_AND_SAVEEXEC_B32},
	    {ISA_OP_S_OR_SAVEEXEC_B64, ISA_OP_S_OR_SAVEEXEC_B32},
	    {ISA_OP_S_XOR_SAVEEXEC_B64, ISA_OP_S_XOR_SAVEEXEC_B32},
	    {ISA_OP_S_NAND_SAVEEXEC_B64, ISA_OP_S_NAND_SAVEEXEC_B32},
	    {ISA_OP_S_NOR_SAVEEXEC_B64, ISA_OP_S_NOR_SAVEEXEC_B32},
	    {ISA_OP_S_XNOR_SAVEEXEC_B64, ISA_OP_S_XNOR_SAVEEXEC_B32},
	    {ISA_OP_S_AND_NOT0_SAVEEXEC_B64, ISA_OP_S_AND_NOT0_SAVEEXEC_B32},
	    {ISA_OP_S_OR_NOT0_SAVEEXEC_B64, ISA_OP_S_OR_NOT0_SAVEEXEC_B32},
	    {ISA_OP_S_AND_NOT1_SAVEEXEC_B64, ISA_OP_S_AND_NOT1_SAVEEXEC_B32},
	    {ISA_OP_S_OR_NOT1_SAVEEXEC_B64, ISA_OP_S_OR_NOT1_SAVEEXEC_B32},
	    {ISA_OP_S_AND_NOT0_WREXEC_B64, ISA_OP_S_AND_NOT0_WREXEC_B32},
	    {ISA_OP_S_AND_NOT1_WREXEC_B64, ISA_OP_S_AND_NOT1_WREXEC_B32},
	};
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (pairs[i][0] == op)
			return pairs[i][1];
	return 0;
}

static int saveexec(struct rz *r, const struct isa_inst *in)
{
	unsigned op = in->op, op32 = saveexec_op32(op);
	LLVMValueRef old, s, n, ns, no;
	bool wrexec = false;

	if (op32) {
		if (r->wave != 64)
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
			                 "a 64-bit EXEC write on wave32");
		op = op32;
	}
	switch (op) {
	case ISA_OP_S_AND_SAVEEXEC_B32:
	case ISA_OP_S_OR_SAVEEXEC_B32:
	case ISA_OP_S_XOR_SAVEEXEC_B32:
	case ISA_OP_S_NAND_SAVEEXEC_B32:
	case ISA_OP_S_NOR_SAVEEXEC_B32:
	case ISA_OP_S_XNOR_SAVEEXEC_B32:
	case ISA_OP_S_AND_NOT0_SAVEEXEC_B32:
	case ISA_OP_S_OR_NOT0_SAVEEXEC_B32:
	case ISA_OP_S_AND_NOT1_SAVEEXEC_B32:
	case ISA_OP_S_OR_NOT1_SAVEEXEC_B32:
	case ISA_OP_S_AND_NOT0_WREXEC_B32:
	case ISA_OP_S_AND_NOT1_WREXEC_B32:
		break;
	default:
		return 1;
	}
	if (!op32 && r->wave == 64)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "a 32-bit EXEC write on wave64");
	old = rz_load_exec(r);
	s = rz_mask_src(r, &in->ops[1]);
	ns = LLVMBuildNot(B, s, "");
	no = LLVMBuildNot(B, old, "");
	switch (op) {
	case ISA_OP_S_AND_SAVEEXEC_B32:
		n = LLVMBuildAnd(B, s, old, "");
		break;
	case ISA_OP_S_OR_SAVEEXEC_B32:
		n = LLVMBuildOr(B, s, old, "");
		break;
	case ISA_OP_S_XOR_SAVEEXEC_B32:
		n = LLVMBuildXor(B, s, old, "");
		break;
	case ISA_OP_S_NAND_SAVEEXEC_B32:
		n = LLVMBuildNot(B, LLVMBuildAnd(B, s, old, ""), "");
		break;
	case ISA_OP_S_NOR_SAVEEXEC_B32:
		n = LLVMBuildNot(B, LLVMBuildOr(B, s, old, ""), "");
		break;
	case ISA_OP_S_XNOR_SAVEEXEC_B32:
		n = LLVMBuildNot(B, LLVMBuildXor(B, s, old, ""), "");
		break;
	case ISA_OP_S_AND_NOT0_SAVEEXEC_B32:
		n = LLVMBuildAnd(B, ns, old, "");
		break;
	case ISA_OP_S_OR_NOT0_SAVEEXEC_B32:
		n = LLVMBuildOr(B, ns, old, "");
		break;
	case ISA_OP_S_AND_NOT1_SAVEEXEC_B32:
		n = LLVMBuildAnd(B, s, no, "");
		break;
	case ISA_OP_S_OR_NOT1_SAVEEXEC_B32:
		n = LLVMBuildOr(B, s, no, "");
		break;
	case ISA_OP_S_AND_NOT0_WREXEC_B32:
		n = LLVMBuildAnd(B, ns, old, "");
		wrexec = true;
		break;
	default: /* ISA_OP_S_AND_NOT1_WREXEC_B32 */
		n = LLVMBuildAnd(B, s, no, "");
		wrexec = true;
		break;
	}
	rz_store_exec(r, n);
	rz_store_scc(r, ne0(r, n));
	return rz_write(r, &in->ops[0], wrexec ? n : old);
}

static LLVMValueRef bfe(struct rz *r, LLVMValueRef v, LLVMValueRef ctl, unsigned bits, int sign)
{
	LLVMTypeRef t = LLVMIntTypeInContext(r->C, bits);
	LLVMValueRef c = bits == 64 ? LLVMBuildTrunc(B, ctl, r->i32, "") : ctl;
	LLVMValueRef off = LLVMBuildAnd(B, c, c32(r, bits - 1), "");
	LLVMValueRef width = LLVMBuildAnd(B, LLVMBuildLShr(B, c, c32(r, 16), ""), c32(r, 0x7f), "");
	LLVMValueRef offw, widthw, sh, res, left;
	width = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntUGT, width, c32(r, bits), ""),
	                        c32(r, bits), width, "");
	offw = bits == 64 ? LLVMBuildZExt(B, off, t, "") : off;
	widthw = bits == 64 ? LLVMBuildZExt(B, width, t, "") : width;
	/* v << (bits - off - width) >> (bits - width), in twice the width to keep shifts < bits. */
	{
		LLVMTypeRef w2 = LLVMIntTypeInContext(r->C, bits * 2);
		LLVMValueRef v2 = sign ? LLVMBuildSExt(B, v, w2, "") : LLVMBuildZExt(B, v, w2, "");
		LLVMValueRef o2 = LLVMBuildZExt(B, offw, w2, "");
		LLVMValueRef wd2 = LLVMBuildZExt(B, widthw, w2, "");
		LLVMValueRef total = LLVMConstInt(w2, bits * 2, 0);
		sh = LLVMBuildLShr(B, v2, o2, "");
		left = LLVMBuildSub(B, total, wd2, "");
		sh = LLVMBuildShl(B, sh, left, "");
		res = sign ? LLVMBuildAShr(B, sh, left, "") : LLVMBuildLShr(B, sh, left, "");
		res = LLVMBuildTrunc(B, res, t, "");
	}
	return LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, width, c32(r, 0), ""),
	                       LLVMConstNull(t), res, "");
}

static LLVMValueRef shamt(struct rz *r, LLVMValueRef s, unsigned bits)
{
	LLVMTypeRef t = LLVMIntTypeInContext(r->C, bits);
	s = LLVMBuildAnd(B, s, c32(r, bits - 1), "");
	return bits == 64 ? LLVMBuildZExt(B, s, t, "") : s;
}

static int cmp(struct rz *r, const struct isa_inst *in)
{
	static const struct {
		uint16_t op;
		LLVMIntPredicate p;
		uint8_t bits;
	} t[] = {
	    {ISA_OP_S_CMP_EQ_I32, LLVMIntEQ, 32},  {ISA_OP_S_CMP_LG_I32, LLVMIntNE, 32},
	    {ISA_OP_S_CMP_GT_I32, LLVMIntSGT, 32}, {ISA_OP_S_CMP_GE_I32, LLVMIntSGE, 32},
	    {ISA_OP_S_CMP_LT_I32, LLVMIntSLT, 32}, {ISA_OP_S_CMP_LE_I32, LLVMIntSLE, 32},
	    {ISA_OP_S_CMP_EQ_U32, LLVMIntEQ, 32},  {ISA_OP_S_CMP_LG_U32, LLVMIntNE, 32},
	    {ISA_OP_S_CMP_GT_U32, LLVMIntUGT, 32}, {ISA_OP_S_CMP_GE_U32, LLVMIntUGE, 32},
	    {ISA_OP_S_CMP_LT_U32, LLVMIntULT, 32}, {ISA_OP_S_CMP_LE_U32, LLVMIntULE, 32},
	    {ISA_OP_S_CMP_EQ_U64, LLVMIntEQ, 64},  {ISA_OP_S_CMP_LG_U64, LLVMIntNE, 64},
	};
	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].op == in->op) {
			LLVMValueRef a = rz_src(r, &in->ops[0], t[i].bits, 0);
			LLVMValueRef b = rz_src(r, &in->ops[1], t[i].bits, 0);
			rz_store_scc(r, LLVMBuildICmp(B, t[i].p, a, b, ""));
			return 0;
		}
	if (in->op == ISA_OP_S_BITCMP0_B32 || in->op == ISA_OP_S_BITCMP1_B32 ||
	    in->op == ISA_OP_S_BITCMP0_B64 || in->op == ISA_OP_S_BITCMP1_B64) {
		unsigned bits =
		    in->op == ISA_OP_S_BITCMP0_B64 || in->op == ISA_OP_S_BITCMP1_B64 ? 64 : 32;
		LLVMValueRef a = rz_src(r, &in->ops[0], bits, 0);
		LLVMValueRef b = shamt(r, rz_src(r, &in->ops[1], 32, 0), bits);
		LLVMValueRef bit = LLVMBuildTrunc(B, LLVMBuildLShr(B, a, b, ""), r->i1, "");
		if (in->op == ISA_OP_S_BITCMP0_B32 || in->op == ISA_OP_S_BITCMP0_B64)
			bit = LLVMBuildNot(B, bit, "");
		rz_store_scc(r, bit);
		return 0;
	}
	return 1;
}

static LLVMValueRef ext64(struct rz *r, LLVMValueRef v, int sign)
{
	return sign ? LLVMBuildSExt(B, v, r->i64, "") : LLVMBuildZExt(B, v, r->i64, "");
}

/* SOPK: a register against or with simm16: 0 raised, -1 refused, 1 not one. */
static int salu_sopk(struct rz *r, const struct isa_inst *in)
{
	LLVMValueRef a, b, v, sc = NULL;
	const struct isa_operand *d = &in->ops[0];

	switch (in->op) {
	case ISA_OP_S_MOVK_I32:
		return rz_write(r, d, simm16(r, in, 1));
	case ISA_OP_S_CMOVK_I32:
		v = LLVMBuildSelect(B, rz_load_scc(r), simm16(r, in, 1), rz_src(r, d, 32, 0), "");
		return rz_write(r, d, v);
	case ISA_OP_S_ADDK_CO_I32:
		a = rz_src(r, d, 32, 0);
		b = simm16(r, in, 1);
		v = LLVMBuildAdd(B, a, b, "");
		/* SCC = signed overflow */
		sc = LLVMBuildICmp(B, LLVMIntSLT,
		                   LLVMBuildAnd(B, LLVMBuildNot(B, LLVMBuildXor(B, a, b, ""), ""),
		                                LLVMBuildXor(B, a, v, ""), ""),
		                   c32(r, 0), "");
		rz_store_scc(r, sc);
		return rz_write(r, d, v);
	case ISA_OP_S_MULK_I32:
		return rz_write(r, d, LLVMBuildMul(B, rz_src(r, d, 32, 0), simm16(r, in, 1), ""));
	case ISA_OP_S_CMPK_EQ_I32: /* GFX9: SCC = the register against simm16 */
	case ISA_OP_S_CMPK_LG_I32:
	case ISA_OP_S_CMPK_EQ_U32:
	case ISA_OP_S_CMPK_LG_U32:
	case ISA_OP_S_CMPK_GT_U32:
	case ISA_OP_S_CMPK_LT_U32:
	case ISA_OP_S_CMPK_GE_U32:
	case ISA_OP_S_CMPK_LE_U32:
	case ISA_OP_S_CMPK_GT_I32:
	case ISA_OP_S_CMPK_GE_I32:
	case ISA_OP_S_CMPK_LT_I32:
	case ISA_OP_S_CMPK_LE_I32: {
		static const struct {
			uint16_t op;
			LLVMIntPredicate p;
			uint8_t sign;
		} k[] = {
		    {ISA_OP_S_CMPK_EQ_I32, LLVMIntEQ, 1},  {ISA_OP_S_CMPK_LG_I32, LLVMIntNE, 1},
		    {ISA_OP_S_CMPK_EQ_U32, LLVMIntEQ, 0},  {ISA_OP_S_CMPK_LG_U32, LLVMIntNE, 0},
		    {ISA_OP_S_CMPK_GT_U32, LLVMIntUGT, 0}, {ISA_OP_S_CMPK_LT_U32, LLVMIntULT, 0},
		    {ISA_OP_S_CMPK_GE_U32, LLVMIntUGE, 0}, {ISA_OP_S_CMPK_LE_U32, LLVMIntULE, 0},
		    {ISA_OP_S_CMPK_GT_I32, LLVMIntSGT, 1}, {ISA_OP_S_CMPK_GE_I32, LLVMIntSGE, 1},
		    {ISA_OP_S_CMPK_LT_I32, LLVMIntSLT, 1}, {ISA_OP_S_CMPK_LE_I32, LLVMIntSLE, 1}};
		unsigned i = 0, reg = 0;
		while (k[i].op != in->op)
			i++;
		while (reg + 1 < in->nops && in->ops[reg].kind == ISA_OPK_IMM)
			reg++;
		rz_store_scc(r, LLVMBuildICmp(B, k[i].p, rz_src(r, &in->ops[reg], 32, 0),
		                              simm16(r, in, k[i].sign), ""));
		return 0;
	}
	case ISA_OP_S_GETREG_B32:
		/* MODE and the cluster status read as 0: no clusters, RNE, denormals kept.
		 */
		return rz_write(r, d, c32(r, 0));
	case ISA_OP_S_VERSION:
		return 0;
	default:
		return 1;
	}
}

/* SOP1: moves, saveexec, bit counts and single-source ops: 0, -1 or 1. */
static int salu_sop1(struct rz *r, const struct isa_inst *in)
{
	unsigned bits;
	LLVMValueRef a, v;
	const struct isa_operand *d = &in->ops[0];
	int rc = saveexec(r, in);

	if (rc != 1)
		return rc;
	bits = width_of(r, in, 1);
	switch (in->op) {
	case ISA_OP_S_MOV_B32:
	case ISA_OP_S_MOV_B64:
		return rz_write(r, d, rz_src(r, &in->ops[1], bits, 0));
	case ISA_OP_S_CMOV_B32:
	case ISA_OP_S_CMOV_B64:
		v = LLVMBuildSelect(B, rz_load_scc(r), rz_src(r, &in->ops[1], bits, 0),
		                    rz_src(r, d, bits, 0), "");
		return rz_write(r, d, v);
	case ISA_OP_S_NOT_B32:
	case ISA_OP_S_NOT_B64:
		v = LLVMBuildNot(B, rz_src(r, &in->ops[1], bits, 0), "");
		rz_store_scc(r, ne0(r, v));
		return rz_write(r, d, v);
	case ISA_OP_S_BREV_B32:
	case ISA_OP_S_BREV_B64: {
		LLVMTypeRef t = LLVMIntTypeInContext(r->C, bits);
		a = rz_src(r, &in->ops[1], bits, 0);
		return rz_write(r, d, rz_intrinsic(r, "llvm.bitreverse", &t, 1, &a, 1));
	}
	case ISA_OP_S_BCNT1_I32_B32:
	case ISA_OP_S_BCNT1_I32_B64:
	case ISA_OP_S_BCNT0_I32_B32:
	case ISA_OP_S_BCNT0_I32_B64: {
		LLVMTypeRef t = LLVMIntTypeInContext(r->C, bits);
		a = rz_src(r, &in->ops[1], bits, 0);
		if (in->op == ISA_OP_S_BCNT0_I32_B32 || in->op == ISA_OP_S_BCNT0_I32_B64)
			a = LLVMBuildNot(B, a, "");
		v = rz_intrinsic(r, "llvm.ctpop", &t, 1, &a, 1);
		if (bits == 64)
			v = LLVMBuildTrunc(B, v, r->i32, "");
		rz_store_scc(r, ne0(r, v));
		return rz_write(r, d, v);
	}
	case ISA_OP_S_CTZ_I32_B32:
	case ISA_OP_S_CTZ_I32_B64:
	case ISA_OP_S_CLZ_I32_U32:
	case ISA_OP_S_CLZ_I32_U64: {
		LLVMTypeRef t = LLVMIntTypeInContext(r->C, bits);
		bool ctz = in->op == ISA_OP_S_CTZ_I32_B32 || in->op == ISA_OP_S_CTZ_I32_B64;
		LLVMValueRef args[2];
		args[0] = a = rz_src(r, &in->ops[1], bits, 0);
		args[1] = LLVMConstInt(r->i1, 1, 0);
		v = rz_intrinsic(r, ctz ? "llvm.cttz" : "llvm.ctlz", &t, 1, args, 2);
		if (bits == 64)
			v = LLVMBuildTrunc(B, v, r->i32, "");
		v = LLVMBuildSelect(B, ne0(r, a), v, c32(r, 0xffffffffu), "");
		return rz_write(r, d, v);
	}
	case ISA_OP_S_SEXT_I32_I8:
	case ISA_OP_S_SEXT_I32_I16:
		a = LLVMBuildTrunc(B, rz_src(r, &in->ops[1], 32, 0),
		                   in->op == ISA_OP_S_SEXT_I32_I8 ? r->i8 : r->i16, "");
		return rz_write(r, d, LLVMBuildSExt(B, a, r->i32, ""));
	case ISA_OP_S_ABS_I32:
		a = rz_src(r, &in->ops[1], 32, 0);
		v = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, a, c32(r, 0), ""),
		                    LLVMBuildNeg(B, a, ""), a, "");
		rz_store_scc(r, ne0(r, v));
		return rz_write(r, d, v);
	case ISA_OP_S_BITSET0_B32:
	case ISA_OP_S_BITSET1_B32:
		a = LLVMBuildShl(B, c32(r, 1), shamt(r, rz_src(r, &in->ops[1], 32, 0), 32), "");
		v = rz_src(r, d, 32, 0);
		v = in->op == ISA_OP_S_BITSET1_B32 ? LLVMBuildOr(B, v, a, "")
		                                   : LLVMBuildAnd(B, v, LLVMBuildNot(B, a, ""), "");
		return rz_write(r, d, v);
	default:
		return 1;
	}
}

/* SOP2 arithmetic, min/max and shifts: the result into *vp and the SCC it sets into *scp
 * (NULL: kept); 1 when op is not one. */
static int sop2_arith(struct rz *r, const struct isa_inst *in, unsigned bits, LLVMValueRef a,
                      LLVMValueRef b, LLVMValueRef *vp, LLVMValueRef *scp)
{
	LLVMValueRef v = NULL, sc = NULL;

	switch (in->op) {
	case ISA_OP_S_ADD_CO_U32:
		v = LLVMBuildAdd(B, a, b, "");
		sc = LLVMBuildICmp(B, LLVMIntULT, v, a, "");
		break;
	case ISA_OP_S_SUB_CO_U32:
		v = LLVMBuildSub(B, a, b, "");
		sc = LLVMBuildICmp(B, LLVMIntULT, a, b, "");
		break;
	case ISA_OP_S_ADD_CO_I32:
		v = LLVMBuildAdd(B, a, b, "");
		sc = LLVMBuildICmp(B, LLVMIntSLT,
		                   LLVMBuildAnd(B, LLVMBuildNot(B, LLVMBuildXor(B, a, b, ""), ""),
		                                LLVMBuildXor(B, a, v, ""), ""),
		                   c32(r, 0), "");
		break;
	case ISA_OP_S_SUB_CO_I32:
		v = LLVMBuildSub(B, a, b, "");
		sc = LLVMBuildICmp(
		    B, LLVMIntSLT,
		    LLVMBuildAnd(B, LLVMBuildXor(B, a, b, ""), LLVMBuildXor(B, a, v, ""), ""),
		    c32(r, 0), "");
		break;
	case ISA_OP_S_ADD_CO_CI_U32:
	case ISA_OP_S_SUB_CO_CI_U32: {
		LLVMValueRef w = LLVMBuildZExt(B, rz_load_scc(r), r->i64, "");
		LLVMValueRef a6 = ext64(r, a, 0), b6 = ext64(r, b, 0), t;
		t = in->op == ISA_OP_S_ADD_CO_CI_U32
		        ? LLVMBuildAdd(B, LLVMBuildAdd(B, a6, b6, ""), w, "")
		        : LLVMBuildSub(B, LLVMBuildSub(B, a6, b6, ""), w, "");
		v = LLVMBuildTrunc(B, t, r->i32, "");
		sc = LLVMBuildTrunc(B, LLVMBuildLShr(B, t, rz_const64(r, 32), ""), r->i1, "");
		break;
	}
	case ISA_OP_S_MIN_I32:
		v = LLVMBuildSelect(B, sc = LLVMBuildICmp(B, LLVMIntSLT, a, b, ""), a, b, "");
		break;
	case ISA_OP_S_MIN_U32:
		v = LLVMBuildSelect(B, sc = LLVMBuildICmp(B, LLVMIntULT, a, b, ""), a, b, "");
		break;
	case ISA_OP_S_MAX_I32:
		v = LLVMBuildSelect(B, sc = LLVMBuildICmp(B, LLVMIntSGT, a, b, ""), a, b, "");
		break;
	case ISA_OP_S_MAX_U32:
		v = LLVMBuildSelect(B, sc = LLVMBuildICmp(B, LLVMIntUGT, a, b, ""), a, b, "");
		break;
	case ISA_OP_S_LSHL_B32:
	case ISA_OP_S_LSHL_B64:
		v = LLVMBuildShl(B, a, shamt(r, b, bits), "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_LSHR_B32:
	case ISA_OP_S_LSHR_B64:
		v = LLVMBuildLShr(B, a, shamt(r, b, bits), "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_ASHR_I32:
	case ISA_OP_S_ASHR_I64:
		v = LLVMBuildAShr(B, a, shamt(r, b, bits), "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_LSHL1_ADD_U32:
	case ISA_OP_S_LSHL2_ADD_U32:
	case ISA_OP_S_LSHL3_ADD_U32:
	case ISA_OP_S_LSHL4_ADD_U32: {
		unsigned n = 1 + (in->op - ISA_OP_S_LSHL1_ADD_U32);
		LLVMValueRef t = LLVMBuildAdd(
		    B, LLVMBuildShl(B, ext64(r, a, 0), rz_const64(r, n), ""), ext64(r, b, 0), "");
		v = LLVMBuildTrunc(B, t, r->i32, "");
		sc = ne0(r, LLVMBuildLShr(B, t, rz_const64(r, 32), ""));
		break;
	}
	default:
		return 1;
	}
	*vp = v;
	*scp = sc;
	return 0;
}

/* SOP2 packs, bitfields, multiplies, selects and logic, as sop2_arith. */
static int sop2_bits(struct rz *r, const struct isa_inst *in, unsigned bits, LLVMValueRef a,
                     LLVMValueRef b, LLVMValueRef *vp, LLVMValueRef *scp)
{
	LLVMValueRef v = NULL, sc = NULL;

	switch (in->op) {
	case ISA_OP_S_PACK_LL_B32_B16:
		v = LLVMBuildOr(B, LLVMBuildAnd(B, a, c32(r, 0xffff), ""),
		                LLVMBuildShl(B, b, c32(r, 16), ""), "");
		break;
	case ISA_OP_S_PACK_LH_B32_B16:
		v = LLVMBuildOr(B, LLVMBuildAnd(B, a, c32(r, 0xffff), ""),
		                LLVMBuildAnd(B, b, c32(r, 0xffff0000u), ""), "");
		break;
	case ISA_OP_S_PACK_HH_B32_B16:
		v = LLVMBuildOr(B, LLVMBuildLShr(B, a, c32(r, 16), ""),
		                LLVMBuildAnd(B, b, c32(r, 0xffff0000u), ""), "");
		break;
	case ISA_OP_S_PACK_HL_B32_B16:
		v = LLVMBuildOr(B, LLVMBuildLShr(B, a, c32(r, 16), ""),
		                LLVMBuildShl(B, b, c32(r, 16), ""), "");
		break;
	case ISA_OP_S_BFM_B32:
		v = LLVMBuildShl(
		    B,
		    LLVMBuildSub(B, LLVMBuildShl(B, c32(r, 1), shamt(r, a, 32), ""), c32(r, 1), ""),
		    shamt(r, b, 32), "");
		break;
	case ISA_OP_S_MUL_I32:
		v = LLVMBuildMul(B, a, b, "");
		break;
	case ISA_OP_S_MUL_HI_U32:
	case ISA_OP_S_MUL_HI_I32: {
		int s = in->op == ISA_OP_S_MUL_HI_I32;
		LLVMValueRef t = LLVMBuildMul(B, ext64(r, a, s), ext64(r, b, s), "");
		v = LLVMBuildTrunc(B, LLVMBuildLShr(B, t, rz_const64(r, 32), ""), r->i32, "");
		break;
	}
	case ISA_OP_S_CSELECT_B32:
	case ISA_OP_S_CSELECT_B64:
		v = LLVMBuildSelect(B, rz_load_scc(r), a, b, "");
		break;
	case ISA_OP_S_AND_B32:
	case ISA_OP_S_AND_B64:
		v = LLVMBuildAnd(B, a, b, "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_OR_B32:
	case ISA_OP_S_OR_B64:
		v = LLVMBuildOr(B, a, b, "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_XOR_B32:
	case ISA_OP_S_XOR_B64:
		v = LLVMBuildXor(B, a, b, "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_NAND_B32:
	case ISA_OP_S_NAND_B64:
		v = LLVMBuildNot(B, LLVMBuildAnd(B, a, b, ""), "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_NOR_B32:
	case ISA_OP_S_NOR_B64:
		v = LLVMBuildNot(B, LLVMBuildOr(B, a, b, ""), "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_XNOR_B32:
	case ISA_OP_S_XNOR_B64:
		v = LLVMBuildNot(B, LLVMBuildXor(B, a, b, ""), "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_AND_NOT1_B32:
	case ISA_OP_S_AND_NOT1_B64:
		v = LLVMBuildAnd(B, a, LLVMBuildNot(B, b, ""), "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_OR_NOT1_B32:
	case ISA_OP_S_OR_NOT1_B64:
		v = LLVMBuildOr(B, a, LLVMBuildNot(B, b, ""), "");
		sc = ne0(r, v);
		break;
	case ISA_OP_S_BFE_U32:
	case ISA_OP_S_BFE_I32:
	case ISA_OP_S_BFE_U64:
	case ISA_OP_S_BFE_I64:
		v = bfe(r, a, b, bits, in->op == ISA_OP_S_BFE_I32 || in->op == ISA_OP_S_BFE_I64);
		sc = ne0(r, v);
		break;
	case ISA_OP_S_ABSDIFF_I32: {
		LLVMValueRef t = LLVMBuildSub(B, a, b, "");
		v = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, t, c32(r, 0), ""),
		                    LLVMBuildNeg(B, t, ""), t, "");
		sc = ne0(r, v);
		break;
	}
	case ISA_OP_S_ADD_NC_U64:
		v = LLVMBuildAdd(B, a, b, "");
		break;
	case ISA_OP_S_SUB_NC_U64:
		v = LLVMBuildSub(B, a, b, "");
		break;
	case ISA_OP_S_MUL_U64:
		v = LLVMBuildMul(B, a, b, "");
		break;
	default:
		return 1;
	}
	*vp = v;
	*scp = sc;
	return 0;
}

/* SOP2: the integer ops with their SCC (the float ones are raise_sfloat.c's): 0, -1 or 1. */
static int salu_sop2(struct rz *r, const struct isa_inst *in)
{
	unsigned bits;
	LLVMValueRef a, b, v = NULL, sc = NULL;
	const struct isa_operand *d = &in->ops[0];

	bits = width_of(r, in, 1);
	a = rz_src(r, &in->ops[1], bits, 0);
	b = rz_src(r, &in->ops[2], width_of(r, in, 2), 0);
	if (sop2_arith(r, in, bits, a, b, &v, &sc) == 1 &&
	    sop2_bits(r, in, bits, a, b, &v, &sc) == 1)
		return 1;
	if (sc)
		rz_store_scc(r, sc);
	return rz_write(r, d, v);
}

int rz_salu(struct rz *r, const struct isa_inst *in)
{
	unsigned fmt = in->format;
	int rel = fmt == ISA_FMT_SOP1 ? rz_movrel(r, in) : 1;

	if (rel != 1)
		return rel;
	if ((rel = rz_sfloat(r, in)) != 1)
		return rel;
	switch (fmt) {
	case ISA_FMT_SOPC:
		return cmp(r, in);
	case ISA_FMT_SOPK:
		return salu_sopk(r, in);
	case ISA_FMT_SOP1:
		return salu_sop1(r, in);
	case ISA_FMT_SOP2:
		return salu_sop2(r, in);
	default:
		return 1;
	}
}
