/* Vector ALU semantics (VOP1, VOP2, VOP3, VOP3P, VOPC, VOPD): one lane's view.  The integer
 * and lane ops and the compares are here; float, 16-bit and packed math in raise_vfloat.c,
 * DPP in raise_dpp.c, the operand helpers they share in raise_vops.c. */
#include "raise_valu.h"

#define B (r->B)

/* A lane number read from a register: modulo the wave size (readlane, writelane). */
static LLVMValueRef lane_index(struct rz *r, LLVMValueRef v)
{
	return LLVMBuildAnd(B, v, c32(r, r->wave - 1), "");
}

/* The lanes below this one, as a mask of the wave's width. */
static LLVMValueRef lanes_below(struct rz *r)
{
	LLVMValueRef one = LLVMConstInt(r->mask, 1, 0);
	LLVMValueRef lane = r->wave == 64 ? vx_zx(r, r->lane, r->i64) : r->lane;
	return LLVMBuildSub(B, LLVMBuildShl(B, one, lane, ""), one, "");
}

static LLVMValueRef lane_mask_bit(struct rz *r, LLVMValueRef mask)
{
	return rz_lane_bit(r, mask);
}

/* v_cmp_class: the one-hot class of x (bit 0 sNaN ... bit 9 +inf). */
static LLVMValueRef fclass(struct rz *r, LLVMValueRef bitsv, unsigned bits)
{
	LLVMTypeRef it = LLVMIntTypeInContext(r->C, bits);
	unsigned mant = bits == 64 ? 52 : bits == 16 ? 10 : 23;
	uint64_t expmask = ((UINT64_C(1) << (bits - 1 - mant)) - 1) << mant;
	uint64_t mantmask = (UINT64_C(1) << mant) - 1, quiet = UINT64_C(1) << (mant - 1);
	LLVMValueRef e = LLVMBuildAnd(B, bitsv, LLVMConstInt(it, expmask, 0), "");
	LLVMValueRef m = LLVMBuildAnd(B, bitsv, LLVMConstInt(it, mantmask, 0), "");
	LLVMValueRef neg = LLVMBuildICmp(B, LLVMIntSLT, bitsv, LLVMConstNull(it), "");
	LLVMValueRef emax = LLVMBuildICmp(B, LLVMIntEQ, e, LLVMConstInt(it, expmask, 0), "");
	LLVMValueRef ezero = LLVMBuildICmp(B, LLVMIntEQ, e, LLVMConstNull(it), "");
	LLVMValueRef mzero = LLVMBuildICmp(B, LLVMIntEQ, m, LLVMConstNull(it), "");
	LLVMValueRef isq =
	    LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, m, LLVMConstInt(it, quiet, 0), ""),
	                  LLVMConstNull(it), "");
	/* index: nan -> 0/1; else sign ? (inf 2, normal 3, denorm 4, zero 5) : (zero 6, den 7, norm
	 * 8, inf 9) */
	LLVMValueRef kind =
	    LLVMBuildSelect(B, ezero, LLVMBuildSelect(B, mzero, c32(r, 3), c32(r, 2), ""),
	                    LLVMBuildSelect(B, emax, c32(r, 0), c32(r, 1), ""), "");
	/* kind: 0 inf, 1 normal, 2 denorm, 3 zero */
	LLVMValueRef idx = LLVMBuildSelect(B, neg, LLVMBuildAdd(B, kind, c32(r, 2), ""),
	                                   LLVMBuildSub(B, c32(r, 9), kind, ""), "");
	LLVMValueRef nan = LLVMBuildAnd(B, emax, LLVMBuildNot(B, mzero, ""), "");
	idx = LLVMBuildSelect(B, nan, LLVMBuildSelect(B, isq, c32(r, 1), c32(r, 0), ""), idx, "");
	return LLVMBuildShl(B, c32(r, 1), idx, "");
}

/* A compare's LLVM predicate by its condition (the row's OPER); 0 where the ISA has none. */
static const LLVMRealPredicate float_preds[ISA_O_COUNT] = {
    [ISA_O_CMP_LT] = LLVMRealOLT,  [ISA_O_CMP_EQ] = LLVMRealOEQ,  [ISA_O_CMP_LE] = LLVMRealOLE,
    [ISA_O_CMP_GT] = LLVMRealOGT,  [ISA_O_CMP_LG] = LLVMRealONE,  [ISA_O_CMP_GE] = LLVMRealOGE,
    [ISA_O_CMP_O] = LLVMRealORD,   [ISA_O_CMP_U] = LLVMRealUNO,   [ISA_O_CMP_NGE] = LLVMRealULT,
    [ISA_O_CMP_NLG] = LLVMRealUEQ, [ISA_O_CMP_NGT] = LLVMRealULE, [ISA_O_CMP_NLE] = LLVMRealUGT,
    [ISA_O_CMP_NEQ] = LLVMRealUNE, [ISA_O_CMP_NLT] = LLVMRealUGE,
};

LLVMValueRef vx_fcompare(struct rz *r, unsigned cond, LLVMValueRef x, LLVMValueRef y)
{
	if (cond >= ISA_O_COUNT || !float_preds[cond])
		return NULL;
	return LLVMBuildFCmp(B, float_preds[cond], x, y, "");
}

static const struct {
	LLVMIntPredicate u, s;
} int_preds[ISA_O_COUNT] = {
    [ISA_O_CMP_LT] = {LLVMIntULT, LLVMIntSLT}, [ISA_O_CMP_EQ] = {LLVMIntEQ, LLVMIntEQ},
    [ISA_O_CMP_LE] = {LLVMIntULE, LLVMIntSLE}, [ISA_O_CMP_GT] = {LLVMIntUGT, LLVMIntSGT},
    [ISA_O_CMP_NE] = {LLVMIntNE, LLVMIntNE},   [ISA_O_CMP_GE] = {LLVMIntUGE, LLVMIntSGE},
};

/* v_cmp / v_cmpx: the row's OPER is the condition, its TYPE the sources' type. */
static int vcmp(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	const struct isa_row *row = rz_row(r, op);
	unsigned cond = row->oper, bits = isa_type_bits(row->type);
	bool cmpx = row->impl_def & ISA_IMPL_EXEC; /* v_cmpx writes EXEC */
	LLVMValueRef pred, m;

	if (!isa_oper_is_compare(cond))
		return 1;
	if (isa_type_kind(row->type) == ISA_TK_F) {
		if (cond == ISA_O_CMP_CLASS) {
			LLVMValueRef x = LLVMBuildBitCast(B, vx_fsrc(r, o, 0, bits),
			                                  LLVMIntTypeInContext(r->C, bits), "");
			LLVMValueRef mask = rz_src(r, o->s[1], 32, 0);
			pred = LLVMBuildICmp(B, LLVMIntNE,
			                     LLVMBuildAnd(B, fclass(r, x, bits), mask, ""),
			                     c32(r, 0), "");
		} else {
			if (!float_preds[cond])
				return 1;
			pred = LLVMBuildFCmp(B, float_preds[cond], vx_fsrc(r, o, 0, bits),
			                     vx_fsrc(r, o, 1, bits), "");
		}
	} else {
		bool s = isa_type_kind(row->type) == ISA_TK_I;
		if (!int_preds[cond].u)
			return 1;
		pred = LLVMBuildICmp(B, s ? int_preds[cond].s : int_preds[cond].u,
		                     vx_isrc(r, o, 0, bits), vx_isrc(r, o, 1, bits), "");
	}
	m = rz_ballot(r, pred, 0);
	if (cmpx) {
		rz_store_exec(r, m);
		/* GFX9's v_cmpx also writes its destination (VCC for e32, the SGPR pair of e64) */
		if (r->arch == ISA_ARCH_GFX1250 || !o->nd)
			return 0;
	}
	return rz_write(r, o->d[0], m);
}

/*
 * The fused three-operand integer ops: (src0 FIRST src1) SECOND src2, a shift's amount masked
 * to 5 bits as the hardware reads it.
 */
static const struct {
	unsigned op;
	LLVMOpcode first, second;
} fused3[] = {
    {ISA_OP_V_ADD3_U32, LLVMAdd, LLVMAdd},     {ISA_OP_V_LSHL_ADD_U32, LLVMShl, LLVMAdd},
    {ISA_OP_V_ADD_LSHL_U32, LLVMAdd, LLVMShl}, {ISA_OP_V_LSHL_OR_B32, LLVMShl, LLVMOr},
    {ISA_OP_V_AND_OR_B32, LLVMAnd, LLVMOr},    {ISA_OP_V_OR3_B32, LLVMOr, LLVMOr},
    {ISA_OP_V_XOR3_B32, LLVMXor, LLVMXor},     {ISA_OP_V_XAD_U32, LLVMXor, LLVMAdd},
};

/* The fused op's value, or NULL when op is not one. */
static LLVMValueRef fused3_value(struct rz *r, unsigned op, const struct vops *o)
{
	for (size_t i = 0; i < sizeof(fused3) / sizeof(fused3[0]); i++) {
		LLVMValueRef a, b, c;
		if (fused3[i].op != op)
			continue;
		a = vx_isrc(r, o, 0, 32);
		b = vx_isrc(r, o, 1, 32);
		c = vx_isrc(r, o, 2, 32);
		if (fused3[i].first == LLVMShl)
			b = vx_sh32(r, b);
		if (fused3[i].second == LLVMShl)
			c = vx_sh32(r, c);
		return LLVMBuildBinOp(B, fused3[i].second,
		                      LLVMBuildBinOp(B, fused3[i].first, a, b, ""), c, "");
	}
	return NULL;
}

/*
 * v_permlane16_swap_b32 vdst, src0 writes both: the odd rows (of 16 lanes) of vdst swap with
 * the even rows of src0, the row below, lane i with lane i ^ 16 (docs/raiser.md, "Cross-lane
 * moves"); the other rows of each keep their values.  Both registers are read before either
 * is written, so vdst = src0 swaps a register's rows.  What an inactive lane gives or is given
 * is not documented: a wave with a lane EXEC leaves out is a run-time fault naming the
 * instruction (a uniform branch: EXEC is scalar state).  So every lane is active where it
 * runs, and the VOP3 form's fi and bound_ctrl (op_sel bits 0 and 1), which say what an
 * inactive lane's value is, select nothing.
 */
static int permlane16_swap(struct rz *r, const struct vops *o)
{
	LLVMValueRef why[2] = {c32(r, RAISE_UNDOCUMENTED), c32(r, rz_pc(r))};
	LLVMBasicBlockRef bad, ok;
	LLVMValueRef br, vd, vs, from_s, from_d, peer, odd;

	if (o->nd < 1 || o->ns < 1 || o->d[0]->kind != ISA_OPK_VGPR ||
	    o->s[0]->kind != ISA_OPK_VGPR)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "a swap without its two VGPRs");
	bad = LLVMAppendBasicBlockInContext(r->C, r->F, "swap_fault");
	ok = LLVMAppendBasicBlockInContext(r->C, r->F, "swap_ok");
	br = LLVMBuildCondBr(
	    B, LLVMBuildICmp(B, LLVMIntNE, rz_load_exec(r), LLVMConstAllOnes(r->mask), ""), bad,
	    ok);
	LLVMSetMetadata(br, r->md_uniform,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	LLVMPositionBuilderAtEnd(B, bad);
	rz_call(r, HOOK_FAULT, why, 2);
	LLVMBuildRetVoid(B);
	LLVMPositionBuilderAtEnd(B, ok);
	vd = rz_read32(r, o->d[0], 0);
	vs = rz_read32(r, o->s[0], 0);
	peer = LLVMBuildXor(B, r->lane, c32(r, 16), "");
	from_s = rz_shuffle(r, vs, peer, 0);
	from_d = rz_shuffle(r, vd, peer, 1);
	odd = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, r->lane, c32(r, 16), ""), c32(r, 0), "");
	if (rz_write32(r, o->d[0], 0, LLVMBuildSelect(B, odd, from_s, vd, "")))
		return -1;
	/* read again: when src0 is vdst, an odd lane's value is the one just written */
	vs = rz_read32(r, o->s[0], 0);
	rz_mod_used(r, RZ_MOD_OP_SEL0);     /* fi */
	rz_mod_used(r, RZ_MOD_OP_SEL0 + 1); /* bound_ctrl */
	return rz_write32(r, o->s[0], 0, LLVMBuildSelect(B, odd, vs, from_d, ""));
}

/* One VALU operation (a VOPD half is one too). */
/* Moves and lane ops: readlane, writelane, mbcnt, permlane, cndmask.  2: not one. */
static int valu_lane(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	const struct isa_operand *d = o->d[0];
	LLVMValueRef v;
	LLVMTypeRef i64 = r->i64, i32 = r->i32;

	switch (op) {
	case ISA_OP_V_MOV_B32:
	case ISA_OP_V_PERMLANE64_B32: /* swaps the halves of a wave64; a wave32 has one: a move */
		return rz_write(r, d, rz_src(r, o->s[0], 32, 0));
	case ISA_OP_V_MOV_B64:
		return rz_write(r, d, rz_src(r, o->s[0], 64, 0));
	case ISA_OP_V_SWAP_B32: { /* each active lane exchanges its two VGPRs */
		LLVMValueRef vd, vs;
		if (o->ns < 1 || d->kind != ISA_OPK_VGPR || o->s[0]->kind != ISA_OPK_VGPR)
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "a swap without its two VGPRs");
		vd = rz_read32(r, d, 0);
		vs = rz_read32(r, o->s[0], 0);
		if (rz_write32(r, d, 0, vs))
			return -1;
		return rz_write32(r, o->s[0], 0, vd);
	}
	case ISA_OP_V_ACCVGPR_WRITE_B32: /* gfx942 AGPR moves (spill slots of calls) */
	case ISA_OP_V_ACCVGPR_READ_B32:
	case ISA_OP_V_ACCVGPR_MOV_B32:
		return rz_write(r, d, rz_src(r, o->s[0], 32, 0));
	case ISA_OP_V_READFIRSTLANE_B32:
		return rz_write(r, d, rz_readfirstlane(r, rz_src(r, o->s[0], 32, 0), 0));
	case ISA_OP_V_READLANE_B32: {
		LLVMValueRef args[3] = {rz_src(r, o->s[0], 32, 0),
		                        lane_index(r, rz_src(r, o->s[1], 32, 0)),
		                        c32(r, rz_pc(r) * 4)};
		return rz_write(r, d, rz_call(r, HOOK_READLANE, args, 3));
	}
	case ISA_OP_V_WRITELANE_B32: {
		LLVMValueRef val = rz_src(r, o->s[0], 32, 0),
		             idx = lane_index(r, rz_src(r, o->s[1], 32, 0));
		LLVMValueRef old = LLVMBuildLoad2(B, i32, rz_vgpr_slot(r, d->reg), "");
		LLVMValueRef at = LLVMBuildICmp(B, LLVMIntEQ, r->lane, idx, "");
		rz_tag_pc(r, at);
		rz_write_vgpr_raw(r, d->reg, LLVMBuildSelect(B, at, val, old, ""));
		return 0;
	}
	case ISA_OP_V_MBCNT_LO_U32_B32:
	case ISA_OP_V_MBCNT_HI_U32_B32: {
		/* the set bits of the mask's low (high) half below this lane; wave32 has no high
		 * half: mbcnt_hi only adds */
		LLVMValueRef below = lanes_below(r), x;
		if (op == ISA_OP_V_MBCNT_HI_U32_B32 && r->wave == 32)
			return rz_write(r, d, rz_src(r, o->s[1], 32, 0));
		if (r->wave == 64)
			below = LLVMBuildTrunc(B,
			                       op == ISA_OP_V_MBCNT_HI_U32_B32
			                           ? LLVMBuildLShr(B, below, rz_const64(r, 32), "")
			                           : below,
			                       i32, "");
		x = LLVMBuildAnd(B, rz_src(r, o->s[0], 32, 0), below, "");
		return rz_write(
		    r, d,
		    LLVMBuildAdd(B, vx_fcall1(r, "llvm.ctpop", x), rz_src(r, o->s[1], 32, 0), ""));
	}
	case ISA_OP_V_PERMLANE16_SWAP_B32:
		return permlane16_swap(r, o);
	case ISA_OP_V_PERMLANE16_B32:
	case ISA_OP_V_PERMLANEX16_B32: {
		/* lane i of a row of 16 reads lane sel[i] of its own row (permlanex16: the other
		 * row) */
		LLVMValueRef sel64 = LLVMBuildOr(
		    B, vx_zx(r, vx_isrc(r, o, 1, 32), i64),
		    LLVMBuildShl(B, vx_zx(r, vx_isrc(r, o, 2, 32), i64), rz_const64(r, 32), ""),
		    "");
		LLVMValueRef nib =
		    LLVMBuildMul(B, LLVMBuildAnd(B, r->lane, c32(r, 15), ""), c32(r, 4), "");
		LLVMValueRef sel =
		    LLVMBuildTrunc(B,
		                   LLVMBuildAnd(B, LLVMBuildLShr(B, sel64, vx_zx(r, nib, i64), ""),
		                                rz_const64(r, 15), ""),
		                   i32, "");
		LLVMValueRef row = LLVMBuildAnd(B, r->lane, c32(r, 16), "");
		if (op == ISA_OP_V_PERMLANEX16_B32)
			row = LLVMBuildXor(B, row, c32(r, 16), "");
		return rz_write(
		    r, d, rz_shuffle(r, vx_isrc(r, o, 0, 32), LLVMBuildOr(B, row, sel, ""), 0));
	}
	case ISA_OP_V_BCNT_U32_B32:
		return rz_write(r, d,
		                LLVMBuildAdd(B,
		                             vx_fcall1(r, "llvm.ctpop", rz_src(r, o->s[0], 32, 0)),
		                             rz_src(r, o->s[1], 32, 0), ""));
	case ISA_OP_V_CNDMASK_B32: {
		/* v_dual_cndmask reads vcc_lo without naming it */
		static const struct isa_operand vcc = {
		    .kind = ISA_OPK_SPECIAL, .width = 1, .reg = ISA_REG_VCC_LO};
		v = LLVMBuildSelect(B, lane_mask_bit(r, rz_mask_src(r, o->ns > 2 ? o->s[2] : &vcc)),
		                    rz_src(r, o->s[1], 32, 32), rz_src(r, o->s[0], 32, 32), "");
		return rz_write(r, d, v);
	}
	default:
		break;
	}
	return 2;
}

/* 32-bit integer arithmetic, logic, shifts, min/max and multiplies.  2: not one. */
static int valu_int32(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	const struct isa_operand *d = o->d[0];
	LLVMValueRef a, b, v;
	LLVMTypeRef i64 = r->i64, i32 = r->i32;

	switch (op) {
	case ISA_OP_V_ADD_NC_U32:
	case ISA_OP_V_ADD_NC_I32:
		return rz_write(r, d,
		                vx_addsub_clamped(r, false, op == ISA_OP_V_ADD_NC_I32,
		                                  vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32)));
	case ISA_OP_V_SUB_NC_U32:
	case ISA_OP_V_SUB_NC_I32:
		return rz_write(r, d,
		                vx_addsub_clamped(r, true, op == ISA_OP_V_SUB_NC_I32,
		                                  vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32)));
	case ISA_OP_V_SUBREV_NC_U32:
		return rz_write(
		    r, d,
		    vx_addsub_clamped(r, true, false, vx_isrc(r, o, 1, 32), vx_isrc(r, o, 0, 32)));
	case ISA_OP_V_AND_B32:
		return rz_write(r, d,
		                LLVMBuildAnd(B, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), ""));
	case ISA_OP_V_OR_B32:
		return rz_write(r, d,
		                LLVMBuildOr(B, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), ""));
	case ISA_OP_V_XOR_B32:
		return rz_write(r, d,
		                LLVMBuildXor(B, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), ""));
	case ISA_OP_V_XNOR_B32:
		return rz_write(
		    r, d,
		    LLVMBuildNot(B, LLVMBuildXor(B, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), ""),
		                 ""));
	case ISA_OP_V_NOT_B32:
		return rz_write(r, d, LLVMBuildNot(B, vx_isrc(r, o, 0, 32), ""));
	case ISA_OP_V_BFREV_B32:
		return rz_write(r, d, vx_fcall1(r, "llvm.bitreverse", vx_isrc(r, o, 0, 32)));
	case ISA_OP_V_CLZ_I32_U32:
	case ISA_OP_V_CTZ_I32_B32: {
		LLVMValueRef args[2] = {a = vx_isrc(r, o, 0, 32), LLVMConstInt(r->i1, 1, 0)};
		v = rz_intrinsic(r, op == ISA_OP_V_CLZ_I32_U32 ? "llvm.ctlz" : "llvm.cttz", &i32, 1,
		                 args, 2);
		return rz_write(r, d,
		                LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, a, c32(r, 0), ""),
		                                c32(r, 0xffffffffu), v, ""));
	}
	case ISA_OP_V_LSHLREV_B32:
		return rz_write(
		    r, d,
		    LLVMBuildShl(B, vx_isrc(r, o, 1, 32), vx_sh32(r, vx_isrc(r, o, 0, 32)), ""));
	case ISA_OP_V_LSHRREV_B32:
		return rz_write(
		    r, d,
		    LLVMBuildLShr(B, vx_isrc(r, o, 1, 32), vx_sh32(r, vx_isrc(r, o, 0, 32)), ""));
	case ISA_OP_V_ASHRREV_I32:
		return rz_write(
		    r, d,
		    LLVMBuildAShr(B, vx_isrc(r, o, 1, 32), vx_sh32(r, vx_isrc(r, o, 0, 32)), ""));
	case ISA_OP_V_MIN_I32:
		return rz_write(r, d,
		                vx_pick(r, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), LLVMIntSLT));
	case ISA_OP_V_MAX_I32:
		return rz_write(r, d,
		                vx_pick(r, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), LLVMIntSGT));
	case ISA_OP_V_MIN_U32:
		return rz_write(r, d,
		                vx_pick(r, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), LLVMIntULT));
	case ISA_OP_V_MAX_U32:
		return rz_write(r, d,
		                vx_pick(r, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), LLVMIntUGT));
	case ISA_OP_V_MUL_LO_U32:
		return rz_write(r, d,
		                LLVMBuildMul(B, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), ""));
	case ISA_OP_V_MUL_HI_U32:
	case ISA_OP_V_MUL_HI_I32: {
		bool s = op == ISA_OP_V_MUL_HI_I32;
		a = s ? vx_sx(r, vx_isrc(r, o, 0, 32), i64) : vx_zx(r, vx_isrc(r, o, 0, 32), i64);
		b = s ? vx_sx(r, vx_isrc(r, o, 1, 32), i64) : vx_zx(r, vx_isrc(r, o, 1, 32), i64);
		v = LLVMBuildLShr(B, LLVMBuildMul(B, a, b, ""), rz_const64(r, 32), "");
		return rz_write(r, d, LLVMBuildTrunc(B, v, i32, ""));
	}
	default:
		break;
	}
	return 2;
}

/* 24-bit multiplies, bitfields, align, perm, three-operand min/max/median, bitop3.  2: not one. */
static int valu_bits(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	const struct isa_operand *d = o->d[0];
	LLVMValueRef a, b, c, v;
	LLVMTypeRef i64 = r->i64, i32 = r->i32;

	switch (op) {
	case ISA_OP_V_MUL_U32_U24:
	case ISA_OP_V_MUL_HI_U32_U24:
	case ISA_OP_V_MAD_U32_U24:
		a = vx_zx(r, LLVMBuildAnd(B, vx_isrc(r, o, 0, 32), c32(r, 0xffffff), ""), i64);
		b = vx_zx(r, LLVMBuildAnd(B, vx_isrc(r, o, 1, 32), c32(r, 0xffffff), ""), i64);
		v = LLVMBuildMul(B, a, b, "");
		if (op == ISA_OP_V_MUL_HI_U32_U24)
			v = LLVMBuildLShr(B, v, rz_const64(r, 32), "");
		v = LLVMBuildTrunc(B, v, i32, "");
		if (op == ISA_OP_V_MAD_U32_U24)
			v = LLVMBuildAdd(B, v, vx_isrc(r, o, 2, 32), "");
		return rz_write(r, d, v);
	case ISA_OP_V_MUL_I32_I24:
	case ISA_OP_V_MUL_HI_I32_I24:
	case ISA_OP_V_MAD_I32_I24:
		a = vx_sx(r,
		          LLVMBuildAShr(B, LLVMBuildShl(B, vx_isrc(r, o, 0, 32), c32(r, 8), ""),
		                        c32(r, 8), ""),
		          i64);
		b = vx_sx(r,
		          LLVMBuildAShr(B, LLVMBuildShl(B, vx_isrc(r, o, 1, 32), c32(r, 8), ""),
		                        c32(r, 8), ""),
		          i64);
		v = LLVMBuildMul(B, a, b, "");
		if (op == ISA_OP_V_MUL_HI_I32_I24)
			v = LLVMBuildLShr(B, v, rz_const64(r, 32), "");
		v = LLVMBuildTrunc(B, v, i32, "");
		if (op == ISA_OP_V_MAD_I32_I24)
			v = LLVMBuildAdd(B, v, vx_isrc(r, o, 2, 32), "");
		return rz_write(r, d, v);
	case ISA_OP_V_MAD_U32:
		return rz_write(
		    r, d,
		    LLVMBuildAdd(B, LLVMBuildMul(B, vx_isrc(r, o, 0, 32), vx_isrc(r, o, 1, 32), ""),
		                 vx_isrc(r, o, 2, 32), ""));
	case ISA_OP_V_BFE_U32:
	case ISA_OP_V_BFE_I32: {
		LLVMValueRef off = vx_sh32(r, vx_isrc(r, o, 1, 32)),
		             w = vx_sh32(r, vx_isrc(r, o, 2, 32));
		a = vx_isrc(r, o, 0, 32);
		/* (a >> off) & ((1 << w) - 1), sign-extended from bit w-1 for i32; w = 0 gives 0.
		 * In i64: (a >> off) << (64 - w) >> (64 - w), every shift below 64 for w in 1..31.
		 */
		v = LLVMBuildLShr(B, a, off, "");
		{
			LLVMValueRef left = LLVMBuildSub(B, c32(r, 64), w, "");
			LLVMValueRef l6 = vx_zx(r, left, i64), v6 = vx_zx(r, v, i64);
			LLVMValueRef t = LLVMBuildShl(B, v6, l6, "");
			t = LLVMBuildTrunc(B,
			                   op == ISA_OP_V_BFE_I32 ? LLVMBuildAShr(B, t, l6, "")
			                                          : LLVMBuildLShr(B, t, l6, ""),
			                   i32, "");
			v = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, w, c32(r, 0), ""),
			                    c32(r, 0), t, "");
		}
		return rz_write(r, d, v);
	}
	case ISA_OP_V_BFI_B32:
		a = vx_isrc(r, o, 0, 32);
		return rz_write(
		    r, d,
		    LLVMBuildOr(B, LLVMBuildAnd(B, a, vx_isrc(r, o, 1, 32), ""),
		                LLVMBuildAnd(B, LLVMBuildNot(B, a, ""), vx_isrc(r, o, 2, 32), ""),
		                ""));
	case ISA_OP_V_ALIGNBIT_B32:
	case ISA_OP_V_ALIGNBYTE_B32: {
		LLVMValueRef hi = vx_zx(r, vx_isrc(r, o, 0, 32), i64),
		             lo = vx_zx(r, vx_isrc(r, o, 1, 32), i64);
		LLVMValueRef s = vx_isrc(r, o, 2, 32);
		s = op == ISA_OP_V_ALIGNBYTE_B32
		        ? LLVMBuildMul(B, LLVMBuildAnd(B, s, c32(r, 3), ""), c32(r, 8), "")
		        : vx_sh32(r, s);
		v = LLVMBuildOr(B, LLVMBuildShl(B, hi, rz_const64(r, 32), ""), lo, "");
		return rz_write(
		    r, d, LLVMBuildTrunc(B, LLVMBuildLShr(B, v, vx_zx(r, s, i64), ""), i32, ""));
	}
	case ISA_OP_V_PERM_B32: {
		/* bytes of {s0, s1} selected by each byte of s2 (selectors >= 8 give constants) */
		LLVMValueRef both = LLVMBuildOr(
		    B, LLVMBuildShl(B, vx_zx(r, vx_isrc(r, o, 0, 32), i64), rz_const64(r, 32), ""),
		    vx_zx(r, vx_isrc(r, o, 1, 32), i64), "");
		LLVMValueRef sel = vx_isrc(r, o, 2, 32);
		v = c32(r, 0);
		for (unsigned k = 0; k < 4; k++) {
			LLVMValueRef s = LLVMBuildAnd(B, LLVMBuildLShr(B, sel, c32(r, 8 * k), ""),
			                              c32(r, 0xff), "");
			LLVMValueRef byte = LLVMBuildAnd(
			    B,
			    LLVMBuildTrunc(
			        B,
			        LLVMBuildLShr(
			            B, both,
			            vx_zx(r,
			                  LLVMBuildMul(B, LLVMBuildAnd(B, s, c32(r, 7), ""),
			                               c32(r, 8), ""),
			                  i64),
			            ""),
			        i32, ""),
			    c32(r, 0xff), "");
			LLVMValueRef isconst = LLVMBuildICmp(B, LLVMIntUGE, s, c32(r, 12), "");
			LLVMValueRef cval =
			    LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, s, c32(r, 12), ""),
			                    c32(r, 0), c32(r, 0xff), "");
			byte = LLVMBuildSelect(B, isconst, cval, byte, "");
			v = LLVMBuildOr(B, v, LLVMBuildShl(B, byte, c32(r, 8 * k), ""), "");
		}
		return rz_write(r, d, v);
	}
	case ISA_OP_V_BITOP3_B32:
	case ISA_OP_V_BITOP3_B16: {
		uint8_t tt = in->mods.bitop3;
		a = vx_isrc(r, o, 0, 32), b = vx_isrc(r, o, 1, 32);
		c = o->ns > 2 ? vx_isrc(r, o, 2, 32) : c32(r, 0); /* v_dual_bitop2: two inputs */
		v = c32(r, 0);
		for (unsigned i = 0; i < 8; i++) {
			if (!(tt >> i & 1))
				continue;
			LLVMValueRef t = c32(r, 0xffffffffu);
			t = LLVMBuildAnd(B, t, i & 4 ? a : LLVMBuildNot(B, a, ""), "");
			t = LLVMBuildAnd(B, t, i & 2 ? b : LLVMBuildNot(B, b, ""), "");
			t = LLVMBuildAnd(B, t, i & 1 ? c : LLVMBuildNot(B, c, ""), "");
			v = LLVMBuildOr(B, v, t, "");
		}
		if (op == ISA_OP_V_BITOP3_B16) /* the same table on 16 bits: the low half */
			return vx_write16(r, d, LLVMBuildTrunc(B, v, r->i16, ""));
		return rz_write(r, d, v);
	}
	default:
		break;
	}
	return 2;
}

/* Carries (the carry-out a wave mask, a ballot) and 64-bit integer ops.  2: not one. */
static int valu_int64(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	const struct isa_operand *d = o->d[0];
	LLVMValueRef a, b, c, v;
	LLVMTypeRef i64 = r->i64, i32 = r->i32;

	switch (op) {
	case ISA_OP_V_ADD_CO_U32:
	case ISA_OP_V_SUB_CO_U32:
	case ISA_OP_V_SUBREV_CO_U32:
	case ISA_OP_V_ADD_CO_CI_U32:
	case ISA_OP_V_SUB_CO_CI_U32:
	case ISA_OP_V_SUBREV_CO_CI_U32: {
		bool ci = op == ISA_OP_V_ADD_CO_CI_U32 || op == ISA_OP_V_SUB_CO_CI_U32 ||
		          op == ISA_OP_V_SUBREV_CO_CI_U32;
		bool rev = op == ISA_OP_V_SUBREV_CO_U32 || op == ISA_OP_V_SUBREV_CO_CI_U32;
		bool add = op == ISA_OP_V_ADD_CO_U32 || op == ISA_OP_V_ADD_CO_CI_U32;
		LLVMValueRef cin = ci ? vx_zx(r, lane_mask_bit(r, rz_mask_src(r, o->s[2])), i64)
		                      : rz_const64(r, 0);
		a = vx_zx(r, vx_isrc(r, o, rev ? 1 : 0, 32), i64);
		b = vx_zx(r, vx_isrc(r, o, rev ? 0 : 1, 32), i64);
		v = add ? LLVMBuildAdd(B, LLVMBuildAdd(B, a, b, ""), cin, "")
		        : LLVMBuildSub(B, LLVMBuildSub(B, a, b, ""), cin, "");
		c = LLVMBuildTrunc(B, LLVMBuildLShr(B, v, rz_const64(r, 32), ""), r->i1, "");
		if (o->nd < 2)
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "carry without a destination");
		if (rz_write(r, o->d[1], rz_ballot(r, c, 1)))
			return -1;
		return rz_write(r, d, LLVMBuildTrunc(B, v, i32, ""));
	}
	/* ---- 64-bit integer ---- */
	case ISA_OP_V_ADD_NC_U64:
		return rz_write(r, d,
		                LLVMBuildAdd(B, vx_isrc(r, o, 0, 64), vx_isrc(r, o, 1, 64), ""));
	case ISA_OP_V_SUB_NC_U64:
		return rz_write(r, d,
		                LLVMBuildSub(B, vx_isrc(r, o, 0, 64), vx_isrc(r, o, 1, 64), ""));
	case ISA_OP_V_MUL_U64:
		return rz_write(r, d,
		                LLVMBuildMul(B, vx_isrc(r, o, 0, 64), vx_isrc(r, o, 1, 64), ""));
	case ISA_OP_V_LSHLREV_B64:
	case ISA_OP_V_LSHRREV_B64:
	case ISA_OP_V_ASHRREV_I64: {
		LLVMValueRef s =
		    vx_zx(r, LLVMBuildAnd(B, vx_isrc(r, o, 0, 32), c32(r, 63), ""), i64);
		a = vx_isrc(r, o, 1, 64);
		v = op == ISA_OP_V_LSHLREV_B64   ? LLVMBuildShl(B, a, s, "")
		    : op == ISA_OP_V_LSHRREV_B64 ? LLVMBuildLShr(B, a, s, "")
		                                 : LLVMBuildAShr(B, a, s, "");
		return rz_write(r, d, v);
	}
	case ISA_OP_V_LSHL_ADD_U64: {
		LLVMValueRef s =
		    vx_zx(r, LLVMBuildAnd(B, vx_isrc(r, o, 1, 32), c32(r, 63), ""), i64);
		return rz_write(r, d,
		                LLVMBuildAdd(B, LLVMBuildShl(B, vx_isrc(r, o, 0, 64), s, ""),
		                             vx_isrc(r, o, 2, 64), ""));
	}
	case ISA_OP_V_MAD_NC_U64_U32:
	case ISA_OP_V_MAD_NC_I64_I32:
	case ISA_OP_V_MAD_CO_U64_U32:
	case ISA_OP_V_MAD_CO_I64_I32: {
		bool s = op == ISA_OP_V_MAD_NC_I64_I32 || op == ISA_OP_V_MAD_CO_I64_I32;
		bool co = op == ISA_OP_V_MAD_CO_U64_U32 || op == ISA_OP_V_MAD_CO_I64_I32;
		LLVMTypeRef i128 = LLVMIntTypeInContext(r->C, 128);
		a = vx_isrc(r, o, 0, 32), b = vx_isrc(r, o, 1, 32), c = vx_isrc(r, o, 2, 64);
		a = s ? vx_sx(r, a, i128) : vx_zx(r, a, i128);
		b = s ? vx_sx(r, b, i128) : vx_zx(r, b, i128);
		v = LLVMBuildAdd(B, LLVMBuildMul(B, a, b, ""),
		                 s ? vx_sx(r, c, i128) : vx_zx(r, c, i128), "");
		/* The unsigned carry-out is bit 64 of the exact sum.  What the signed form writes
		 * there (overflow, or bit 64 of a 65-bit signed sum) is not stated anywhere we can
		 * check, so a signed carry-out is refused unless it is discarded: null, or SGPRs
		 * overwritten before anything reads them (GFX9 has no null; LLVM names a dead
		 * pair there, as for mul_hi(long)).  The dead SGPRs keep their old value. */
		if (co && s && o->nd >= 2) {
			const struct isa_operand *cy = o->d[1];
			if (!(cy->kind == ISA_OPK_SPECIAL && cy->reg == ISA_REG_NULL) &&
			    !rz_sgprs_dead_after(r, cy))
				return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
				                 "the carry-out of a signed 64-bit multiply-add is "
				                 "not modelled");
			co = false;
		}
		if (co) {
			LLVMValueRef t = LLVMBuildTrunc(B, v, i64, "");
			LLVMValueRef ovf = LLVMBuildICmp(B, LLVMIntNE, vx_zx(r, t, i128), v, "");
			if (o->nd < 2 || rz_write(r, o->d[1], rz_ballot(r, ovf, 1)))
				return -1;
		}
		return rz_write(r, d, LLVMBuildTrunc(B, v, i64, ""));
	}
	case ISA_OP_V_MIN_U64:
		return rz_write(r, d,
		                vx_pick(r, vx_isrc(r, o, 0, 64), vx_isrc(r, o, 1, 64), LLVMIntULT));
	case ISA_OP_V_MAX_U64:
		return rz_write(r, d,
		                vx_pick(r, vx_isrc(r, o, 0, 64), vx_isrc(r, o, 1, 64), LLVMIntUGT));
	case ISA_OP_V_MIN_I64:
		return rz_write(r, d,
		                vx_pick(r, vx_isrc(r, o, 0, 64), vx_isrc(r, o, 1, 64), LLVMIntSLT));
	case ISA_OP_V_MAX_I64:
		return rz_write(r, d,
		                vx_pick(r, vx_isrc(r, o, 0, 64), vx_isrc(r, o, 1, 64), LLVMIntSGT));
	default:
		break;
	}
	return 2;
}

/* The integer and lane ops: 0 raised, -1 refused, 2 not one (the float handlers try). */
static int valu_one(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	int (*const groups[])(struct rz *, const struct isa_inst *, unsigned,
	                      const struct vops *) = {valu_lane, valu_int32, valu_bits, valu_int64,
	                                              vx_minmax};
	LLVMValueRef v = fused3_value(r, op, o);

	if (v)
		return rz_write(r, o->d[0], v);
	for (unsigned g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		int rc = groups[g](r, in, op, o);
		if (rc != 2)
			return rc;
	}
	return 2; /* not integer: the float table */
}

static int valu_dispatch(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o)
{
	int rc;

	if (in->dpp && !r->dpp_op && vx_dpp(r, in, o))
		return -1;
	if (in->sdwa) {
		r->sdwa_src[0] = o->ns > 0 ? o->s[0] : NULL;
		r->sdwa_src[1] = o->ns > 1 ? o->s[1] : NULL;
		r->sdwa_dst = in->format == ISA_FMT_VOPC ? NULL : o->d[0];
	}

	if (isa_oper_is_compare(rz_row(r, op)->oper)) {
		rc = vcmp(r, in, op, o);
		if (rc != 1)
			return rc;
	}
	if (in->format == ISA_FMT_VOP3P && op != ISA_OP_V_PK_FMA_F32 && op != ISA_OP_V_PK_ADD_F32 &&
	    op != ISA_OP_V_PK_MUL_F32 && op != ISA_OP_V_PK_MOV_B32) {
		rc = vx_packed(r, in, op, o);
		if (rc != 1)
			return rc;
	}
	rc = valu_one(r, in, op, o);
	if (rc != 2)
		return rc;
	rc = vx_f16(r, in, op, o);
	if (rc != 1)
		return rc;
	rc = vx_fminmax3(r, in, op, o);
	if (rc != 1)
		return rc;
	return vx_float(r, in, op, o);
}

int rz_valu(struct rz *r, const struct isa_inst *in)
{
	struct vops o;
	int rel = rz_movrel(r, in);

	if (rel != 1)
		return rel;
	switch (in->format) {
	case ISA_FMT_VOP1:
	case ISA_FMT_VOP2:
	case ISA_FMT_VOP3:
	case ISA_FMT_VOP3P:
	case ISA_FMT_VOPC:
		vx_split(in->ops, in->nops, &o);
		return valu_dispatch(r, in, in->op, &o);
	case ISA_FMT_VOPD:
	case ISA_FMT_VOPD3: {
		/* Both halves read their sources before either writes: raise into temporaries. */
		struct vops x, y;
		const struct isa_operand *dx, *dy;
		struct isa_operand tx, ty;
		int rc;
		vx_split(in->ops, in->nops_x, &x);
		vx_split(in->ops + in->nops_x, (unsigned)(in->nops - in->nops_x), &y);
		dx = x.d[0];
		dy = y.d[0];
		if (!dx || !dy || dx->kind != ISA_OPK_VGPR || dy->kind != ISA_OPK_VGPR)
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
			                 "VOPD without two VGPR results");
		/* Y first into a spare VGPR slot (v1022), then X, then move Y's result. */
		tx = *dx;
		ty = *dy;
		ty.reg = NVGPR - 2;
		y.d[0] = &ty;
		for (unsigned k = 0; k < dy->width; k++)
			rz_write_vgpr_raw(
			    r, NVGPR - 2 + k,
			    LLVMBuildLoad2(B, r->i32, rz_vgpr_slot(r, dy->reg + k), ""));
		{
			struct isa_inst hy = *in;
			hy.format = ISA_FMT_VOP2;
			rc = valu_dispatch(r, &hy, in->op_y, &y);
			if (rc)
				return rc == 1 ? rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION,
				                           "VOPD Y half")
				               : rc;
		}
		{
			struct isa_inst hx = *in;
			hx.format = ISA_FMT_VOP2;
			x.d[0] = &tx;
			rc = valu_dispatch(r, &hx, in->op, &x);
			if (rc)
				return rc == 1 ? rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION,
				                           "VOPD X half")
				               : rc;
		}
		for (unsigned k = 0; k < dy->width; k++)
			rz_write_vgpr_raw(
			    r, dy->reg + k,
			    LLVMBuildLoad2(B, r->i32, rz_vgpr_slot(r, NVGPR - 2 + k), ""));
		return 0;
	}
	default:
		return 1;
	}
}
