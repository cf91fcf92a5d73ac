/* What every ISA's decode shares: classification, simm16 and source modifiers, the end of a
 * decode (size, EXEC, literal), and isa_decode. */
#include "isa_internal.h"

unsigned isa_classify(const struct isa_prefix *prefixes, size_t n, uint32_t w)
{
	for (size_t i = 0; i < n; i++)
		if ((w >> prefixes[i].shift) == prefixes[i].value)
			return prefixes[i].fmt;
	return ISA_FMT_NONE;
}

void isa_simm_operand(struct isa_ctx *c, const struct isa_row *r, uint32_t w)
{
	uint16_t simm = (uint16_t)isa_bits(w, 15, 0);

	c->in->mods.simm16 = simm;
	if (r->flags & ISA_F_BRANCH)
		isa_imm(c, ISA_OPK_LABEL, (int64_t)c->off + 4 + 4 * (int64_t)(int16_t)simm);
	else if (r->flags & ISA_F_SIMM)
		isa_imm(c, ISA_OPK_IMM, simm);
}

void isa_src_mods(struct isa_ctx *c, unsigned first, unsigned neg, unsigned abs, bool skip_literal)
{
	for (unsigned i = first, k = 0; i < c->in->nops && k < 3; i++) {
		struct isa_operand *o = &c->in->ops[i];
		if (o->role != ISA_ROLE_SRC || (o->flags & ISA_OPF_FIXED) ||
		    (skip_literal && o->kind == ISA_OPK_LITERAL))
			continue;
		if (neg & (1u << k))
			o->flags |= ISA_OPF_NEG;
		if (abs & (1u << k))
			o->flags |= ISA_OPF_ABS;
		k++;
	}
}

int isa_finish(struct isa_ctx *c, int rc, bool vector)
{
	struct isa_inst *out = c->in;

	out->size = (uint8_t)(c->base + c->lit);
	if (rc == ISA_OK && c->lit64_narrow)
		rc = ISA_ERR_SIZE_UNKNOWN;
	if (rc != ISA_OK)
		return rc;
	if (out->op && vector)
		out->impl_use |= ISA_IMPL_EXEC;
	if (!isa_have(c, out->size))
		return ISA_ERR_TRUNCATED;
	if (c->lit) {
		uint64_t lo = isa_word(c, c->base / 4);
		uint64_t hi = c->lit == 8 ? isa_word(c, c->base / 4 + 1) : 0;
		out->literal = lo | hi << 32;
		out->literal_size = (uint8_t)c->lit;
		for (unsigned i = 0; i < out->nops; i++)
			if (out->ops[i].kind == ISA_OPK_LITERAL)
				out->ops[i].imm = (int64_t)out->literal;
	}
	return ISA_OK;
}

int isa_decode(unsigned arch, const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
               struct isa_inst *out)
{
	if (arch == ISA_ARCH_GFX1250)
		return isa_decode_gfx1250(buf, len, off, st, out);
	if (arch == ISA_ARCH_GFX942)
		return isa_decode_gfx942(buf, len, off, st, out);
	if (arch == ISA_ARCH_GFX950)
		return isa_decode_gfx950(buf, len, off, st, out);
	return ISA_ERR_ARG;
}
