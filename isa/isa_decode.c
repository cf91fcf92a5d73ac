/* What every ISA's decode shares: classification, simm16 and source modifiers, the end of a
 * decode (size, EXEC, literal), and the one decode driver, isa_decode, which reads what differs
 * between ISAs from the architecture table (isa_rows.c). */
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

/* The row a family's opcode names: VOP3's also the e64 forms of VOPC/VOP2/VOP1 rows. */
static unsigned row_id(unsigned arch, const struct isa_codec *k, unsigned fmt, unsigned op)
{
	unsigned id = isa_find(arch, fmt, op);

	if (id || fmt != ISA_FMT_VOP3)
		return id;
	for (size_t i = 0; i < sizeof(k->e64) / sizeof(k->e64[0]); i++)
		if (op >= k->e64[i].first && op < k->e64[i].end) {
			id = isa_find(arch, k->e64[i].fmt, op - k->e64[i].first);
			return id && (isa_arch_rows(arch)[id].flags & ISA_F_E64) ? id
			                                                         : ISA_OP_UNKNOWN;
		}
	return ISA_OP_UNKNOWN;
}

void isa_state_reset(struct isa_state *st)
{
	if (st)
		st->vgpr_msb = 0;
}

/*
 * The VGPR banks an instruction that sets them (ISA_F_MSB) leaves, from those before (now):
 * s_set_vgpr_msb's imm[7:0].  An s_setreg_imm32_b32 of MODE writes imm32[19:12] into
 * MODE[19:12], where gfx12.5 keeps the same banks in another order (dst, src0, src1, src2 from
 * bit 12 up), whatever field its hwreg names: LLVM 22 folds the banks into such a write (the
 * kernel prologue's) instead of an s_set_vgpr_msb (docs/isa-decoder.md).
 */
static uint8_t banks_after(const struct isa_inst *in, uint8_t now)
{
	unsigned mode;

	if (in->op != ISA_OP_S_SETREG_IMM32_B32)
		return (uint8_t)in->mods.simm16;
	if ((in->mods.simm16 & 0x3f) != 1) /* HW_REG_MODE */
		return now;
	mode = (unsigned)(in->literal >> 12) & 0xff;
	return (uint8_t)((mode >> 2) | (mode & 3) << 6);
}

int isa_decode(unsigned arch, const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
               struct isa_inst *out)
{
	const struct isa_arch_info *a = isa_arch_info(arch);
	struct isa_ctx c = {.buf = buf, .len = len, .off = off, .in = out};
	const struct isa_family *f;
	unsigned id;
	uint32_t w;
	int rc;

	if (!a || !buf || !out)
		return ISA_ERR_ARG;
	memset(out, 0, sizeof(*out));
	out->offset = (uint32_t)off;
	out->arch = (uint8_t)arch;
	if (off > len || len - off < 4) {
		out->size = 4;
		return ISA_ERR_TRUNCATED;
	}
	c.msb = st ? st->vgpr_msb : 0;
	w = isa_word(&c, 0);
	c.fmt = a->codec->classify(w);
	out->format = (uint8_t)c.fmt;
	if (c.fmt == ISA_FMT_NONE)
		return ISA_ERR_SIZE_UNKNOWN;
	f = &a->codec->families[c.fmt];
	c.base = f->base;
	out->size = f->base;
	if (!isa_have(&c, f->base))
		return ISA_ERR_TRUNCATED;
	out->raw_opcode = (uint16_t)isa_bits(w, f->op_hi, f->op_lo);
	/* VOPD and VOPD3 have no row of their own: their decoders find both halves' */
	id = row_id(arch, a->codec, c.fmt, out->raw_opcode);
	out->op = (uint16_t)id;
	if (id)
		isa_set_impl(out, &a->rows[id]);
	rc = isa_finish(&c, f->decode(&c, id ? &a->rows[id] : NULL), f->vector);
	if (rc != ISA_OK)
		return rc;
	if (out->op && (out->flags & ISA_F_MSB) && st)
		st->vgpr_msb = banks_after(out, st->vgpr_msb);
	return ISA_OK;
}

int isa_decode_gfx1250(const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
                       struct isa_inst *out)
{
	return isa_decode(ISA_ARCH_GFX1250, buf, len, off, st, out);
}

int isa_decode_gfx942(const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
                      struct isa_inst *out)
{
	return isa_decode(ISA_ARCH_GFX942, buf, len, off, st, out);
}

int isa_decode_gfx950(const uint8_t *buf, size_t len, size_t off, struct isa_state *st,
                      struct isa_inst *out)
{
	return isa_decode(ISA_ARCH_GFX950, buf, len, off, st, out);
}
