/*
 * GFX9 VGPR index mode: s_set_gpr_idx_on sets M0[7:0] to the index and M0[15:12] to the mode
 * (SRC0=1, SRC1=2, SRC2=4, DST=8) and turns the mode on; until s_set_gpr_idx_off each VALU
 * instruction's VGPR operands of the enabled kinds name register (reg + M0[7:0]).
 * s_set_gpr_idx_idx sets the index, s_set_gpr_idx_mode the mode bits.
 *
 * The mode bits are immediates, so the raiser knows them per instruction; the index is M0's
 * (uniform, known at run time), so an indexed operand is the dynamic access v_movrels uses
 * (raise_movrel.c): a select chain up to the kernel's VGPR allocation, a fault past it.  The
 * mode is tracked within a block (clang emits each on/off pair around one instruction): a
 * block boundary or a branch while it is on is refused.
 */
#include "raise_internal.h"

#define B (r->B)

static const struct isa_operand m0op = {.kind = ISA_OPK_SPECIAL, .reg = ISA_REG_M0, .width = 1};

/* M0 = (M0 & ~clear) | set. */
static void m0_update(struct rz *r, uint32_t clear, LLVMValueRef set)
{
	LLVMValueRef m0 = rz_read32(r, &m0op, 0);
	rz_write32(r, &m0op, 0,
	           LLVMBuildOr(B, LLVMBuildAnd(B, m0, rz_const32(r, ~clear), ""), set, ""));
}

static LLVMValueRef index_of(struct rz *r, const struct isa_inst *in)
{
	for (unsigned i = 0; i < in->nops; i++)
		if (in->ops[i].role == ISA_ROLE_SRC)
			return LLVMBuildAnd(B, rz_read32(r, &in->ops[i], 0), rz_const32(r, 0xff),
			                    "");
	return NULL;
}

static unsigned mode_of(const struct isa_inst *in)
{
	for (unsigned i = 0; i < in->nops; i++)
		if (in->ops[i].kind == ISA_OPK_IMM)
			return (unsigned)in->ops[i].imm & 0xfu;
	return 0;
}

int rz_gpr_idx(struct rz *r, const struct isa_inst *in, bool block_start)
{
	LLVMValueRef idx;

	if (block_start && r->gpr_idx_on)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
		                 "VGPR index mode on across a block boundary");
	switch (in->op) {
	case ISA_OP_S_SET_GPR_IDX_ON:
		if (!(idx = index_of(r, in)))
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
			                 "s_set_gpr_idx_on without an index");
		r->gpr_idx_mode = mode_of(in);
		r->gpr_idx_on = true;
		m0_update(r, 0xf0ff,
		          LLVMBuildOr(B, idx, rz_const32(r, (uint64_t)r->gpr_idx_mode << 12), ""));
		return 0;
	case ISA_OP_S_SET_GPR_IDX_IDX:
		if (!(idx = index_of(r, in)))
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
			                 "s_set_gpr_idx_idx without an index");
		m0_update(r, 0xff, idx);
		return 0;
	case ISA_OP_S_SET_GPR_IDX_MODE:
		r->gpr_idx_mode = mode_of(in);
		m0_update(r, 0xf000, rz_const32(r, (uint64_t)r->gpr_idx_mode << 12));
		return 0;
	case ISA_OP_S_SET_GPR_IDX_OFF:
		r->gpr_idx_on = false;
		return 0;
	default:
		break;
	}
	if (r->gpr_idx_on && in->op != ISA_OP_S_ENDPGM &&
	    (in->flags & (ISA_F_BRANCH | ISA_F_CONDBR | ISA_F_CALL | ISA_F_TERM)))
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "a branch in VGPR index mode");
	return 1;
}

static bool is_valu(enum isa_format f)
{
	return f == ISA_FMT_VOP1 || f == ISA_FMT_VOP2 || f == ISA_FMT_VOPC || f == ISA_FMT_VOP3 ||
	       f == ISA_FMT_VOP3P;
}

int rz_gpr_idx_begin(struct rz *r, const struct isa_inst *in)
{
	unsigned nsrc = 0, size = rz_index_file(r, true);
	bool dst_seen = false;

	r->gpr_idx_used = 0;
	r->gpr_idx_val = NULL;
	for (unsigned j = 0; j < 4; j++)
		r->gpr_idx_op[j] = NULL;
	if (!r->gpr_idx_on || !r->gpr_idx_mode)
		return 0;
	if (!is_valu(in->format)) {
		for (unsigned i = 0; i < in->nops; i++)
			if (in->ops[i].kind == ISA_OPK_VGPR)
				return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
				                 "a non-VALU VGPR access in VGPR index mode");
		return 0;
	}
	if (in->dpp || in->sdwa)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "DPP or SDWA in VGPR index mode");
	for (unsigned i = 0; i < in->nops; i++) {
		const struct isa_operand *o = &in->ops[i];
		int slot = -1;
		if (o->role == ISA_ROLE_DST && !dst_seen) {
			dst_seen = true;
			slot = 3;
		} else if (o->role == ISA_ROLE_SRC && !(o->flags & ISA_OPF_FIXED) && nsrc < 3) {
			slot = (int)nsrc++;
		}
		if (slot < 0 || o->kind != ISA_OPK_VGPR || !(r->gpr_idx_mode & (1u << slot)))
			continue;
		if (o->reg + o->width > size)
			return rz_refuse(r, RAISE_UNSUPPORTED_REGISTER,
			                 "an indexed base beyond the kernel's %u VGPRs", size);
		if (!r->gpr_idx_val)
			r->gpr_idx_val =
			    LLVMBuildAnd(B, rz_read32(r, &m0op, 0), rz_const32(r, 0xff), "gpr_idx");
		/* The last register named must exist: index + width <= size - base. */
		rz_index_check(r, r->gpr_idx_val, size - o->reg - o->width + 1);
		r->gpr_idx_op[slot] = o;
	}
	return 0;
}

int rz_gpr_idx_end(struct rz *r)
{
	for (unsigned j = 0; j < 4; j++)
		if (r->gpr_idx_op[j] && !(r->gpr_idx_used & (1u << j)))
			return rz_refuse(
			    r, RAISE_UNSUPPORTED_FORM,
			    "an instruction whose operands VGPR index mode cannot offset");
	for (unsigned j = 0; j < 4; j++)
		r->gpr_idx_op[j] = NULL;
	r->gpr_idx_val = NULL;
	return 0;
}

static int slot_of(struct rz *r, const struct isa_operand *o, unsigned first, unsigned last)
{
	if (!r->gpr_idx_val)
		return -1;
	for (unsigned j = first; j <= last; j++)
		if (o == r->gpr_idx_op[j])
			return (int)j;
	return -1;
}

LLVMValueRef rz_gpr_idx_read(struct rz *r, const struct isa_operand *o, unsigned k)
{
	int j = slot_of(r, o, 0, 3);
	LLVMValueRef t;

	if (j < 0)
		return NULL;
	r->gpr_idx_used |= 1u << j;
	t = LLVMBuildAdd(B, r->gpr_idx_val, rz_const32(r, k), "");
	return rz_read_indexed(r, o, t, rz_index_file(r, true) - o->reg);
}

int rz_gpr_idx_write(struct rz *r, const struct isa_operand *o, unsigned k, LLVMValueRef v)
{
	int j = slot_of(r, o, 3, 3);
	LLVMValueRef t;

	if (j < 0)
		return 1;
	r->gpr_idx_used |= 1u << j;
	t = LLVMBuildAdd(B, r->gpr_idx_val, rz_const32(r, k), "");
	return rz_write_indexed(r, o, t, rz_index_file(r, true) - o->reg, v);
}
