/* Record -> LLVM-style assembler text, for humans (tests/tools/isa_dump) and the oracle tests. */
#include "isa_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

static const char *const format_names[ISA_FMT_COUNT] = {
    [ISA_FMT_NONE] = "NONE",       [ISA_FMT_SOP1] = "SOP1",       [ISA_FMT_SOP2] = "SOP2",
    [ISA_FMT_SOPK] = "SOPK",       [ISA_FMT_SOPC] = "SOPC",       [ISA_FMT_SOPP] = "SOPP",
    [ISA_FMT_SMEM] = "SMEM",       [ISA_FMT_VOP1] = "VOP1",       [ISA_FMT_VOP2] = "VOP2",
    [ISA_FMT_VOPC] = "VOPC",       [ISA_FMT_VOP3] = "VOP3",       [ISA_FMT_VOP3P] = "VOP3P",
    [ISA_FMT_VOPD] = "VOPD",       [ISA_FMT_VOPD3] = "VOPD3",     [ISA_FMT_DS] = "DS",
    [ISA_FMT_VFLAT] = "VFLAT",     [ISA_FMT_VGLOBAL] = "VGLOBAL", [ISA_FMT_VSCRATCH] = "VSCRATCH",
    [ISA_FMT_VBUFFER] = "VBUFFER",
};

const char *isa_format_name(unsigned format)
{
	return format < ISA_FMT_COUNT ? format_names[format] : "?";
}

static const char *const oper_names[ISA_O_COUNT] = {
    [ISA_O_NONE] = "",
#define ISA_OPER(id, name) [ISA_O_##id] = name,
#include "isa_opers.def"
#undef ISA_OPER
};

const char *isa_oper_name(unsigned oper)
{
	return oper < ISA_O_COUNT ? oper_names[oper] : "?";
}

const char *isa_strerror(int status)
{
	switch (status) {
	case ISA_OK:
		return "ok";
	case ISA_ERR_TRUNCATED:
		return "instruction truncated by the end of the buffer";
	case ISA_ERR_SIZE_UNKNOWN:
		return "unknown instruction whose size the encoding does not fix";
	case ISA_ERR_ARG:
		return "invalid argument";
	}
	return "unknown status";
}

const char *isa_inst_mnemonic(const struct isa_inst *in)
{
	const struct isa_row *rows = isa_arch_rows(in->arch);
	const char *m = rows ? rows[in->op < ISA_OP_COUNT ? in->op : 0].mnemonic : NULL;
	return m ? m : "<unknown>";
}

/* A bounded appender: keeps counting past the end, like snprintf. */
struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL,
	              o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void reg_range(struct out *o, const char *file, unsigned first, unsigned width)
{
	if (width <= 1)
		put(o, "%s%u", file, first);
	else
		put(o, "%s[%u:%u]", file, first, first + width - 1);
}

/* LLVM's names of the special registers; the 64-bit name where a pair has one. */
static const struct special {
	uint16_t reg;
	const char *name, *name64;
} specials[] = {
    {ISA_REG_VCC_LO, "vcc_lo", "vcc"},
    {ISA_REG_VCC_HI, "vcc_hi", NULL},
    {ISA_REG_NULL, "null", NULL},
    {ISA_REG_M0, "m0", NULL},
    {ISA_REG_EXEC_LO, "exec_lo", "exec"},
    {ISA_REG_EXEC_HI, "exec_hi", NULL},
    {ISA_REG_FLAT_SCRATCH_BASE_LO, "src_flat_scratch_base_lo", NULL},
    {ISA_REG_FLAT_SCRATCH_BASE_HI, "src_flat_scratch_base_hi", NULL},
    {ISA_REG_SHARED_BASE, "src_shared_base", NULL},
    {ISA_REG_SHARED_LIMIT, "src_shared_limit", NULL},
    {ISA_REG_PRIVATE_BASE, "src_private_base", NULL},
    {ISA_REG_PRIVATE_LIMIT, "src_private_limit", NULL},
    {ISA_REG_POPS_EXITING_WAVE_ID, "src_pops_exiting_wave_id", NULL},
    {ISA_REG_VCCZ, "src_vccz", NULL},
    {ISA_REG_EXECZ, "src_execz", NULL},
    {ISA_REG_SCC, "src_scc", NULL},
    {ISA_REG_FLAT_SCRATCH_LO, "flat_scratch_lo", "flat_scratch"},
    {ISA_REG_FLAT_SCRATCH_HI, "flat_scratch_hi", NULL},
    {ISA_REG_XNACK_MASK_LO, "xnack_mask_lo", "xnack_mask"},
    {ISA_REG_XNACK_MASK_HI, "xnack_mask_hi", NULL},
    {ISA_REG_LDS_DIRECT, "src_lds_direct", NULL},
};

static const char *special_name(unsigned reg, unsigned width)
{
	for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		if (specials[i].reg == reg)
			return width == 2 && specials[i].name64 ? specials[i].name64
			                                        : specials[i].name;
	return NULL;
}

static void operand(struct out *o, const struct isa_operand *op)
{
	static const char *const floats[9] = {"0.5",  "-0.5", "1.0",  "-1.0",      "2.0",
	                                      "-2.0", "4.0",  "-4.0", "0.15915494"};
	const char *name;

	if (op->flags & ISA_OPF_NEG)
		put(o, "-");
	if (op->flags & ISA_OPF_ABS)
		put(o, "|");
	switch (op->kind) {
	case ISA_OPK_SGPR:
		reg_range(o, "s", op->reg, op->width);
		break;
	case ISA_OPK_VGPR:
		reg_range(o, "v", op->reg, op->width);
		break;
	case ISA_OPK_AGPR:
		reg_range(o, "a", op->reg, op->width);
		break;
	case ISA_OPK_TTMP:
		reg_range(o, "ttmp", op->reg, op->width);
		break;
	case ISA_OPK_SPECIAL:
		name = (op->flags & ISA_OPF_OFF) ? "off" : special_name(op->reg, op->width);
		if (name)
			put(o, "%s", name);
		else
			put(o, "src(%u)", op->reg);
		break;
	case ISA_OPK_INLINE:
		if (op->flags & ISA_OPF_FLOATINL)
			put(o, "%s", floats[op->reg - 240]);
		else
			put(o, "%" PRId64, op->imm);
		break;
	case ISA_OPK_LITERAL:
		put(o, "0x%" PRIx64, (uint64_t)op->imm);
		break;
	case ISA_OPK_IMM: /* decimal, so that only literals print in hex */
		put(o, "%" PRId64, op->imm);
		break;
	case ISA_OPK_LABEL:
		put(o, "label:0x%" PRIx64, (uint64_t)op->imm);
		break;
	}
	if (op->flags & ISA_OPF_ABS)
		put(o, "|");
}

static void operands(struct out *o, const struct isa_inst *in, unsigned from, unsigned to)
{
	bool first = true;

	for (unsigned i = from; i < to; i++) {
		if (in->ops[i].flags & ISA_OPF_TIED)
			continue;
		put(o, first ? " " : ", ");
		operand(o, &in->ops[i]);
		first = false;
	}
}

static bool is_memory(unsigned fmt)
{
	return fmt == ISA_FMT_DS || fmt == ISA_FMT_VFLAT || fmt == ISA_FMT_VGLOBAL ||
	       fmt == ISA_FMT_VSCRATCH || fmt == ISA_FMT_VBUFFER;
}

int isa_inst_format(const struct isa_inst *in, char *buf, size_t size)
{
	struct out o = {.buf = buf, .size = size};
	const struct isa_row *rows = isa_arch_rows(in->arch);
	const struct isa_row *r = rows ? &rows[in->op < ISA_OP_COUNT ? in->op : 0] : NULL;

	if (size)
		buf[0] = '\0';
	if (!in->op || !r || !r->mnemonic) {
		put(&o, "<unknown %s opcode 0x%x>", isa_format_name(in->format), in->raw_opcode);
		return (int)o.len;
	}
	if (in->format == ISA_FMT_VOPD || in->format == ISA_FMT_VOPD3) {
		const struct isa_row *y = &rows[in->op_y < ISA_OP_COUNT ? in->op_y : 0];
		/* v_bitop3_b32 is spelled bitop2 as a dual component. */
		put(&o, "v_dual_%s",
		    in->op == ISA_OP_V_BITOP3_B32 ? "bitop2_b32" : r->mnemonic + 2);
		operands(&o, in, 0, in->nops_x);
		put(&o, " :: v_dual_%s",
		    in->op_y == ISA_OP_V_BITOP3_B32 ? "bitop2_b32" : y->mnemonic + 2);
		operands(&o, in, in->nops_x, in->nops);
		return (int)o.len;
	}
	put(&o, "%s", r->mnemonic);
	if ((r->flags & ISA_F_E64) && !in->dpp && !in->sdwa)
		put(&o, in->format == ISA_FMT_VOP3 ? "_e64" : "_e32");
	if (in->sdwa)
		put(&o, "_sdwa");
	if (in->dpp)
		put(&o, in->format == ISA_FMT_VOP3 ? "_e64_dpp" : "_dpp");
	operands(&o, in, 0, in->nops);
	if (in->format == ISA_FMT_DS && (r->shape & ISA_S_2ADDR)) {
		if (in->mods.offset0)
			put(&o, " offset0:%u", in->mods.offset0);
		if (in->mods.offset1)
			put(&o, " offset1:%u", in->mods.offset1);
	} else if (in->format == ISA_FMT_DS && (r->shape & ISA_S_SWZ)) {
		put(&o, " offset:swizzle(%u)", (unsigned)in->mods.offset);
	} else if ((is_memory(in->format) || (in->format == ISA_FMT_SMEM && in->nops &&
	                                      in->ops[in->nops - 1].kind != ISA_OPK_IMM)) &&
	           in->mods.offset) {
		put(&o, " offset:%d", in->mods.offset);
	}
	if (in->mods.bitop3)
		put(&o, " bitop3:0x%x", in->mods.bitop3);
	if (in->mods.clamp)
		put(&o, " clamp");
	return (int)o.len;
}
