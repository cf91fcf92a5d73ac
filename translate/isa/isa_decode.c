/* What every ISA's decode shares: the end of a decode (size, EXEC, literal), and isa_decode. */
#include "isa_internal.h"

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
