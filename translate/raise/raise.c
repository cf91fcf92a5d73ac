/*
 * The raiser's driver: decoding the kernel's extent (and the helpers it calls), blocks,
 * registers as allocas, the entry state, scalar control flow, and the checks at the end.
 */
#include "raise_internal.h"

#include <llvm-c/Analysis.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *code, *text;
} reasons[] = {
#define RAISE_REASON(id, code, text) {code, text},
#include "mirage/raise_reasons.def"
#undef RAISE_REASON
};

const char *raise_reason_code(enum raise_reason r)
{
	return (unsigned)r < RAISE_REASON_COUNT ? reasons[r].code : "?";
}

const char *raise_reason_text(enum raise_reason r)
{
	return (unsigned)r < RAISE_REASON_COUNT ? reasons[r].text : "?";
}

int rz_refuse(struct rz *r, enum raise_reason reason, const char *fmt, ...)
{
	struct raise_refusal *w = r->why;
	va_list ap;

	if (r->refused)
		return -1;
	r->refused = true;
	memset(w, 0, sizeof(*w));
	snprintf(w->kernel, sizeof(w->kernel), "%s", r->k->name);
	w->reason = reason;
	w->offset = r->k->entry; /* entry-state refusals: the kernel's first instruction */
	if (r->in) {
		w->offset = r->co->text_addr + r->in->offset;
		snprintf(w->mnemonic, sizeof(w->mnemonic), "%s", isa_inst_mnemonic(r->in));
	}
	va_start(ap, fmt);
	vsnprintf(w->detail, sizeof(w->detail), fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- hooks and constants ---- */

static LLVMTypeRef type_of(struct rz *r, char t)
{
	switch (t) {
	case '1':
		return r->i1;
	case '3':
		return r->i32;
	case '6':
		return r->i64;
	case 'f':
		return r->f32;
	case 'd':
		return r->f64;
	case 'p':
		return r->ptr;
	default:
		return r->vd;
	}
}

/* The hook table's types as letters: V void, I1 '1', I32 '3', I64 '6', F32 'f', F64 'd', P. */
#define V                    "v"
#define I1                   "1"
#define I32                  "3"
#define I64                  "6"
#define F32                  "f"
#define F64                  "d"
#define P                    "p"
#define HA_(a, b, c, n, ...) n
#define HA3(a, b, c)         a b c
#define HA2(a, b)            a b
#define HA1(...)             "" __VA_ARGS__
#define HOOK_ARGS(...)       HA_(__VA_ARGS__, HA3, HA2, HA1, HA1)(__VA_ARGS__)
static const struct {
	const char *name, *ret, *args;
} hooks[] = {
#define RAISE_HOOK(id, name, ret, args, kind) {name, ret, HOOK_ARGS args},
#include "mirage/raise_hooks.def"
#undef RAISE_HOOK
};

static void declare_hooks(struct rz *r)
{
	for (unsigned h = 0; h < HOOK_COUNT; h++) {
		LLVMTypeRef params[4];
		unsigned n = 0;
		for (const char *a = hooks[h].args; *a; a++)
			params[n++] = type_of(r, *a);
		r->hook_ty[h] = LLVMFunctionType(type_of(r, hooks[h].ret[0]), params, n, 0);
		r->hook[h] = LLVMGetNamedFunction(r->M, hooks[h].name);
		if (!r->hook[h])
			r->hook[h] = LLVMAddFunction(r->M, hooks[h].name, r->hook_ty[h]);
	}
}

LLVMValueRef rz_call(struct rz *r, enum raise_hook h, LLVMValueRef *args, unsigned n)
{
	return LLVMBuildCall2(r->B, r->hook_ty[h], r->hook[h], args, n, "");
}

LLVMValueRef rz_const32(struct rz *r, uint64_t v)
{
	return LLVMConstInt(r->i32, v & 0xffffffffu, 0);
}

LLVMValueRef rz_const64(struct rz *r, uint64_t v)
{
	return LLVMConstInt(r->i64, v, 0);
}

LLVMValueRef rz_intrinsic(struct rz *r, const char *name, LLVMTypeRef *over, unsigned nover,
                          LLVMValueRef *args, unsigned nargs)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(r->M, id, over, nover);
	LLVMTypeRef t = LLVMIntrinsicGetType(r->C, id, over, nover);
	return LLVMBuildCall2(r->B, t, f, args, nargs, "");
}

/* ---- register storage ---- */

static LLVMValueRef slot(struct rz *r, LLVMValueRef *cell, LLVMTypeRef t, const char *name)
{
	if (!*cell) {
		*cell = LLVMBuildAlloca(r->A, t, name);
		LLVMBuildStore(r->A, LLVMConstNull(t), *cell);
	}
	return *cell;
}

static LLVMValueRef sgpr_slot(struct rz *r, unsigned i)
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

static LLVMValueRef ttmp_slot(struct rz *r, unsigned i)
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
static LLVMValueRef load_vcc(struct rz *r)
{
	if (r->wave == 64)
		return load_pair(r, sgpr_slot(r, 106), sgpr_slot(r, 107));
	return LLVMBuildLoad2(r->B, r->i32, sgpr_slot(r, 106), "");
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
		return sgpr_slot(r, reg);
	case ISA_OPK_TTMP:
		if (reg >= NTTMP)
			break;
		return ttmp_slot(r, reg);
	case ISA_OPK_SPECIAL:
		switch (reg) {
		case ISA_REG_VCC_LO:
		case ISA_REG_VCC_HI:
			return sgpr_slot(r, reg);
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
		if (k && !(o->flags & ISA_OPF_FLOATINL))
			return rz_const32(r, o->imm < 0 ? 0xffffffffu : 0);
		return rz_const32(r, k ? 0 : (uint64_t)o->imm);
	case ISA_OPK_LITERAL:
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
			LLVMValueRef m = o->reg == ISA_REG_EXECZ ? rz_load_exec(r) : load_vcc(r);
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
			if (fp == 64)
				x = f32_bits_to_f64((uint32_t)x);
			else if (fp == 16)
				x = f32_bits_to_f16((uint32_t)x);
		} else if (o->kind == ISA_OPK_LITERAL && bits == 64 && r->in->literal_size == 4) {
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

/* ---- decoding the extents ---- */

struct extent {
	uint64_t start, end; /* .text offsets */
	bool is_kernel;
	bool is_pool; /* a trampoline in the rewriter's pool, reached by a branch */
};

struct decoded {
	struct isa_inst *insts;
	size_t n, cap;
};

static int decode_extent(struct rz *r, const struct extent *e, struct decoded *d)
{
	struct isa_state st;
	const struct code_object *co = r->co;

	isa_state_reset(&st);
	for (uint64_t off = e->start; off < e->end;) {
		struct isa_inst *in;
		int rc;
		if (d->n == d->cap) {
			size_t cap = d->cap ? 2 * d->cap : 256;
			void *p = realloc(d->insts, cap * sizeof(*d->insts));
			if (!p)
				return rz_refuse(r, RAISE_DECODE, "out of memory");
			d->insts = p;
			d->cap = cap;
		}
		in = &d->insts[d->n];
		rc = isa_decode(r->arch, co->text, e->end, off, &st, in);
		r->in = in;
		if (rc != ISA_OK) {
			in->offset = (uint32_t)off;
			return rz_refuse(r, RAISE_DECODE, "%s", isa_strerror(rc));
		}
		if (in->op == ISA_OP_UNKNOWN)
			return rz_refuse(r, RAISE_UNKNOWN_INSTRUCTION, "format %s opcode 0x%x",
			                 isa_format_name(in->format), in->raw_opcode);
		d->n++;
		off += in->size;
		if (in->flags & ISA_F_TERM)
			isa_state_reset(&st);
	}
	r->in = NULL;
	return 0;
}

static LLVMBasicBlockRef block_at(struct rz *r, uint64_t off)
{
	if (off >= r->co->text_size || (off & 3))
		return NULL;
	if (!r->blocks[off / 4]) {
		char name[32];
		snprintf(name, sizeof(name), "b%llx", (unsigned long long)off);
		r->blocks[off / 4] = LLVMAppendBasicBlockInContext(r->C, r->F, name);
	}
	return r->blocks[off / 4];
}

static int label_of(const struct isa_inst *in, uint64_t *target)
{
	for (unsigned i = 0; i < in->nops; i++)
		if (in->ops[i].kind == ISA_OPK_LABEL) {
			*target = (uint64_t)in->ops[i].imm;
			return 0;
		}
	return -1;
}

/*
 * Where a direct branch goes (a .text offset): its label, or for s_add_pc_i64 of a constant
 * the next instruction plus the constant (PC-relative from the end of the instruction, as
 * LLVM's branch relaxation emits it: the offset is target - the label after it).  -1 for
 * anything else, s_add_pc_i64 of a register included.
 */
static int branch_target(const struct isa_inst *in, uint64_t *target)
{
	const struct isa_operand *o = &in->ops[0];
	int64_t d;

	if (in->flags & (ISA_F_BRANCH | ISA_F_CONDBR))
		return label_of(in, target);
	if (in->op != ISA_OP_S_ADD_PC_I64 || !in->nops ||
	    (o->kind != ISA_OPK_INLINE && o->kind != ISA_OPK_LITERAL))
		return -1;
	d = o->kind == ISA_OPK_LITERAL && in->literal_size == 4 ? (int32_t)o->imm : o->imm;
	*target = in->offset + in->size + (uint64_t)d;
	return 0;
}

/* The decoded instruction at .text offset off, or NULL. */
static const struct isa_inst *inst_at(const struct decoded *d, uint64_t off)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->insts[i].offset == off)
			return &d->insts[i];
	return NULL;
}

/*
 * The gfx1250 far jump mirage's B0->A0 pass writes (docs/rewriter.md), from its s_get_pc_i64
 * g: s_add_nc_u64 s[p:p+1], s[p:p+1], K; s_set_pc_i64 s[p:p+1], either right after g or after
 * g's s_branch to them (a gateway).  The target is the end of g plus K (a 32-bit literal zero-
 * extended, as the raised add reads it).  0 and the .text offset, or -1.
 */
static int far_jump_target(const struct decoded *d, const struct isa_inst *g, uint64_t *target)
{
	const struct isa_inst *add = inst_at(d, g->offset + g->size), *set;
	const struct isa_operand *p = &g->ops[0], *k;
	uint64_t t;

	if (add && add->op == ISA_OP_S_BRANCH && !label_of(add, &t))
		add = inst_at(d, t);
	if (!add || add->op != ISA_OP_S_ADD_NC_U64 || add->nops < 3 ||
	    !(set = inst_at(d, add->offset + add->size)) || set->op != ISA_OP_S_SET_PC_I64 ||
	    set->nops < 1)
		return -1;
	k = &add->ops[2];
	if (add->ops[0].kind != ISA_OPK_SGPR || add->ops[0].reg != p->reg ||
	    add->ops[1].kind != ISA_OPK_SGPR || add->ops[1].reg != p->reg ||
	    set->ops[0].kind != ISA_OPK_SGPR || set->ops[0].reg != p->reg ||
	    (k->kind != ISA_OPK_INLINE && k->kind != ISA_OPK_LITERAL))
		return -1;
	*target = g->offset + g->size +
	          (k->kind == ISA_OPK_LITERAL && add->literal_size == 4 ? (uint64_t)(uint32_t)k->imm
	                                                                : (uint64_t)k->imm);
	return 0;
}

/*
 * The target of a long branch as LLVM's branch relaxation writes it on GFX9, starting at
 * insts[i]: s_getpc_b64 s[p:p+1]; s_add_u32 sp, sp, lo; s_addc_u32 sp+1, sp+1, hi;
 * s_setpc_b64 s[p:p+1] (lo and hi constants: the target minus the end of the s_getpc), or the
 * gfx1250 far jump above.  0 and the .text offset, or -1 when the instructions are anything else.
 */
static int long_branch_target(const struct decoded *d, size_t i, uint64_t *target)
{
	const struct isa_inst *g = &d->insts[i], *lo, *hi, *set;
	const struct isa_operand *p;

	if (g->op != ISA_OP_S_GET_PC_I64 || g->nops < 1 || g->ops[0].kind != ISA_OPK_SGPR)
		return -1;
	if (!far_jump_target(d, g, target))
		return 0;
	if (i + 3 >= d->n)
		return -1;
	lo = &d->insts[i + 1], hi = &d->insts[i + 2], set = &d->insts[i + 3];
	p = &g->ops[0];
	if (lo->op != ISA_OP_S_ADD_CO_U32 || hi->op != ISA_OP_S_ADD_CO_CI_U32 ||
	    set->op != ISA_OP_S_SET_PC_I64 || lo->nops < 3 || hi->nops < 3 || set->nops < 1)
		return -1;
	for (unsigned k = 0; k < 2; k++) {
		const struct isa_inst *half = k ? hi : lo;
		const struct isa_operand *c = &half->ops[2];
		if (half->ops[0].kind != ISA_OPK_SGPR || half->ops[0].reg != p->reg + k ||
		    half->ops[1].kind != ISA_OPK_SGPR || half->ops[1].reg != p->reg + k ||
		    (c->kind != ISA_OPK_INLINE && c->kind != ISA_OPK_LITERAL))
			return -1;
	}
	if (p->kind != ISA_OPK_SGPR || set->ops[0].kind != ISA_OPK_SGPR ||
	    set->ops[0].reg != p->reg)
		return -1;
	*target = g->offset + g->size +
	          ((uint64_t)(uint32_t)hi->ops[2].imm << 32 | (uint32_t)lo->ops[2].imm);
	return 0;
}

/* ---- entry state ---- */

/*
 * The user SGPRs, in descriptor order (the same bits on gfx12.5 and gfx9.4): kernarg,
 * dispatch and queue pointers, a dispatch id of 0, preloaded kernargs reloaded from the
 * segment; returns the next SGPR, or -1 refused.
 */
static int seed_user_sgprs(struct rz *r, unsigned user_count)
{
	enum {
		REFUSE = -1,
		DISPATCH_ID = -2
	};
	unsigned s = 0;
	static const struct {
		const char *field; /* kernel_code_properties (codeobj/kd.h) */
		unsigned width;
		int hook; /* the pointer it holds, DISPATCH_ID or REFUSE */
		const char *what;
	} user[] = {{"enable_sgpr_private_segment_buffer", 4, REFUSE, "private segment buffer"},
	            {"enable_sgpr_dispatch_ptr", 2, HOOK_DISPATCH, "dispatch ptr"},
	            {"enable_sgpr_queue_ptr", 2, HOOK_QUEUE, "queue ptr"},
	            {"enable_sgpr_kernarg_segment_ptr", 2, HOOK_KERNARG, "kernarg segment ptr"},
	            {"enable_sgpr_dispatch_id", 2, DISPATCH_ID, "dispatch id"},
	            {"enable_sgpr_flat_scratch_init", 2, REFUSE, "flat scratch init"},
	            {"enable_sgpr_private_segment_size", 1, REFUSE, "private segment size"}};

	for (unsigned i = 0; i < sizeof(user) / sizeof(user[0]); i++) {
		if (!co_kd(r->k, user[i].field))
			continue;
		if (user[i].hook == DISPATCH_ID) { /* one dispatch, number 0 */
			LLVMBuildStore(r->B, rz_const32(r, 0), sgpr_slot(r, s));
			LLVMBuildStore(r->B, rz_const32(r, 0), sgpr_slot(r, s + 1));
			s += 2;
			continue;
		}
		if (user[i].hook == REFUSE)
			return rz_refuse(r, RAISE_ENTRY_SGPR, "the descriptor enables the %s",
			                 user[i].what);
		{
			LLVMValueRef p = rz_call(r, (enum raise_hook)user[i].hook, NULL, 0);
			LLVMBuildStore(r->B, LLVMBuildTrunc(r->B, p, r->i32, ""), sgpr_slot(r, s));
			LLVMBuildStore(r->B,
			               LLVMBuildTrunc(r->B,
			                              LLVMBuildLShr(r->B, p, rz_const64(r, 32), ""),
			                              r->i32, ""),
			               sgpr_slot(r, s + 1));
		}
		s += user[i].width;
	}
	/* Preloaded kernarg SGPRs are reloaded from the kernarg segment at their offsets. */
	{
		unsigned len = co_kd(r->k, "kernarg_preload_spec_length"),
		         from = co_kd(r->k, "kernarg_preload_spec_offset");
		for (unsigned i = 0; i < len; i++) {
			LLVMValueRef base = rz_call(r, HOOK_KERNARG, NULL, 0);
			LLVMValueRef a[3] = {
			    LLVMBuildAdd(r->B, base, rz_const64(r, 4u * (from + i)), ""),
			    rz_const32(r, 4), rz_const32(r, 0)};
			LLVMValueRef p = rz_call(r, HOOK_SMEM, a, 3);
			LLVMBuildStore(r->B, LLVMBuildLoad2(r->B, r->i32, p, ""),
			               sgpr_slot(r, s + i));
		}
		s += len;
	}
	if (s != user_count)
		return rz_refuse(r, RAISE_USER_SGPR_LAYOUT,
		                 "RSRC2 USER_SGPR_COUNT is %u, the enabled user SGPRs need %u",
		                 user_count, s);
	return (int)s;
}

/*
 * gfx12.5: the user SGPRs (RSRC2 USER_SGPR_COUNT is bits [6:1]); the workgroup ids in
 * ttmp9 (x) and ttmp7 (y | z << 16); v0 the packed workitem id.
 */
static int seed_gfx1250(struct rz *r)
{
	LLVMValueRef args[1], y, z;

	if (!co_kd(r->k, "enable_wavefront_size32") ||
	    (r->k->wavefront_size && r->k->wavefront_size != 32))
		return rz_refuse(r, RAISE_WAVE64, "the descriptor does not enable wave32");
	if (seed_user_sgprs(r, co_kd(r->k, "user_sgpr_count")) < 0)
		return -1;
	args[0] = rz_const32(r, 0);
	LLVMBuildStore(r->B, rz_call(r, HOOK_WG_ID, args, 1), ttmp_slot(r, 9));
	args[0] = rz_const32(r, 1);
	y = rz_call(r, HOOK_WG_ID, args, 1);
	args[0] = rz_const32(r, 2);
	z = rz_call(r, HOOK_WG_ID, args, 1);
	LLVMBuildStore(r->B,
	               LLVMBuildOr(r->B, LLVMBuildAnd(r->B, y, rz_const32(r, 0xffff), ""),
	                           LLVMBuildShl(r->B, z, rz_const32(r, 16), ""), ""),
	               ttmp_slot(r, 7));
	return 0;
}

/*
 * gfx9.4 (gfx942/gfx950, wave64, architected flat scratch): the user SGPRs (USER_SGPR_COUNT
 * is bits [5:1]), then one SGPR per workgroup id RSRC2 TGID_{X,Y,Z}_EN (bits 7..9) enables,
 * then the private segment wave offset when ENABLE_PRIVATE_SEGMENT (bit 0) is set: 0, since
 * scratch instructions address the lane's own window (flat scratch is the hardware's).
 * Workitem ids are packed into v0 (x | y << 10 | z << 20) on gfx90a and later.
 */
static int seed_gfx942(struct rz *r)
{
	static const char *const wg_id[3] = {"enable_sgpr_workgroup_id_x",
	                                     "enable_sgpr_workgroup_id_y",
	                                     "enable_sgpr_workgroup_id_z"};
	int s;

	if (co_kd(r->k, "enable_wavefront_size32") ||
	    (r->k->wavefront_size && r->k->wavefront_size != 64))
		return rz_refuse(r, RAISE_WAVE64, "a gfx9.4 descriptor that is not wave64");
	if (co_kd(r->k, "enable_sgpr_workgroup_info"))
		return rz_refuse(r, RAISE_ENTRY_SGPR,
		                 "RSRC2 enables the workgroup info SGPR (TG_SIZE_EN)");
	s = seed_user_sgprs(r, co_kd(r->k, "user_sgpr_count"));
	if (s < 0)
		return -1;
	for (unsigned d = 0; d < 3; d++)
		if (co_kd(r->k, wg_id[d])) {
			LLVMValueRef arg = rz_const32(r, d);
			LLVMBuildStore(r->B, rz_call(r, HOOK_WG_ID, &arg, 1), sgpr_slot(r, s++));
		}
	if (co_kd(r->k, "enable_private_segment"))
		LLVMBuildStore(r->B, rz_const32(r, 0), sgpr_slot(r, s++));
	return 0;
}

static int seed_entry(struct rz *r)
{
	if (r->k->has_cluster_dims)
		return rz_refuse(r, RAISE_CLUSTER, ".cluster_dims is set");
	if (r->arch == ISA_ARCH_GFX1250 ? seed_gfx1250(r) : seed_gfx942(r))
		return -1;
	rz_write_vgpr_raw(r, 0, rz_call(r, HOOK_PACKED_TID, NULL, 0));
	rz_store_exec(r, rz_call(r, r->wave == 64 ? HOOK_ENTRY_EXEC64 : HOOK_ENTRY_EXEC, NULL, 0));
	return 0;
}

/* ---- scalar control flow ---- */

static LLVMValueRef uniform_br(struct rz *r, LLVMValueRef cond, LLVMBasicBlockRef t,
                               LLVMBasicBlockRef f)
{
	LLVMValueRef br = LLVMBuildCondBr(r->B, cond, t, f);
	LLVMSetMetadata(br, r->md_uniform,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	return br;
}

/* Ends the block with a switch over the known code addresses in pc (i64). */
static void pc_switch(struct rz *r, LLVMValueRef pc, const uint64_t *targets, size_t n)
{
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(r->C, r->F, "bad_pc");
	LLVMValueRef sw = LLVMBuildSwitch(r->B, pc, bad, (unsigned)n);
	LLVMValueRef a[2];

	LLVMSetMetadata(sw, r->md_uniform,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	for (size_t i = 0; i < n; i++) {
		LLVMBasicBlockRef b = block_at(r, targets[i] - r->co->text_addr);
		if (b)
			LLVMAddCase(sw, rz_const64(r, targets[i]), b);
	}
	LLVMPositionBuilderAtEnd(r->B, bad);
	a[0] = rz_const32(r, RAISE_INDIRECT_BRANCH);
	a[1] = rz_const32(r, rz_pc(r));
	rz_call(r, HOOK_FAULT, a, 2);
	LLVMBuildRetVoid(r->B);
}

static LLVMValueRef src64(struct rz *r, const struct isa_operand *o)
{
	return rz_src(r, o, 64, 0);
}

/* SOPP, branches, calls, barriers, waits: returns 0 raised, -1 refused, 1 not control. */
static int control(struct rz *r, const struct isa_inst *in, const uint64_t *funcs, size_t nfuncs,
                   const uint64_t *all_targets, size_t ntargets)
{
	uint64_t next = in->offset + in->size, target = 0;
	LLVMBasicBlockRef fall = NULL;
	LLVMValueRef a[2], cond;

	switch (in->op) {
	case ISA_OP_S_NOP:
	case ISA_OP_S_CLAUSE:
	case ISA_OP_S_DELAY_ALU:
	case ISA_OP_S_WAIT_ALU:
	case ISA_OP_S_CODE_END:
	case ISA_OP_S_SET_VGPR_MSB:
	case ISA_OP_S_WAIT_XCNT:
	case ISA_OP_S_WAIT_TENSORCNT:
	case ISA_OP_S_SETPRIO:
	case ISA_OP_S_SLEEP:
	case ISA_OP_S_ICACHE_INV:
	case ISA_OP_S_PREFETCH_DATA:
	case ISA_OP_GLOBAL_PREFETCH_B8:
	case ISA_OP_FLAT_PREFETCH_B8:
	case ISA_OP_V_NOP:
		return 0;
	case ISA_OP_S_WAIT_LOADCNT:
	case ISA_OP_S_WAIT_STORECNT:
	case ISA_OP_S_WAIT_DSCNT:
	case ISA_OP_S_WAIT_KMCNT:
	case ISA_OP_S_WAIT_LOADCNT_DSCNT:
	case ISA_OP_S_WAIT_STORECNT_DSCNT:
	case ISA_OP_S_WAIT_IDLE:
	case ISA_OP_S_WAITCNT:   /* GFX9: one wait for every counter */
	case ISA_OP_BUFFER_WBL2: /* GFX9 cache write-back / invalidate of a release/acquire */
	case ISA_OP_BUFFER_INV:
	case ISA_OP_S_DCACHE_WB:
	case ISA_OP_S_WAIT_ASYNCCNT: /* the async LDS copies (raise_mem.c) */
		rz_call(r, HOOK_FENCE, NULL, 0);
		return 0;
	case ISA_OP_S_BARRIER: /* GFX9: the whole barrier in one instruction */
		a[0] = rz_const32(r, rz_pc(r) * 4);
		rz_call(r, HOOK_BARRIER, a, 1);
		return 0;
	case ISA_OP_S_SENDMSG:
		/* MSG_DEALLOC_VGPRS (3) is dropped; the rest talks to hardware. */
		if ((in->mods.simm16 & 0xff) == 3)
			return 0;
		return rz_refuse(r, RAISE_SENDMSG, "message 0x%x", in->mods.simm16);
	case ISA_OP_S_BARRIER_SIGNAL:
	case ISA_OP_S_BARRIER_SIGNAL_ISFIRST:
		if (in->nops < 1 || in->ops[0].kind != ISA_OPK_INLINE || in->ops[0].imm != -1)
			return rz_refuse(r, RAISE_BARRIER, "a named barrier (only -1 is raised)");
		if (in->op == ISA_OP_S_BARRIER_SIGNAL)
			return 0;
		/* SCC = 1 for the first wave of the workgroup to signal (the runner decides) */
		a[0] = rz_const32(r, rz_pc(r) * 4);
		rz_store_scc(r,
		             LLVMBuildICmp(r->B, LLVMIntNE, rz_call(r, HOOK_BARRIER_ISFIRST, a, 1),
		                           rz_const32(r, 0), ""));
		return 0;
	case ISA_OP_S_BARRIER_WAIT: /* barrier_pairs() proved a signal precedes it on every path */
		a[0] = rz_const32(r, rz_pc(r) * 4);
		rz_call(r, HOOK_BARRIER, a, 1);
		return 0;
	case ISA_OP_S_ENDPGM:
		LLVMBuildRetVoid(r->B);
		return 0;
	case ISA_OP_S_TRAP:
		a[0] = rz_const32(r, 0);
		a[1] = rz_const32(r, rz_pc(r));
		rz_call(r, HOOK_FAULT, a, 2);
		LLVMBuildRetVoid(r->B);
		return 0;
	case ISA_OP_S_BRANCH:
		label_of(in, &target);
		LLVMBuildBr(r->B, block_at(r, target));
		return 0;
	case ISA_OP_S_CBRANCH_SCC0:
	case ISA_OP_S_CBRANCH_SCC1:
	case ISA_OP_S_CBRANCH_VCCZ:
	case ISA_OP_S_CBRANCH_VCCNZ:
	case ISA_OP_S_CBRANCH_EXECZ:
	case ISA_OP_S_CBRANCH_EXECNZ:
		label_of(in, &target);
		fall = block_at(r, next);
		if (in->op == ISA_OP_S_CBRANCH_SCC0 || in->op == ISA_OP_S_CBRANCH_SCC1) {
			cond = rz_load_scc(r);
			if (in->op == ISA_OP_S_CBRANCH_SCC0)
				cond = LLVMBuildNot(r->B, cond, "");
		} else {
			LLVMValueRef m =
			    in->op == ISA_OP_S_CBRANCH_EXECZ || in->op == ISA_OP_S_CBRANCH_EXECNZ
			        ? rz_load_exec(r)
			        : load_vcc(r);
			bool z =
			    in->op == ISA_OP_S_CBRANCH_EXECZ || in->op == ISA_OP_S_CBRANCH_VCCZ;
			cond = LLVMBuildICmp(r->B, z ? LLVMIntEQ : LLVMIntNE, m,
			                     LLVMConstNull(LLVMTypeOf(m)), "");
		}
		if (!fall)
			return rz_refuse(r, RAISE_UNTERMINATED, "a conditional branch at the end");
		uniform_br(r, cond, block_at(r, target), fall);
		return 0;
	case ISA_OP_S_ADD_PC_I64: /* raise_one() refused it unless branch_target() knows where */
		branch_target(in, &target);
		LLVMBuildBr(r->B, block_at(r, target));
		return 0;
	case ISA_OP_S_GET_PC_I64:
		return rz_write(r, &in->ops[0], rz_const64(r, r->co->text_addr + next));
	case ISA_OP_S_CALL_I64:
		label_of(in, &target);
		if (rz_write(r, &in->ops[0], rz_const64(r, r->co->text_addr + next)))
			return -1;
		LLVMBuildBr(r->B, block_at(r, target));
		return 0;
	case ISA_OP_S_SWAP_PC_I64: {
		LLVMValueRef dst = src64(r, &in->ops[1]);
		if (rz_write(r, &in->ops[0], rz_const64(r, r->co->text_addr + next)))
			return -1;
		pc_switch(r, dst, funcs, nfuncs);
		return 0;
	}
	case ISA_OP_S_SET_PC_I64:
		pc_switch(r, src64(r, &in->ops[0]), all_targets, ntargets);
		return 0;
	case ISA_OP_S_SETREG_IMM32_B32: {
		unsigned id = in->mods.simm16 & 0x3f, offset = (in->mods.simm16 >> 6) & 0x1f,
		         size = ((in->mods.simm16 >> 11) & 0x1f) + 1;
		/* The prologue every clang-22 / ROCm gfx1250 kernel begins with. */
		if ((id == 1 && offset == 25 && size == 1) || id == 26)
			return 0;
		/* MODE[3:0] rounding (0 = nearest even) and [7:4] denormals (all 1 = kept): a write
		 * that sets them to what the raised code already assumes changes nothing. */
		if (id == 1 && offset + size <= 8) {
			uint32_t want = 0xf0, mask = ((1u << size) - 1) << offset;
			if (((uint32_t)in->literal << offset & mask) == (want & mask))
				return 0;
		}
		return rz_refuse(r, RAISE_MODE, "hwreg %u bits [%u:%u]", id, offset + size - 1,
		                 offset);
	}
	case ISA_OP_S_SETREG_B32:
		return rz_refuse(r, RAISE_MODE, "a MODE write from a register");
	default:
		return 1;
	}
}

/* ---- split barriers ---- */

/*
 * Every s_barrier_wait must follow an s_barrier_signal on every path, with no second signal
 * and no return or call in between: a forward dataflow of "signalled, not yet waited" over
 * the instructions (-1 unknown, 0 clear, 1 pending).  The wait is then the one barrier hook
 * and the signal is dropped.
 */
static int flow_to(struct rz *r, signed char *state, size_t j, int out, const struct decoded *d,
                   bool *changed)
{
	if (state[j] == -1) {
		state[j] = (signed char)out;
		*changed = true;
	} else if (state[j] != out) {
		r->in = &d->insts[j];
		return rz_refuse(r, RAISE_BARRIER,
		                 "paths with and without a signalled barrier meet");
	}
	return 0;
}

static int barrier_pairs(struct rz *r, const struct decoded *d, const struct extent *ext,
                         size_t next)
{
	signed char *state = malloc(d->n + 1);
	bool changed = true;
	int rc = 0;

	if (!state)
		return rz_refuse(r, RAISE_BARRIER, "out of memory");
	memset(state, -1, d->n + 1);
	for (size_t i = 0; i < d->n; i++)
		for (size_t e = 0; e < next; e++)
			if (d->insts[i].offset == ext[e].start && !ext[e].is_pool)
				state[i] = 0;
	while (changed && !rc) {
		changed = false;
		for (size_t i = 0; i < d->n && !rc; i++) {
			const struct isa_inst *in = &d->insts[i];
			int st = state[i], out;
			uint64_t t;
			if (st < 0)
				continue;
			r->in = in;
			out = st;
			if (in->op == ISA_OP_S_BARRIER_SIGNAL ||
			    in->op == ISA_OP_S_BARRIER_SIGNAL_ISFIRST) {
				if (st)
					rc = rz_refuse(r, RAISE_BARRIER,
					               "a second signal before the wait");
				out = 1;
			} else if (in->op == ISA_OP_S_BARRIER_WAIT) {
				if (!st)
					rc = rz_refuse(r, RAISE_BARRIER,
					               "s_barrier_wait without its signal");
				out = 0;
			} else if (st && (in->flags & (ISA_F_CALL | ISA_F_TERM)) &&
			           in->op != ISA_OP_S_BRANCH && branch_target(in, &t)) {
				rc = rz_refuse(r, RAISE_BARRIER,
				               "a signalled barrier is not waited for before this");
			}
			if (!rc && !branch_target(in, &t))
				for (size_t j = 0; j < d->n && !rc; j++)
					if (d->insts[j].offset == t)
						rc = flow_to(r, state, j, out, d, &changed);
			if (!rc && !(in->flags & ISA_F_TERM) && in->op != ISA_OP_S_TRAP &&
			    i + 1 < d->n && d->insts[i + 1].offset == in->offset + in->size)
				rc = flow_to(r, state, i + 1, out, d, &changed);
		}
	}
	free(state);
	if (!rc)
		r->in = NULL;
	return rc;
}

/* ---- one kernel ---- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static bool is_kernel_func(const struct code_object *co, const char *name)
{
	for (size_t i = 0; i < co->nkernels; i++)
		if (!strcmp(co->kernels[i].name, name))
			return true;
	return false;
}

static bool in_extents(const struct extent *ext, size_t next, uint64_t off)
{
	for (size_t e = 0; e < next; e++)
		if (off >= ext[e].start && off < ext[e].end)
			return true;
	return false;
}

/* Where the trampoline at pool offset t ends: after its first terminator (the s_branch back). */
static uint64_t trampoline_end(const struct code_object *co, unsigned arch, uint64_t t)
{
	struct isa_state st;
	struct isa_inst in;

	isa_state_reset(&st);
	for (uint64_t off = t; off < co->pool_end;) {
		if (isa_decode(arch, co->text, co->pool_end, off, &st, &in) != ISA_OK ||
		    in.op == ISA_OP_UNKNOWN)
			return off + 4 <= co->pool_end ? off + 4
			                               : co->pool_end; /* decode_extent says why */
		off += in.size;
		if (in.flags & ISA_F_TERM)
			return off;
	}
	return co->pool_end;
}

/*
 * The rewriter's trampolines (docs/rewriter.md): a branch from decoded code into the pool
 * decodes the trampoline there, up to its branch back, as one more extent (and so on for
 * what that extent branches to).
 */
static int follow_pool(struct rz *r, struct extent **ext, size_t *next, size_t *cap,
                       struct decoded *d)
{
	const struct code_object *co = r->co;

	for (size_t i = 0; i < d->n; i++) {
		uint64_t t;
		if ((branch_target(&d->insts[i], &t) && long_branch_target(d, i, &t)) ||
		    t < co->pool_start || t >= co->pool_end || in_extents(*ext, *next, t))
			continue;
		if (*next == *cap) {
			void *p = realloc(*ext, 2 * *cap * sizeof(**ext));
			if (!p)
				return rz_refuse(r, RAISE_DECODE, "out of memory");
			*ext = p;
			*cap *= 2;
		}
		(*ext)[*next] = (struct extent){t, trampoline_end(co, r->arch, t), false, true};
		if (decode_extent(r, &(*ext)[*next], d))
			return -1;
		(*next)++;
	}
	return 0;
}

static int raise_one(struct rz *r, struct decoded *d, struct extent *ext, size_t next,
                     struct raise_result *res)
{
	uint64_t *funcs = NULL, *targets = NULL;
	size_t nfuncs = 0, ntargets = 0;
	LLVMBasicBlockRef entry, seed;
	bool open_block = false;
	int rc = -1;

	/* Leaders: extent starts, branch targets, what follows a branch, call or terminator. */
	funcs = calloc(next + 1, sizeof(*funcs));
	targets = calloc(next + d->n + 1, sizeof(*targets));
	if (!funcs || !targets)
		goto out;
	for (size_t e = 0; e < next; e++) {
		block_at(r, ext[e].start);
		if (!ext[e].is_kernel && !ext[e].is_pool)
			funcs[nfuncs++] = r->co->text_addr + ext[e].start;
		targets[ntargets++] = r->co->text_addr + ext[e].start;
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct isa_inst *in = &d->insts[i];
		uint64_t t;
		r->in = in;
		if (in->op == ISA_OP_S_ADD_PC_I64 && branch_target(in, &t)) {
			rz_refuse(r, RAISE_INDIRECT_BRANCH,
			          "s_add_pc_i64 of a register: the target is not known");
			goto out;
		}
		if ((in->flags & (ISA_F_BRANCH | ISA_F_CONDBR)) || in->op == ISA_OP_S_ADD_PC_I64) {
			if (branch_target(in, &t) || !block_at(r, t)) {
				rz_refuse(r, RAISE_INDIRECT_BRANCH,
				          "the branch target is outside .text");
				goto out;
			}
			if (!in_extents(ext, next, t)) {
				/* code no function symbol covers (a patch pool, data) is never
				 * decoded */
				rz_refuse(
				    r, RAISE_INDIRECT_BRANCH,
				    "the branch target 0x%llx is outside the kernel's functions",
				    (unsigned long long)(r->co->text_addr + t));
				goto out;
			}
		}
		if (in->flags & (ISA_F_BRANCH | ISA_F_CONDBR | ISA_F_TERM | ISA_F_CALL))
			if (in->offset + in->size < r->co->text_size)
				block_at(r, in->offset + in->size);
		if (in->flags & ISA_F_CALL)
			targets[ntargets++] = r->co->text_addr + in->offset + in->size;
		/* A long branch's s_setpc_b64 goes where its constants say: a case of every
		 * s_setpc switch, which LLVM folds to a branch. */
		if (!long_branch_target(d, i, &t) && in_extents(ext, next, t) && block_at(r, t))
			targets[ntargets++] = r->co->text_addr + t;
	}
	qsort(targets, ntargets, sizeof(*targets), cmp_u64);
	{ /* one switch case per address: a long branch may land on a function or return site */
		size_t n = 0;
		for (size_t i = 0; i < ntargets; i++)
			if (!n || targets[i] != targets[n - 1])
				targets[n++] = targets[i];
		ntargets = n;
	}

	if (barrier_pairs(r, d, ext, next))
		goto out;
	entry = LLVMAppendBasicBlockInContext(r->C, r->F, "entry");
	LLVMMoveBasicBlockBefore(entry, LLVMGetFirstBasicBlock(r->F));
	seed = LLVMAppendBasicBlockInContext(r->C, r->F, "seed");
	LLVMMoveBasicBlockAfter(seed, entry);
	LLVMPositionBuilderAtEnd(r->A, entry);
	LLVMPositionBuilderAtEnd(r->B, entry);
	LLVMBuildBr(r->B, seed);
	LLVMPositionBuilderBefore(r->A, LLVMGetBasicBlockTerminator(entry));
	LLVMPositionBuilderAtEnd(r->B, seed);
	r->in = NULL;
	r->lane = rz_call(r, HOOK_LANE_ID, NULL, 0);
	if (seed_entry(r))
		goto out;
	LLVMBuildBr(r->B, block_at(r, ext[0].start));

	for (size_t i = 0, e = 0; i < d->n; i++) {
		const struct isa_inst *in = &d->insts[i];
		LLVMBasicBlockRef here = r->blocks[in->offset / 4];
		bool fall_in;
		int h;
		r->in = in;
		r->active = NULL;
		r->dpp_op = NULL;
		r->sdwa_src[0] = r->sdwa_src[1] = r->sdwa_dst = NULL;
		r->mods_present = rz_mods_present(in);
		r->mods_used = 0;
		while (e + 1 < next && in->offset >= ext[e + 1].start) {
			if (open_block) {
				rz_refuse(r, RAISE_UNTERMINATED, "%s ends without a terminator",
				          e ? "a helper function" : "the kernel");
				goto out;
			}
			e++;
		}
		fall_in = here && open_block;
		if (!open_block) /* a branch in index mode was refused: every block starts off */
			r->gpr_idx_on = false;
		if (here) {
			if (open_block)
				LLVMBuildBr(r->B, here);
			LLVMPositionBuilderAtEnd(r->B, here);
			open_block = true;
		} else if (!open_block) {
			/* Code after a terminator that no branch reaches. */
			LLVMPositionBuilderAtEnd(
			    r->B, LLVMAppendBasicBlockInContext(r->C, r->F, "unreached"));
			open_block = true;
		}
		h = rz_gpr_idx(r, in, fall_in);
		if (h == 1 && !r->refused)
			h = rz_gpr_idx_begin(r, in) ? -1 : 1;
		if (h == 1)
			h = control(r, in, funcs, nfuncs, targets, ntargets);
		if (h == 1)
			h = rz_salu(r, in);
		if (h == 1)
			h = rz_mem(r, in);
		if (h == 1)
			h = rz_valu(r, in);
		if (h == 1)
			rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION, "format %s",
			          isa_format_name(in->format));
		if (!r->refused)
			rz_gpr_idx_end(r);
		if (!r->refused)
			rz_mods_check(r);
		if (r->refused)
			goto out;
		res->instructions++;
		if (in->flags & (ISA_F_BRANCH | ISA_F_CONDBR | ISA_F_TERM | ISA_F_CALL) ||
		    in->op == ISA_OP_S_TRAP)
			open_block = false;
	}
	if (open_block) {
		r->in = d->n ? &d->insts[d->n - 1] : NULL;
		rz_refuse(r, RAISE_UNTERMINATED, "the code ends without s_endpgm or a branch");
		goto out;
	}
	rc = 0;
out:
	free(funcs);
	free(targets);
	return rc;
}

/* Unreached blocks (made for leaders nothing branches to) still need a terminator. */
static void close_blocks(struct rz *r)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(r->F); b; b = LLVMGetNextBasicBlock(b))
		if (!LLVMGetBasicBlockTerminator(b)) {
			LLVMPositionBuilderAtEnd(r->B, b);
			LLVMBuildUnreachable(r->B);
		}
}

int raise_kernel(LLVMContextRef ctx, const struct code_object *co, const struct co_kernel *k,
                 struct raise_result *res, struct raise_refusal *why)
{
	struct rz *r = calloc(1, sizeof(*r));
	struct decoded d = {0};
	struct extent *ext = NULL;
	size_t ext_cap = 0;
	size_t next = 0;
	char msg[512];
	int rc = -1;

	memset(res, 0, sizeof(*res));
	if (!r)
		return -1;
	r->C = ctx;
	r->co = co;
	r->k = k;
	r->why = why;
	r->i1 = LLVMInt1TypeInContext(ctx);
	r->i8 = LLVMInt8TypeInContext(ctx);
	r->i16 = LLVMInt16TypeInContext(ctx);
	r->i32 = LLVMInt32TypeInContext(ctx);
	r->i64 = LLVMInt64TypeInContext(ctx);
	r->f16 = LLVMHalfTypeInContext(ctx);
	r->f32 = LLVMFloatTypeInContext(ctx);
	r->f64 = LLVMDoubleTypeInContext(ctx);
	r->ptr = LLVMPointerTypeInContext(ctx, 0);
	r->vd = LLVMVoidTypeInContext(ctx);
	r->md_lane_pred = LLVMGetMDKindIDInContext(ctx, "mirage.lane_pred", 16);
	r->md_uniform = LLVMGetMDKindIDInContext(ctx, "mirage.uniform", 14);
	r->blocks = calloc(co->text_size / 4 + 1, sizeof(*r->blocks));
	ext_cap = co->nfuncs + 2;
	ext = calloc(ext_cap, sizeof(*ext));
	if (!r->blocks || !ext)
		goto out;

	/* A table per ISA (gfx1251 is gfx1250's ISA, gfx9-4-generic gfx942's: isa_arch_of_e_flags);
	 * the wave size is the ISA's: wave32 on gfx12.5, wave64 on gfx9.4 (seed_entry checks the
	 * descriptor agrees). */
	{
		int arch = isa_arch_of_e_flags(co->mach);
		if (arch < 0) {
			rz_refuse(r, RAISE_TARGET, "the object is for %s",
			          co->mcpu ? co->mcpu : "an unknown processor");
			goto out;
		}
		r->arch = (unsigned)arch;
		r->wave = arch == ISA_ARCH_GFX1250 ? 32 : 64;
		r->mask = r->wave == 64 ? r->i64 : r->i32;
		res->wave_size = r->wave;
	}
	/* LDS per workgroup: gfx1250 320 KiB, gfx950 160 KiB, gfx942 64 KiB. */
	{
		uint32_t limit = isa_arch_lds_limit(r->arch);
		uint32_t need = co_kernel_lds(k);
		if (need > limit) {
			rz_refuse(r, RAISE_LDS_LIMIT, "%u bytes of LDS, %s has %u", need,
			          isa_arch_name(r->arch), limit);
			goto out;
		}
	}
	ext[next++] = (struct extent){k->entry - co->text_addr, k->entry - co->text_addr + k->size,
	                              true, false};
	if (decode_extent(r, &ext[0], &d))
		goto out;
	for (size_t i = 0; i < d.n; i++)
		if (d.insts[i].flags & ISA_F_CALL || d.insts[i].op == ISA_OP_S_SET_PC_I64)
			res->uses_calls = 1;
	if (res->uses_calls) {
		/* Calls are resolved at run time over every helper function of the object. */
		for (size_t i = 0; i < co->nfuncs; i++) {
			const struct co_func *f = &co->funcs[i];
			if (is_kernel_func(co, f->name) || !f->size)
				continue;
			ext[next] =
			    (struct extent){f->addr - co->text_addr,
			                    f->addr - co->text_addr + f->size, false, false};
			if (decode_extent(r, &ext[next], &d))
				goto out;
			next++;
		}
	}

	if (follow_pool(r, &ext, &next, &ext_cap, &d))
		goto out;

	r->M = LLVMModuleCreateWithNameInContext(k->name, ctx);
	r->B = LLVMCreateBuilderInContext(ctx);
	r->A = LLVMCreateBuilderInContext(ctx);
	declare_hooks(r);
	r->F = LLVMAddFunction(r->M, k->name, LLVMFunctionType(r->vd, NULL, 0, 0));
	if (raise_one(r, &d, ext, next, res))
		goto out;
	close_blocks(r);
	r->in = NULL;
	if (LLVMVerifyModule(r->M, LLVMReturnStatusAction, NULL) ||
	    raise_verify_invariant(r->M, msg, sizeof(msg))) {
		char *m = NULL;
		LLVMVerifyModule(r->M, LLVMReturnStatusAction, &m);
		rz_refuse(r, RAISE_RAISER_BUG, "%s", m && *m ? m : msg);
		LLVMDisposeMessage(m);
		goto out;
	}
	res->module = r->M;
	res->function = r->F;
	res->scratch_bytes = k->private_fixed + (res->uses_calls ? 16384u : 0u);
	r->M = NULL;
	rc = 0;
out:
	if (r->M)
		LLVMDisposeModule(r->M);
	if (r->B)
		LLVMDisposeBuilder(r->B);
	if (r->A)
		LLVMDisposeBuilder(r->A);
	free(r->blocks);
	free(d.insts);
	free(ext);
	free(r);
	return rc;
}
