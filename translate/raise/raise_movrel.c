/*
 * Relative register indexing through M0: v_movrels_b32 (vD = v[S + M0]), v_movreld_b32
 * (v[D + M0] = src), v_movrelsd_b32 (v[D + M0] = v[S + M0]), v_movrelsd_2_b32
 * (v[D + M0[25:16]] = v[S + M0[9:0]]) and the SGPR forms s_movrels/s_movreld_b32/b64.
 *
 * The index is uniform (M0 is scalar) but known only at run time, and the register file is
 * allocas that mem2reg promotes only while every access names its alloca.  So an indexed read
 * is a select chain over the registers the index can reach (from the base to the end of the
 * kernel's VGPR allocation, RSRC1, or to s105), and an indexed write is one select per
 * register: every access stays direct, and the registers stay SSA values after promotion.
 * An index past the allocation is a run-time fault naming the instruction (a uniform branch
 * to mx.fault), never a read of a register the kernel does not have.
 */
#include "raise_internal.h"

#define B (r->B)

enum {
	REL_SRC = 1,  /* the source is indexed */
	REL_DST = 2,  /* the destination is indexed */
	REL_SPLIT = 4 /* v_movrelsd_2: the source by M0[9:0], the destination by M0[25:16] */
};

static unsigned relative(enum isa_op op)
{
	switch (op) {
	case ISA_OP_V_MOVRELS_B32:
	case ISA_OP_S_MOVRELS_B32:
	case ISA_OP_S_MOVRELS_B64:
		return REL_SRC;
	case ISA_OP_V_MOVRELD_B32:
	case ISA_OP_S_MOVRELD_B32:
	case ISA_OP_S_MOVRELD_B64:
		return REL_DST;
	case ISA_OP_V_MOVRELSD_B32:
		return REL_SRC | REL_DST;
	case ISA_OP_V_MOVRELSD_2_B32:
		return REL_SRC | REL_DST | REL_SPLIT;
	default:
		return 0;
	}
}

/* How many registers from 0 the index may name: the VGPRs RSRC1 allocates (granules of 16
 * on gfx1250 wave32, up to the raiser's file but its two spare slots), or s0..s105. */
unsigned rz_index_file(struct rz *r, bool vector)
{
	unsigned n = (co_kd(r->k, "granulated_workitem_vgpr_count") + 1) * 16;
	if (!vector)
		return 106;
	return n < NVGPR - 2 ? n : NVGPR - 2;
}

/* A run-time fault unless base + idx + width <= size (a uniform branch: idx is M0's). */
void rz_index_check(struct rz *r, LLVMValueRef idx, unsigned n)
{
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(r->C, r->F, "movrel_fault");
	LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(r->C, r->F, "movrel_ok");
	LLVMValueRef a[2] = {rz_const32(r, RAISE_UNSUPPORTED_REGISTER), rz_const32(r, rz_pc(r))};
	LLVMValueRef br =
	    LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntUGE, idx, rz_const32(r, n), ""), bad, ok);

	LLVMSetMetadata(br, r->md_uniform,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	LLVMPositionBuilderAtEnd(B, bad);
	rz_call(r, HOOK_FAULT, a, 2);
	LLVMBuildRetVoid(B);
	LLVMPositionBuilderAtEnd(B, ok);
}

/* Register base + t (t < n at run time) of base's file: a select chain. */
LLVMValueRef rz_read_indexed(struct rz *r, const struct isa_operand *base, LLVMValueRef t,
                             unsigned n)
{
	struct isa_operand o = *base;
	LLVMValueRef v = rz_const32(r, 0);

	o.width = 1;
	o.flags = 0;
	for (unsigned k = 0; k < n; k++) {
		o.reg = (uint16_t)(base->reg + k);
		v = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, t, rz_const32(r, k), ""),
		                    rz_read32(r, &o, 0), v, "");
	}
	return v;
}

/* Register base + t = v (a VGPR under EXEC, as rz_write32 does): one select per register. */
int rz_write_indexed(struct rz *r, const struct isa_operand *base, LLVMValueRef t, unsigned n,
                     LLVMValueRef v)
{
	struct isa_operand o = *base;

	o.width = 1;
	for (unsigned k = 0; k < n; k++) {
		o.reg = (uint16_t)(base->reg + k);
		if (rz_write32(r, &o, 0,
		               LLVMBuildSelect(B,
		                               LLVMBuildICmp(B, LLVMIntEQ, t, rz_const32(r, k), ""),
		                               v, rz_read32(r, &o, 0), "")))
			return -1;
	}
	return 0;
}

int rz_movrel(struct rz *r, const struct isa_inst *in)
{
	const struct isa_operand m0op = {.kind = ISA_OPK_SPECIAL, .reg = ISA_REG_M0, .width = 1};
	const struct isa_operand *d = NULL, *s = NULL;
	unsigned rel = relative(in->op), size, w;
	bool vector = in->format != ISA_FMT_SOP1;
	enum isa_operand_kind file = vector ? ISA_OPK_VGPR : ISA_OPK_SGPR;
	LLVMValueRef m0, is, id, v[2];

	if (!rel)
		return 1;
	for (unsigned i = 0; i < in->nops; i++) {
		if (in->ops[i].role == ISA_ROLE_DST && !d)
			d = &in->ops[i];
		else if (in->ops[i].role == ISA_ROLE_SRC && !s)
			s = &in->ops[i];
	}
	if (in->dpp || !d || !s || d->width > 2 || (s->flags & (ISA_OPF_NEG | ISA_OPF_ABS)))
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
		                 "a relative move with modifiers or DPP");
	if (((rel & REL_SRC) && s->kind != file) || ((rel & REL_DST) && d->kind != file))
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "a relative %s that is no %s",
		                 (rel & REL_SRC) && s->kind != file ? "source" : "destination",
		                 vector ? "VGPR" : "SGPR");
	w = d->width;
	size = rz_index_file(r, vector);
	if (((rel & REL_SRC) && s->reg + w > size) || ((rel & REL_DST) && d->reg + w > size))
		return rz_refuse(r, RAISE_UNSUPPORTED_REGISTER,
		                 "a relative base beyond the kernel's %u registers", size);
	m0 = rz_read32(r, &m0op, 0);
	is = id = m0;
	if (rel & REL_SPLIT) {
		is = LLVMBuildAnd(B, m0, rz_const32(r, 0x3ff), "");
		id = LLVMBuildAnd(B, LLVMBuildLShr(B, m0, rz_const32(r, 16), ""),
		                  rz_const32(r, 0x3ff), "");
	}
	/* The last register named must exist: index + width <= size - base. */
	if (rel & REL_SRC)
		rz_index_check(r, is, size - s->reg - w + 1);
	if (rel & REL_DST)
		rz_index_check(r, id, size - d->reg - w + 1);
	for (unsigned j = 0; j < w; j++) {
		LLVMValueRef t = LLVMBuildAdd(B, is, rz_const32(r, j), "");
		v[j] = rel & REL_SRC ? rz_read_indexed(r, s, t, size - s->reg) : rz_read32(r, s, j);
	}
	for (unsigned j = 0; j < w; j++) {
		LLVMValueRef t = LLVMBuildAdd(B, id, rz_const32(r, j), "");
		if (rel & REL_DST ? rz_write_indexed(r, d, t, size - d->reg, v[j])
		                  : rz_write32(r, d, j, v[j]))
			return -1;
	}
	return 0;
}
