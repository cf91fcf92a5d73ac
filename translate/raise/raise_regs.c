/*
 * Register and operand access: every register as an alloca (SGPRs, VGPRs and AGPRs, TTMPs,
 * EXEC, VCC, SCC, M0), sources with inline constants, literals, apertures, SDWA selects and
 * float modifiers, destinations under this lane's EXEC bit, and lane predication.
 */
#include "raise_internal.h"

#include <stdio.h>

static LLVMValueRef slot(struct rz *r, LLVMValueRef *cell, LLVMTypeRef t, const char *name)
{
	if (!*cell) {
		*cell = LLVMBuildAlloca(r->A, t, name);
		LLVMBuildStore(r->A, LLVMConstNull(t), *cell);
	}
	return *cell;
}

LLVMValueRef rz_sgpr_slot(struct rz *r, unsigned i)
{
	char name[16];
	snprintf(name, sizeof(name), i == 106 ? "vcc_lo" : i == 107 ? "vcc_hi" : "s%u", i);
	return slot(r, &r->sgpr[i], r->i32, name);
}

LLVMValueRef rz_vgpr_slot(struct rz *r, unsigned reg)
{
	char name[16];
	snprintf(name, sizeof(name), "v%u", reg);
	return slot(r, &r->vgpr[reg], r->i32, name);
}

LLVMValueRef rz_ttmp_slot(struct rz *r, unsigned i)
{
	char name[16];
	snprintf(name, sizeof(name), "ttmp%u", i);
	return slot(r, &r->ttmp[i], r->i32, name);
}

/* A pair of 32-bit cells as one i64 (exec_lo:exec_hi, vcc_lo:vcc_hi on wave64). */
static LLVMValueRef load_pair(struct rz *r, LLVMValueRef lo, LLVMValueRef hi)
{
	LLVMValueRef l = LLVMBuildZExt(r->B, LLVMBuildLoad2(r->B, r->i32, lo, ""), r->i64, "");
	LLVMValueRef h = LLVMBuildZExt(r->B, LLVMBuildLoad2(r->B, r->i32, hi, ""), r->i64, "");
	return LLVMBuildOr(r->B, l, LLVMBuildShl(r->B, h, rz_const64(r, 32), ""), "");
}

LLVMValueRef rz_load_exec(struct rz *r)
{
	if (r->wave == 64)
		return load_pair(r, slot(r, &r->exec, r->i32, "exec"),
		                 slot(r, &r->exec_hi, r->i32, "exec_hi"));
	return LLVMBuildLoad2(r->B, r->i32, slot(r, &r->exec, r->i32, "exec"), "exec");
}

void rz_tag_pc(struct rz *r, LLVMValueRef inst)
{
	LLVMMetadataRef pc;
	if (!r->in)
		return;
	pc = LLVMValueAsMetadata(rz_const64(r, rz_pc(r)));
	LLVMSetMetadata(inst, LLVMGetMDKindIDInContext(r->C, "mirage.pc", 9),
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, &pc, 1)));
}

void rz_store_exec(struct rz *r, LLVMValueRef v)
{
	if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64) {
		rz_tag_pc(r, LLVMBuildStore(r->B, LLVMBuildTrunc(r->B, v, r->i32, ""),
		                            slot(r, &r->exec, r->i32, "exec")));
		if (r->wave == 64)
			rz_tag_pc(r, LLVMBuildStore(
			                 r->B,
			                 LLVMBuildTrunc(
			                     r->B, LLVMBuildLShr(r->B, v, rz_const64(r, 32), ""),
			                     r->i32, ""),
			                 slot(r, &r->exec_hi, r->i32, "exec_hi")));
	} else {
		rz_tag_pc(r, LLVMBuildStore(r->B, v, slot(r, &r->exec, r->i32, "exec")));
	}
	r->active = NULL;
}

/* VCC as a wave mask. */
LLVMValueRef rz_load_vcc(struct rz *r)
{
	if (r->wave == 64)
		return load_pair(r, rz_sgpr_slot(r, 106), rz_sgpr_slot(r, 107));
	return LLVMBuildLoad2(r->B, r->i32, rz_sgpr_slot(r, 106), "");
}

LLVMValueRef rz_load_scc(struct rz *r)
{
	return LLVMBuildLoad2(r->B, r->i1, slot(r, &r->scc, r->i1, "scc"), "scc");
}

void rz_store_scc(struct rz *r, LLVMValueRef i1)
{
	LLVMBuildStore(r->B, i1, slot(r, &r->scc, r->i1, "scc"));
}

LLVMValueRef rz_lane_bit(struct rz *r, LLVMValueRef m)
{
	LLVMValueRef lane = r->lane;
	if (LLVMGetIntTypeWidth(LLVMTypeOf(m)) == 64)
		lane = LLVMBuildZExt(r->B, lane, r->i64, "");
	return LLVMBuildTrunc(r->B, LLVMBuildLShr(r->B, m, lane, ""), r->i1, "");
}

LLVMValueRef rz_active(struct rz *r)
{
	if (!r->active)
		r->active = rz_lane_bit(r, rz_load_exec(r));
	return r->active;
}

LLVMValueRef rz_ballot(struct rz *r, LLVMValueRef pred, unsigned k)
{
	LLVMValueRef args[2] = {LLVMBuildAnd(r->B, pred, rz_active(r), ""),
	                        rz_const32(r, rz_pc(r) * 4 + k)};
	return rz_call(r, r->wave == 64 ? HOOK_BALLOT64 : HOOK_BALLOT, args, 2);
}

LLVMValueRef rz_readfirstlane(struct rz *r, LLVMValueRef v, unsigned k)
{
	LLVMValueRef exec = rz_load_exec(r), args[3];
	LLVMTypeRef t = LLVMTypeOf(exec);
	LLVMValueRef cz[2] = {exec, LLVMConstInt(r->i1, 1, 0)};

	if (r->wave == 32) { /* the wave32 hook, as the amdgcn binding maps it */
		args[0] = v;
		args[1] = exec;
		args[2] = rz_const32(r, rz_pc(r) * 4 + k);
		return rz_call(r, HOOK_READFIRSTLANE, args, 3);
	}
	/* wave64: readlane of the first set lane (cttz is uniform: EXEC is) */
	args[1] = LLVMBuildSelect(
	    r->B, LLVMBuildICmp(r->B, LLVMIntEQ, exec, LLVMConstNull(t), ""), rz_const32(r, 0),
	    LLVMBuildTrunc(r->B, rz_intrinsic(r, "llvm.cttz", &t, 1, cz, 2), r->i32, ""), "");
	args[0] = v;
	args[2] = rz_const32(r, rz_pc(r) * 4 + k);
	return rz_call(r, HOOK_READLANE, args, 3);
}

LLVMValueRef rz_mask_src(struct rz *r, const struct isa_operand *o)
{
	return rz_src(r, o, r->wave, 0);
}

LLVMValueRef rz_shuffle(struct rz *r, LLVMValueRef v, LLVMValueRef src_lane, unsigned k)
{
	LLVMValueRef args[3] = {v, src_lane, rz_const32(r, rz_pc(r) * 4 + k)};
	return rz_call(r, HOOK_READLANE, args, 3);
}

/* The 32-bit cell a scalar operand's dword k names, NULL for null/constants. */
static LLVMValueRef scalar_cell(struct rz *r, const struct isa_operand *o, unsigned k, int *bad)
{
	unsigned reg = o->reg + k;
	*bad = 0;
	switch (o->kind) {
	case ISA_OPK_SGPR:
		if (reg >= 106)
			break;
		return rz_sgpr_slot(r, reg);
	case ISA_OPK_TTMP:
		if (reg >= NTTMP)
			break;
		return rz_ttmp_slot(r, reg);
	case ISA_OPK_SPECIAL:
		switch (reg) {
		case ISA_REG_VCC_LO:
		case ISA_REG_VCC_HI:
			return rz_sgpr_slot(r, reg);
		case ISA_REG_EXEC_LO:
			return slot(r, &r->exec, r->i32, "exec");
		case ISA_REG_EXEC_HI:
			return slot(r, &r->exec_hi, r->i32, "exec_hi");
		case ISA_REG_M0:
			return slot(r, &r->m0, r->i32, "m0");
		case ISA_REG_NULL:
			return NULL;
		default:
			break;
		}
		break;
	default:
		break;
	}
	*bad = 1;
	return NULL;
}

static uint32_t f32_bits_to_f16(uint32_t b)
{
	/* The nine float inline constants are exact in f16. */
	switch (b) {
	case 0x3f000000:
		return 0x3800;
	case 0xbf000000:
		return 0xb800;
	case 0x3f800000:
		return 0x3c00;
	case 0xbf800000:
		return 0xbc00;
	case 0x40000000:
		return 0x4000;
	case 0xc0000000:
		return 0xc000;
	case 0x40800000:
		return 0x4400;
	case 0xc0800000:
		return 0xc400;
	case 0x3e22f983:
		return 0x3118;
	default:
		return 0;
	}
}

static uint64_t f32_bits_to_f64(uint32_t b)
{
	if (b == 0x3e22f983)
		return UINT64_C(0x3fc45f306dc9c882); /* 1/(2pi) as f64 */
	union {
		float f;
		uint32_t u;
	} x = {.u = b};
	union {
		double d;
		uint64_t u;
	} y = {.d = x.f};
	return y.u;
}

/*
 * The apertures: generic (flat) addresses of the lane's scratch and of the workgroup's LDS,
 * as constants the host runner recognises (mirage/raise.h RAISE_APERTURE_*).  A 32-bit read of
 * a base names its high dword, as the hardware's src_*_base do.
 */
static uint64_t aperture(unsigned reg, unsigned width)
{
	uint64_t v;
	switch (reg) {
	case ISA_REG_FLAT_SCRATCH_BASE_LO:
		return RAISE_APERTURE_PRIVATE;
	case ISA_REG_FLAT_SCRATCH_BASE_HI:
		return RAISE_APERTURE_PRIVATE >> 32;
	case ISA_REG_SHARED_BASE:
		v = RAISE_APERTURE_SHARED;
		break;
	case ISA_REG_SHARED_LIMIT:
		v = RAISE_APERTURE_SHARED + RAISE_APERTURE_SIZE - 1;
		break;
	case ISA_REG_PRIVATE_BASE:
		v = RAISE_APERTURE_PRIVATE;
		break;
	default:
		v = RAISE_APERTURE_PRIVATE + RAISE_APERTURE_SIZE - 1;
		break;
	}
	return width >= 2 ? v : v >> 32;
}

/*
 * The high dword of a 64-bit integer operand that has a 32-bit literal: 0, zero extension.
 * On gfx9 that is what LLVM encodes (s_mov_b64 s[0:1], 0xffffffff is the literal 0xffffffff
 * there, and MI300 code is built so); LLVM never encodes a negative 32-bit value as the literal
 * of a 64-bit operand there, whose signed operands the hardware would sign-extend.  On gfx12.5
 * LLVM never encodes a 32-bit literal with bit 31 set for a 64-bit operand at all (it has
 * 64-bit literals) and disassembles the SALU and VALU forms with different extensions, so
 * that form is refused there.
 */
static void lit32_high(struct rz *r, uint64_t lit)
{
	if ((lit & 0x80000000u) && r->arch == ISA_ARCH_GFX1250)
		rz_refuse(r, RAISE_UNSUPPORTED_FORM,
		          "the 32-bit literal 0x%x of a 64-bit integer operand has bit 31 set: its "
		          "extension to 64 bits is no rule we can check on gfx12.5",
		          (unsigned)lit);
}

LLVMValueRef rz_read32(struct rz *r, const struct isa_operand *o, unsigned k)
{
	LLVMValueRef cell;
	int bad;

	switch (o->kind) {
	case ISA_OPK_VGPR:
		if (r->gpr_idx_val && (cell = rz_gpr_idx_read(r, o, k)))
			return cell;
		return LLVMBuildLoad2(r->B, r->i32, rz_vgpr_slot(r, o->reg + k), "");
	case ISA_OPK_AGPR:
		return LLVMBuildLoad2(r->B, r->i32, rz_vgpr_slot(r, AGPR_SLOT0 + o->reg + k), "");
	case ISA_OPK_INLINE:
		if (o->flags & ISA_OPF_FLOATINL) {
			/* A 64-bit operand's float constant is the f64 value (see rz_read). */
			uint64_t v =
			    o->width == 2 ? f32_bits_to_f64((uint32_t)o->imm) : (uint32_t)o->imm;
			return rz_const32(r, k ? (o->width == 2 ? v >> 32 : 0) : (uint32_t)v);
		}
		if (k)
			return rz_const32(r, o->imm < 0 ? 0xffffffffu : 0);
		return rz_const32(r, (uint64_t)o->imm);
	case ISA_OPK_LITERAL:
		if (k && r->in->literal_size == 4)
			lit32_high(r, (uint64_t)o->imm);
		return rz_const32(r, k ? (uint64_t)o->imm >> 32 : (uint64_t)o->imm);
	case ISA_OPK_SPECIAL:
		if (o->reg >= ISA_REG_FLAT_SCRATCH_BASE_LO && o->reg <= ISA_REG_PRIVATE_LIMIT &&
		    o->reg != 232 && o->reg != 233 && o->reg != 234) {
			uint64_t v = aperture(o->reg, o->width);
			return rz_const32(r, k ? v >> 32 : v);
		}
		if (o->reg == ISA_REG_SCC)
			return LLVMBuildZExt(r->B, rz_load_scc(r), r->i32, "");
		if (o->reg == ISA_REG_EXECZ || o->reg == ISA_REG_VCCZ) {
			LLVMValueRef m = o->reg == ISA_REG_EXECZ ? rz_load_exec(r) : rz_load_vcc(r);
			return LLVMBuildZExt(
			    r->B,
			    LLVMBuildICmp(r->B, LLVMIntEQ, m, LLVMConstNull(LLVMTypeOf(m)), ""),
			    r->i32, "");
		}
		break;
	default:
		break;
	}
	cell = scalar_cell(r, o, k, &bad);
	if (bad) {
		rz_refuse(r, RAISE_UNSUPPORTED_REGISTER, "operand register %u (kind %u)", o->reg,
		          o->kind);
		return rz_const32(r, 0);
	}
	if (!cell)
		return rz_const32(r, 0);
	return LLVMBuildLoad2(r->B, r->i32, cell, "");
}

static LLVMValueRef fp_mods(struct rz *r, const struct isa_operand *o, LLVMValueRef v,
                            unsigned bits)
{
	LLVMTypeRef it = LLVMIntTypeInContext(r->C, bits);
	uint64_t sign = UINT64_C(1) << (bits - 1);
	rz_operand_mods_used(r, o, o->flags);
	if (o->flags & ISA_OPF_ABS)
		v = LLVMBuildAnd(r->B, v, LLVMConstInt(it, sign - 1, 0), "");
	if (o->flags & ISA_OPF_NEG)
		v = LLVMBuildXor(r->B, v, LLVMConstInt(it, sign, 0), "");
	return v;
}

/*
 * SDWA source select k (0 src0, 1 src1): BYTE_0..3 and WORD_0..1 extracted, zero- or (sext)
 * sign-extended; DWORD as is.
 */
static LLVMValueRef sdwa_select(struct rz *r, LLVMValueRef v, unsigned k)
{
	unsigned sel = k ? r->in->sdwa_src1_sel : r->in->sdwa_src0_sel;
	unsigned sext = r->in->sdwa_sext >> k & 1, shift, width;

	if (sel >= 6)
		return v;
	shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
	width = sel < 4 ? 8 : 16;
	v = LLVMBuildShl(r->B, v, rz_const32(r, 32 - shift - width), "");
	return sext ? LLVMBuildAShr(r->B, v, rz_const32(r, 32 - width), "")
	            : LLVMBuildLShr(r->B, v, rz_const32(r, 32 - width), "");
}

/* SDWA destination: the result's low byte/word into dst_sel, the rest padded with zeros,
 * sign-extended or preserved (dst_unused). */
static LLVMValueRef sdwa_place(struct rz *r, LLVMValueRef v, LLVMValueRef old)
{
	unsigned sel = r->in->sdwa_dst_sel, unused = r->in->sdwa_dst_unused, shift, width;
	uint32_t field;

	if (sel >= 6)
		return v;
	shift = sel < 4 ? 8 * sel : 16 * (sel - 4);
	width = sel < 4 ? 8 : 16;
	field = (uint32_t)(((UINT64_C(1) << width) - 1) << shift);
	v = LLVMBuildShl(r->B, v, rz_const32(r, 32 - width), "");
	if (unused == 1) { /* UNUSED_SEXT: the field's sign above it */
		v = LLVMBuildAShr(r->B, v, rz_const32(r, 32 - width - shift), "");
		return LLVMBuildAnd(r->B, v, rz_const32(r, ~((UINT64_C(1) << shift) - 1)), "");
	}
	v = LLVMBuildLShr(r->B, v, rz_const32(r, 32 - width - shift), "");
	if (unused == 2) /* UNUSED_PRESERVE */
		return LLVMBuildOr(r->B, v, LLVMBuildAnd(r->B, old, rz_const32(r, ~field), ""), "");
	return v; /* UNUSED_PAD */
}

LLVMValueRef rz_src(struct rz *r, const struct isa_operand *o, unsigned bits, unsigned fp)
{
	LLVMValueRef v;
	LLVMTypeRef it = LLVMIntTypeInContext(r->C, bits);

	if (!o) {
		rz_refuse(r, RAISE_UNSUPPORTED_FORM, "an operand the form lacks");
		return LLVMConstNull(it);
	}
	if (o == r->dpp_op && bits == 32) {
		v = r->dpp_val;
		return fp ? fp_mods(r, o, v, bits) : v;
	}
	if (o->kind == ISA_OPK_INLINE || o->kind == ISA_OPK_LITERAL) {
		uint64_t x = (uint64_t)o->imm;
		if (o->kind == ISA_OPK_INLINE && (o->flags & ISA_OPF_FLOATINL)) {
			/*
			 * The hardware widens a float inline constant to the operand's size, not to
			 * the opcode's type: a 64-bit operand gets the f64 value also in integer
			 * and bitwise ops (s_mov_b64 s[0:1], 1.0 is 0x3ff0000000000000; llvm-mc-22
			 * encodes that value as the inline 1.0 and 0x3f800000 only as a literal).
			 */
			if (fp == 64 || bits == 64)
				x = f32_bits_to_f64((uint32_t)x);
			else if (fp == 16)
				x = f32_bits_to_f16((uint32_t)x);
		} else if (o->kind == ISA_OPK_LITERAL && bits == 64 && r->in->literal_size == 4) {
			/* f64: the literal is the high dword, as the ISA says */
			if (fp != 64)
				lit32_high(r, x);
			x = fp == 64 ? (x & 0xffffffffu) << 32 : (x & 0xffffffffu);
		}
		v = LLVMConstInt(it, x, 0);
	} else if (bits == 64) {
		LLVMValueRef lo = LLVMBuildZExt(r->B, rz_read32(r, o, 0), r->i64, "");
		LLVMValueRef hi = LLVMBuildZExt(r->B, rz_read32(r, o, 1), r->i64, "");
		v = LLVMBuildOr(r->B, lo, LLVMBuildShl(r->B, hi, rz_const64(r, 32), ""), "");
	} else {
		v = rz_read32(r, o, 0);
		if (o == r->sdwa_src[0] || o == r->sdwa_src[1]) {
			unsigned k = o == r->sdwa_src[0] ? 0 : 1;
			v = sdwa_select(r, v, k);
			rz_mod_used(r, RZ_MOD_SDWA_SRC0 + k);
		}
		if (bits < 32)
			v = LLVMBuildTrunc(r->B, v, it, "");
	}
	if (fp)
		v = fp_mods(r, o, v, bits);
	return v;
}

void rz_write_vgpr_raw(struct rz *r, unsigned reg, LLVMValueRef v32)
{
	LLVMBuildStore(r->B, v32, rz_vgpr_slot(r, reg));
}

int rz_write32(struct rz *r, const struct isa_operand *o, unsigned k, LLVMValueRef v)
{
	LLVMValueRef cell;
	int bad;

	if (r->gpr_idx_val && o->kind == ISA_OPK_VGPR && (bad = rz_gpr_idx_write(r, o, k, v)) != 1)
		return bad;
	if (o->kind == ISA_OPK_VGPR || o->kind == ISA_OPK_AGPR) {
		LLVMValueRef p = rz_vgpr_slot(r, rz_vector_slot(o) + k);
		LLVMValueRef old = LLVMBuildLoad2(r->B, r->i32, p, "");
		if (o == r->sdwa_dst && k == 0) {
			v = sdwa_place(r, v, old);
			rz_mod_used(r, RZ_MOD_SDWA_DST);
		}
		LLVMBuildStore(r->B, LLVMBuildSelect(r->B, rz_active(r), v, old, ""), p);
		return 0;
	}
	cell = scalar_cell(r, o, k, &bad);
	if (bad)
		return rz_refuse(r, RAISE_UNSUPPORTED_REGISTER, "destination register %u", o->reg);
	if (cell && cell == r->exec)
		rz_store_exec(r, v);
	else if (cell)
		LLVMBuildStore(r->B, v, cell);
	if (o->kind == ISA_OPK_SPECIAL &&
	    (o->reg + k == ISA_REG_EXEC_LO || (r->wave == 64 && o->reg + k == ISA_REG_EXEC_HI)))
		r->active = NULL;
	return 0;
}

int rz_write(struct rz *r, const struct isa_operand *o, LLVMValueRef v)
{
	LLVMTypeRef t = LLVMTypeOf(v);
	unsigned bits = LLVMGetIntTypeWidth(t);
	if (bits < 32)
		return rz_write32(r, o, 0, LLVMBuildZExt(r->B, v, r->i32, ""));
	if (bits == 32)
		return rz_write32(r, o, 0, v);
	for (unsigned k = 0; k < bits / 32; k++) {
		LLVMValueRef part = LLVMBuildLShr(r->B, v, LLVMConstInt(t, 32 * k, 0), "");
		if (rz_write32(r, o, k, LLVMBuildTrunc(r->B, part, r->i32, "")))
			return -1;
	}
	return 0;
}

LLVMBasicBlockRef rz_pred_begin(struct rz *r)
{
	LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(r->C, r->F, "lane");
	LLVMBasicBlockRef join = LLVMAppendBasicBlockInContext(r->C, r->F, "join");
	LLVMValueRef br = LLVMBuildCondBr(r->B, rz_active(r), body, join);
	LLVMSetMetadata(br, r->md_lane_pred,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	LLVMPositionBuilderAtEnd(r->B, body);
	return join;
}

void rz_pred_end(struct rz *r, LLVMBasicBlockRef join)
{
	LLVMBuildBr(r->B, join);
	LLVMPositionBuilderAtEnd(r->B, join);
	r->active = NULL; /* computed in the body: not available after the join */
}
