/*
 * Encoding modifiers: every field of an instruction that changes its result (clamp, omod,
 * op_sel, op_sel_hi, neg_hi, neg/abs per source, DPP, SDWA selects) is either applied by the
 * code that raises it, which says so with rz_mod_used, or the instruction is refused.  The
 * handlers mark a modifier where they apply it, so a handler that does not know a modifier
 * cannot drop it silently: rz_mods_check finds it set and unmarked (docs/raiser.md
 * "Modifiers").
 */
#include "raise_internal.h"

#include <stdio.h>

/* A modifier's bit in the present / used masks (enum rz_mod), in one place. */
static uint64_t bit(unsigned m)
{
	return UINT64_C(1) << m;
}

/* The SDWA selects that change a value: anything but DWORD (6), or a sign extension. */
static bool sdwa_src_selects(const struct isa_inst *in, unsigned k)
{
	unsigned sel = k ? in->sdwa_src1_sel : in->sdwa_src0_sel;
	return sel != 6 || (in->sdwa_sext >> k & 1);
}

/* How many sources the instruction's row has (3 when it has no row). */
static unsigned row_sources(const struct isa_inst *in)
{
	const struct isa_row *rows = isa_arch_rows(in->arch);
	const struct isa_row *row = rows && in->op ? &rows[in->op] : NULL;

	if (!row || !row->mnemonic)
		return 3;
	return row->src2 ? 3 : row->src1 ? 2 : row->src0 ? 1 : 0;
}

uint64_t rz_mods_present(const struct isa_inst *in)
{
	uint64_t m = 0;

	/* v_bitop3 keeps its truth table in the neg, abs and omod fields: the decoder gathers it
	 * into mods.bitop3, and what it also fills in there is no modifier */
	bool table = in->op == ISA_OP_V_BITOP3_B32 || in->op == ISA_OP_V_BITOP3_B16;
	unsigned nsrc = row_sources(in);

	if (in->mods.clamp)
		m |= bit(RZ_MOD_CLAMP);
	if (in->mods.omod && !table)
		m |= bit(RZ_MOD_OMOD);
	if (in->mods.op_sel >> 3 & 1)
		m |= bit(RZ_MOD_OP_SEL0 + 3);
	/* the per-source bits of a source the row does not have select nothing (LLVM sets
	 * op_sel_hi's for them) */
	/* v_permlane16_swap_b32's VOP3 form keeps fi and bound_ctrl in op_sel bits 0 and 1 */
	if (in->op == ISA_OP_V_PERMLANE16_SWAP_B32)
		for (unsigned k = 0; k < 2; k++)
			if (in->mods.op_sel >> k & 1)
				m |= bit(RZ_MOD_OP_SEL0 + k);
	for (unsigned k = 0; k < nsrc; k++) {
		if (in->mods.op_sel >> k & 1)
			m |= bit(RZ_MOD_OP_SEL0 + k);
		if (in->mods.op_sel_hi >> k & 1)
			m |= bit(RZ_MOD_OP_SEL_HI0 + k);
		if (in->mods.neg_hi >> k & 1)
			m |= bit(RZ_MOD_NEG_HI0 + k);
	}
	if (in->dpp)
		m |= bit(RZ_MOD_DPP);
	if (in->sdwa) {
		if (nsrc > 0 && sdwa_src_selects(in, 0))
			m |= bit(RZ_MOD_SDWA_SRC0);
		if (nsrc > 1 && sdwa_src_selects(in, 1))
			m |= bit(RZ_MOD_SDWA_SRC1);
		if (in->format != ISA_FMT_VOPC && in->sdwa_dst_sel != 6)
			m |= bit(RZ_MOD_SDWA_DST);
	}
	for (unsigned i = 0; i < in->nops && i < RZ_MOD_OPERANDS && !table; i++) {
		if (in->ops[i].flags & ISA_OPF_NEG)
			m |= bit(RZ_MOD_NEG0 + i);
		if (in->ops[i].flags & ISA_OPF_ABS)
			m |= bit(RZ_MOD_ABS0 + i);
	}
	return m;
}

void rz_mod_used(struct rz *r, unsigned m)
{
	r->mods_used |= bit(m);
}

void rz_operand_mods_used(struct rz *r, const struct isa_operand *o, unsigned flags)
{
	const struct isa_operand *first = r->in ? r->in->ops : NULL;
	unsigned i;

	if (!first || o < first || o >= first + r->in->nops)
		return; /* a copy the caller made: it marks the original */
	i = (unsigned)(o - first);
	if (i >= RZ_MOD_OPERANDS)
		return;
	if (flags & ISA_OPF_NEG)
		r->mods_used |= bit(RZ_MOD_NEG0 + i);
	if (flags & ISA_OPF_ABS)
		r->mods_used |= bit(RZ_MOD_ABS0 + i);
}

/* The modifier as the assembler spells it, into buf. */
static const char *mod_name(unsigned m, const struct isa_inst *in, char *buf, size_t size)
{
	static const char *const sdwa[] = {"src0_sel", "src1_sel", "dst_sel"};

	if (m == RZ_MOD_CLAMP)
		return "clamp";
	if (m == RZ_MOD_OMOD)
		snprintf(buf, size, "omod:%u", in->mods.omod);
	else if (m >= RZ_MOD_OP_SEL0 && m < RZ_MOD_OP_SEL0 + 4)
		snprintf(buf, size, "op_sel bit %u (%s)", m - RZ_MOD_OP_SEL0,
		         m == RZ_MOD_OP_SEL0 + 3 ? "the destination" : "a source");
	else if (m >= RZ_MOD_OP_SEL_HI0 && m < RZ_MOD_OP_SEL_HI0 + 3)
		snprintf(buf, size, "op_sel_hi bit %u", m - RZ_MOD_OP_SEL_HI0);
	else if (m >= RZ_MOD_NEG_HI0 && m < RZ_MOD_NEG_HI0 + 3)
		snprintf(buf, size, "neg_hi bit %u", m - RZ_MOD_NEG_HI0);
	else if (m == RZ_MOD_DPP)
		snprintf(buf, size, "DPP%u", in->dpp);
	else if (m >= RZ_MOD_SDWA_SRC0 && m <= RZ_MOD_SDWA_DST)
		snprintf(buf, size, "SDWA %s", sdwa[m - RZ_MOD_SDWA_SRC0]);
	else if (m >= RZ_MOD_NEG0 && m < RZ_MOD_NEG0 + RZ_MOD_OPERANDS)
		snprintf(buf, size, "neg on operand %u", m - RZ_MOD_NEG0);
	else
		snprintf(buf, size, "abs on operand %u", m - RZ_MOD_ABS0);
	return buf;
}

int rz_mods_check(struct rz *r)
{
	uint64_t left = r->mods_present & ~r->mods_used;
	char name[48];

	for (unsigned m = 0; m < RZ_MOD_COUNT; m++)
		if (left >> m & 1)
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
			                 "%s is not modelled for this instruction",
			                 mod_name(m, r->in, name, sizeof(name)));
	return 0;
}
