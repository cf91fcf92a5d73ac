/*
 * Memory: scalar loads (SMEM), global/flat/scratch (FLAT family) and LDS (DS).  Every
 * lane-visible access sits in a diamond on the lane's EXEC bit; every address goes through
 * a checking hook (mx.global / mx.smem / mx.lds / mx.scratch) that names the instruction's offset.
 * What an access is (kind, element type, d16, two-address, the atomic's operation) is its
 * row's MEM, TYPE and OPER (docs/isa-decoder.md, "What a row means").
 */
#include "raise_internal.h"

#define B (r->B)

static LLVMValueRef c32(struct rz *r, uint64_t x)
{
	return rz_const32(r, x);
}

/* A row's memory access as the handlers read it (its MEM, TYPE and OPER columns). */
struct mshape {
	unsigned kind;  /* ISA_M_LOAD, ISA_M_STORE or ISA_M_ATOMIC */
	unsigned bytes; /* per element */
	bool sign, fp, d16, hi, twoaddr, stride64, rtn;
	unsigned aop; /* an atomic's enum isa_oper */
};

static struct mshape shape_of(const struct isa_row *row)
{
	unsigned kind = isa_type_kind(row->type);

	return (struct mshape){.kind = row->mem & ISA_M_KIND,
	                       .bytes = isa_type_bits(row->type) / 8,
	                       .sign = kind == ISA_TK_I,
	                       .fp = kind == ISA_TK_F,
	                       .d16 = row->mem & ISA_M_D16,
	                       .hi = row->mem & ISA_M_HI,
	                       .twoaddr = row->shape & ISA_S_2ADDR,
	                       .stride64 = row->mem & ISA_M_STRIDE64,
	                       .rtn = row->mem & ISA_M_RTN,
	                       .aop = row->oper};
}

/*
 * A load, a store or a read-modify-write of whole elements at one address per lane: what the
 * handlers below raise.  Not: buffer resources, async copies, ADDTID and transposing forms,
 * and atomics whose operation the table names no ISA_O_ for (the packed adds, ...).
 */
static bool plain_access(const struct isa_row *row)
{
	unsigned kind = row->mem & ISA_M_KIND;

	if (!kind || (row->mem & (ISA_M_RSRC | ISA_M_ASYNC | ISA_M_ADDTID | ISA_M_TR)))
		return false;
	return kind != ISA_M_ATOMIC || row->oper;
}

/* Loads width bytes at p as dwords into the VGPRs of d (unpredicated: we are in the diamond). */
static void load_into(struct rz *r, const struct mshape *s, LLVMValueRef p,
                      const struct isa_operand *d, unsigned first)
{
	if (s->bytes < 4) {
		LLVMTypeRef t = LLVMIntTypeInContext(r->C, 8 * s->bytes);
		LLVMValueRef v = LLVMBuildLoad2(B, t, p, "");
		v = s->sign ? LLVMBuildSExt(B, v, r->i32, "") : LLVMBuildZExt(B, v, r->i32, "");
		if (s->d16) {
			LLVMValueRef old = LLVMBuildLoad2(
			    B, r->i32, rz_vgpr_slot(r, rz_vector_slot(d) + first), "");
			v = LLVMBuildAnd(B, v, c32(r, 0xffff), "");
			v = s->hi ? LLVMBuildOr(B, LLVMBuildAnd(B, old, c32(r, 0xffff), ""),
			                        LLVMBuildShl(B, v, c32(r, 16), ""), "")
			          : LLVMBuildOr(B, LLVMBuildAnd(B, old, c32(r, 0xffff0000u), ""), v,
			                        "");
		}
		rz_write_vgpr_raw(r, rz_vector_slot(d) + first, v);
		return;
	}
	for (unsigned k = 0; k < s->bytes / 4; k++) {
		LLVMValueRef q = LLVMBuildGEP2(B, r->i8, p, (LLVMValueRef[]){c32(r, 4 * k)}, 1, "");
		LLVMValueRef v = LLVMBuildLoad2(B, r->i32, q, "");
		LLVMSetAlignment(v, 1);
		rz_write_vgpr_raw(r, rz_vector_slot(d) + first + k, v);
	}
}

static void store_from(struct rz *r, const struct mshape *s, LLVMValueRef p,
                       const struct isa_operand *data, unsigned first)
{
	if (s->bytes < 4) {
		LLVMTypeRef t = LLVMIntTypeInContext(r->C, 8 * s->bytes);
		LLVMValueRef v = rz_read32(r, data, first);
		if (s->hi)
			v = LLVMBuildLShr(B, v, c32(r, 16), "");
		LLVMBuildStore(B, LLVMBuildTrunc(B, v, t, ""), p);
		return;
	}
	for (unsigned k = 0; k < s->bytes / 4; k++) {
		LLVMValueRef q = LLVMBuildGEP2(B, r->i8, p, (LLVMValueRef[]){c32(r, 4 * k)}, 1, "");
		LLVMValueRef st = LLVMBuildStore(B, rz_read32(r, data, first + k), q);
		LLVMSetAlignment(st, 1);
	}
}

static int atomic(struct rz *r, const struct mshape *s, LLVMValueRef p,
                  const struct isa_operand *dst, const struct isa_operand *data)
{
	static const struct {
		unsigned oper;
		LLVMAtomicRMWBinOp u, sgn;
	} ops[] = {{ISA_O_SWAP, LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpXchg},
	           {ISA_O_STOREXCHG, LLVMAtomicRMWBinOpXchg, LLVMAtomicRMWBinOpXchg},
	           {ISA_O_ADD, LLVMAtomicRMWBinOpAdd, LLVMAtomicRMWBinOpAdd},
	           {ISA_O_SUB, LLVMAtomicRMWBinOpSub, LLVMAtomicRMWBinOpSub},
	           {ISA_O_MIN, LLVMAtomicRMWBinOpUMin, LLVMAtomicRMWBinOpMin},
	           {ISA_O_MAX, LLVMAtomicRMWBinOpUMax, LLVMAtomicRMWBinOpMax},
	           {ISA_O_AND, LLVMAtomicRMWBinOpAnd, LLVMAtomicRMWBinOpAnd},
	           {ISA_O_OR, LLVMAtomicRMWBinOpOr, LLVMAtomicRMWBinOpOr},
	           {ISA_O_XOR, LLVMAtomicRMWBinOpXor, LLVMAtomicRMWBinOpXor},
	           {ISA_O_INC, LLVMAtomicRMWBinOpUIncWrap, LLVMAtomicRMWBinOpUIncWrap},
	           {ISA_O_DEC, LLVMAtomicRMWBinOpUDecWrap, LLVMAtomicRMWBinOpUDecWrap},
	           /* memory - data if memory >= data, else memory kept; memory - data clamped
	            * to 0 (the ISA's _cond_sub_u32 and _sub_clamp_u32) */
	           {ISA_O_COND_SUB, LLVMAtomicRMWBinOpUSubCond, LLVMAtomicRMWBinOpUSubCond},
	           {ISA_O_SUB_CLAMP, LLVMAtomicRMWBinOpUSubSat, LLVMAtomicRMWBinOpUSubSat}};
	unsigned bits = 8 * s->bytes;
	LLVMTypeRef it = LLVMIntTypeInContext(r->C, bits);
	LLVMValueRef old, val;

	if (bits != 32 && bits != 64)
		return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION, "a %u-bit atomic", bits);
	val = rz_src(r, data, bits, 0);
	if (s->aop == ISA_O_CMPSWAP || s->aop == ISA_O_CMPSTORE) {
		LLVMValueRef cmp = bits == 32 ? rz_read32(r, data, 1) : NULL;
		if (bits == 64) {
			struct isa_operand hi = *data;
			hi.reg = (uint16_t)(hi.reg + 2);
			cmp = rz_src(r, &hi, 64, 0);
		}
		old = LLVMBuildAtomicCmpXchg(B, p, cmp, val, LLVMAtomicOrderingMonotonic,
		                             LLVMAtomicOrderingMonotonic, 0);
		old = LLVMBuildExtractValue(B, old, 0, "");
	} else if (s->fp) {
		LLVMTypeRef ft = bits == 64 ? r->f64 : r->f32;
		LLVMAtomicRMWBinOp op = s->aop == ISA_O_ADD   ? LLVMAtomicRMWBinOpFAdd
		                        : s->aop == ISA_O_MIN ? LLVMAtomicRMWBinOpFMin
		                        : s->aop == ISA_O_MAX ? LLVMAtomicRMWBinOpFMax
		                                              : LLVMAtomicRMWBinOpXchg;
		if (op == LLVMAtomicRMWBinOpXchg)
			return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION, "float atomic %s",
			                 isa_oper_name(s->aop));
		old = LLVMBuildAtomicRMW(B, op, p, LLVMBuildBitCast(B, val, ft, ""),
		                         LLVMAtomicOrderingMonotonic, 0);
		old = LLVMBuildBitCast(B, old, it, "");
	} else {
		unsigned i;
		for (i = 0; i < sizeof(ops) / sizeof(ops[0]) && ops[i].oper != s->aop; i++)
			;
		if (i == sizeof(ops) / sizeof(ops[0]))
			return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION, "atomic %s",
			                 isa_oper_name(s->aop));
		old = LLVMBuildAtomicRMW(B, s->sign ? ops[i].sgn : ops[i].u, p, val,
		                         LLVMAtomicOrderingMonotonic, 0);
	}
	if (dst)
		for (unsigned k = 0; k < bits / 32; k++) {
			LLVMValueRef part = LLVMBuildLShr(B, old, LLVMConstInt(it, 32 * k, 0), "");
			rz_write_vgpr_raw(r, rz_vector_slot(dst) + k,
			                  LLVMBuildTrunc(B, part, r->i32, ""));
		}
	return 0;
}

static LLVMValueRef check(struct rz *r, enum raise_hook h, LLVMValueRef addr, unsigned bytes)
{
	LLVMValueRef a[3] = {addr, c32(r, bytes), c32(r, rz_pc(r))};
	return rz_call(r, h, a, 3);
}

static int smem(struct rz *r, const struct isa_inst *in)
{
	const struct isa_row *row = rz_row(r, in->op);
	struct mshape s = shape_of(row);
	const struct isa_operand *d = &in->ops[0];
	LLVMValueRef addr, p;
	unsigned total;

	if (in->op == ISA_OP_S_PREFETCH_DATA)
		return 0;
	if (row->mem & ISA_M_RSRC)
		return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION,
		                 "buffer resources are not raised");
	if (!plain_access(row) || s.kind != ISA_M_LOAD || in->nops < 2)
		return 1;
	addr = LLVMBuildAdd(B, rz_src(r, &in->ops[1], 64, 0),
	                    LLVMConstInt(r->i64, (uint64_t)(int64_t)in->mods.offset, 0), "");
	for (unsigned i = 2; i < in->nops; i++)
		if (in->ops[i].kind != ISA_OPK_IMM && in->ops[i].role == ISA_ROLE_SRC)
			addr = LLVMBuildAdd(
			    B, addr, LLVMBuildZExt(B, rz_read32(r, &in->ops[i], 0), r->i64, ""),
			    "");
	total = s.bytes;
	p = check(r, HOOK_SMEM, addr, total);
	if (s.bytes < 4) {
		LLVMValueRef v = LLVMBuildLoad2(B, LLVMIntTypeInContext(r->C, 8 * s.bytes), p, "");
		v = s.sign ? LLVMBuildSExt(B, v, r->i32, "") : LLVMBuildZExt(B, v, r->i32, "");
		return rz_write32(r, d, 0, v);
	}
	for (unsigned k = 0; k < s.bytes / 4; k++) {
		LLVMValueRef q = LLVMBuildGEP2(B, r->i8, p, (LLVMValueRef[]){c32(r, 4 * k)}, 1, "");
		LLVMValueRef v = LLVMBuildLoad2(B, r->i32, q, "");
		LLVMSetAlignment(v, 1);
		if (rz_write32(r, d, k, v))
			return -1;
	}
	return 0;
}

static bool is_off(const struct isa_operand *o)
{
	return o->kind == ISA_OPK_SPECIAL && o->reg == ISA_REG_NULL;
}

/* The scale_offset bit (dword 1 bit 16): the VGPR offset is scaled by the access size. */
static bool scale_offset(struct rz *r, const struct isa_inst *in)
{
	/* GFX9 has no scale_offset: those bits are saddr there */
	return r->arch == ISA_ARCH_GFX1250 && (r->co->text[in->offset + 6] & 1);
}

/*
 * The address of a FLAT-family access: a 64-bit VGPR address, or an SGPR base plus a 32-bit
 * VGPR offset, plus the instruction's offset (i64); scratch addresses are 32-bit (i32).
 */
static LLVMValueRef flat_address(struct rz *r, const struct isa_inst *in,
                                 const struct isa_operand *vaddr, const struct isa_operand *saddr,
                                 unsigned bytes)
{
	LLVMValueRef off = LLVMConstInt(r->i64, (uint64_t)(int64_t)in->mods.offset, 0);

	if (in->format == ISA_FMT_VSCRATCH) {
		LLVMValueRef a = c32(r, (uint32_t)in->mods.offset);
		if (!is_off(vaddr)) {
			LLVMValueRef v = rz_read32(r, vaddr, 0);
			if (scale_offset(r, in))
				v = LLVMBuildMul(B, v, c32(r, bytes), "");
			a = LLVMBuildAdd(B, a, v, "");
		}
		if (saddr)
			a = LLVMBuildAdd(B, a, rz_read32(r, saddr, 0), "");
		return a;
	}
	if (saddr) {
		LLVMValueRef v = LLVMBuildZExt(B, rz_read32(r, vaddr, 0), r->i64, "");
		if (scale_offset(r, in))
			v = LLVMBuildMul(B, v, rz_const64(r, bytes), "");
		return LLVMBuildAdd(B, LLVMBuildAdd(B, rz_src(r, saddr, 64, 0), v, ""), off, "");
	}
	return LLVMBuildAdd(B, rz_src(r, vaddr, 64, 0), off, "");
}

/* Copies bytes (1, or a multiple of 4) from src to dst, unaligned. */
static void copy_bytes(struct rz *r, LLVMValueRef dst, LLVMValueRef src, unsigned bytes)
{
	if (bytes < 4) {
		LLVMBuildStore(B, LLVMBuildLoad2(B, r->i8, src, ""), dst);
		return;
	}
	for (unsigned k = 0; k < bytes / 4; k++) {
		LLVMValueRef idx[1] = {c32(r, 4 * k)};
		LLVMValueRef v =
		    LLVMBuildLoad2(B, r->i32, LLVMBuildGEP2(B, r->i8, src, idx, 1, ""), "");
		LLVMSetAlignment(v, 1);
		LLVMSetAlignment(LLVMBuildStore(B, v, LLVMBuildGEP2(B, r->i8, dst, idx, 1, "")), 1);
	}
}

/*
 * The asynchronous LDS copies: global_load_async_to_lds_* and cluster_load_async_to_lds_*
 * (LDS <- global; operands LDS address, address, saddr) and global_store_async_from_lds_*
 * (global <- LDS; address, LDS address, saddr).  Per lane under EXEC: the LDS address is the
 * VGPR plus the instruction's offset, the global one as for any global access (the offset
 * counts for both).  The copy is made at issue, one of the orders the hardware allows: the
 * program sees it only after s_wait_asynccnt (a fence, as every wait).
 */
static int async_lds(struct rz *r, const struct isa_inst *in, unsigned bytes, bool to_lds)
{
	const struct isa_operand *lds, *vaddr, *saddr;
	LLVMValueRef addr, laddr, g, l;
	LLVMBasicBlockRef join;

	if (in->nops < 3)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
		                 "an async LDS copy without its operands");
	lds = &in->ops[to_lds ? 0 : 1];
	vaddr = &in->ops[to_lds ? 1 : 0];
	saddr = is_off(&in->ops[2]) ? NULL : &in->ops[2];
	if (lds->kind != ISA_OPK_VGPR || vaddr->kind != ISA_OPK_VGPR)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "an async LDS copy without its VGPRs");
	addr = flat_address(r, in, vaddr, saddr, bytes);
	laddr = LLVMBuildAdd(B, rz_read32(r, lds, 0), c32(r, (uint32_t)in->mods.offset), "");
	rz_lds_order(r, to_lds);
	join = rz_pred_begin(r);
	g = check(r, HOOK_GLOBAL, addr, bytes);
	l = check(r, HOOK_LDS, laddr, bytes);
	copy_bytes(r, to_lds ? l : g, to_lds ? g : l, bytes);
	rz_pred_end(r, join);
	return 0;
}

/*
 * Global, flat and scratch loads, stores and atomics.  cluster_load_b32/b64/b128 read like
 * global_load_*: the raiser refuses cluster dispatch (.cluster_dims), and in a cluster of one
 * workgroup the load's broadcast (M0's workgroup mask) reaches only the loading one.
 */
static int flat(struct rz *r, const struct isa_inst *in)
{
	const struct isa_row *row = rz_row(r, in->op);
	struct mshape s = shape_of(row);
	const struct isa_operand *dst = NULL, *vaddr = NULL, *data = NULL, *saddr = NULL;
	unsigned nsrc = 0;
	LLVMValueRef addr, p;
	LLVMBasicBlockRef join;

	if (in->op == ISA_OP_GLOBAL_WB || in->op == ISA_OP_GLOBAL_INV ||
	    in->op == ISA_OP_GLOBAL_WBINV) {
		rz_call(r, HOOK_FENCE, NULL, 0); /* cache maintenance: ordering only on the host */
		return 0;
	}
	if (row->mem & ISA_M_ASYNC) /* a load fills LDS, a store empties it */
		return async_lds(r, in, s.bytes, s.kind == ISA_M_LOAD);
	if (!plain_access(row))
		return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION, "memory form not raised");
	for (unsigned i = 0; i < in->nops; i++) {
		const struct isa_operand *o = &in->ops[i];
		if (o->role == ISA_ROLE_DST)
			dst = o;
		else if (nsrc == 0 && (o->kind == ISA_OPK_VGPR || is_off(o)) && i < in->nops) {
			vaddr = o;
			nsrc++;
		} else if ((o->kind == ISA_OPK_VGPR || o->kind == ISA_OPK_AGPR) && !data &&
		           s.kind != ISA_M_LOAD) /* AGPR data: GFX9's acc bit (spills to AGPRs) */
			data = o;
		else if (o->kind == ISA_OPK_SGPR || o->kind == ISA_OPK_TTMP || is_off(o) ||
		         o->kind == ISA_OPK_SPECIAL)
			saddr = o;
	}
	if (!vaddr)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "no address operand");
	if (saddr && is_off(saddr))
		saddr = NULL;
	addr = flat_address(r, in, vaddr, saddr, s.bytes);
	if (in->format == ISA_FMT_VFLAT) /* a generic address may be in LDS */
		rz_lds_order(r, s.kind != ISA_M_LOAD);
	if (s.kind == ISA_M_ATOMIC && !data)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "atomic without data");
	if (s.kind == ISA_M_STORE && !data)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "store without data");
	join = rz_pred_begin(r);
	p = check(r, in->format == ISA_FMT_VSCRATCH ? HOOK_SCRATCH : HOOK_GLOBAL, addr, s.bytes);
	if (s.kind == ISA_M_LOAD) {
		if (!dst)
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "load without a destination");
		load_into(r, &s, p, dst, 0);
	} else if (s.kind == ISA_M_STORE) {
		store_from(r, &s, p, data, 0);
	} else if (atomic(r, &s, p, dst, data)) {
		return -1;
	}
	rz_pred_end(r, join);
	return 0;
}

/*
 * The cross-lane moves through the LDS crossbar, no LDS access: ds_bpermute_b32 (lane i reads
 * the data of lane addr[i] / 4, 0 from an inactive one), ds_bpermute_fi_b32 (inactive lanes'
 * data too), ds_permute_b32 (lane i writes its data to lane addr[i] / 4; a lane nothing writes
 * to reads 0, of two writers the higher lane wins) and ds_swizzle_b32 (a fixed pattern in the
 * offset, within each 32 lanes).  Lane numbers wrap at the wave size.  The result is a VGPR
 * write under EXEC; the rendezvous itself is outside predication.
 */
static int ds_cross_lane(struct rz *r, const struct isa_inst *in)
{
	const struct isa_operand *dst = NULL, *srcs[2] = {NULL, NULL};
	unsigned ns = 0;
	LLVMValueRef lane = r->lane, src;

	for (unsigned i = 0; i < in->nops; i++) {
		if (in->ops[i].kind == ISA_OPK_IMM)
			continue;
		if (in->ops[i].role == ISA_ROLE_DST)
			dst = &in->ops[i];
		else if (ns < 2)
			srcs[ns++] = &in->ops[i];
	}
	if (!dst || !ns)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "cross-lane LDS form without operands");
	if (in->op != ISA_OP_DS_SWIZZLE_B32) {
		LLVMValueRef a = LLVMBuildAdd(B, rz_read32(r, srcs[0], 0),
		                              c32(r, (uint32_t)in->mods.offset), "");
		LLVMValueRef data, peer;
		if (ns < 2)
			return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "a permute without data");
		data = rz_read32(r, srcs[1], 0);
		peer = LLVMBuildAnd(B, LLVMBuildLShr(B, a, c32(r, 2), ""), c32(r, r->wave - 1), "");
		if (in->op == ISA_OP_DS_PERMUTE_B32) {
			LLVMValueRef args[3] = {
			    data, LLVMBuildSelect(B, rz_active(r), peer, c32(r, ~0u), ""),
			    c32(r, rz_pc(r) * 4)};
			return rz_write32(r, dst, 0, rz_call(r, HOOK_PERMUTE, args, 3));
		}
		if (in->op == ISA_OP_DS_BPERMUTE_B32)
			data = LLVMBuildSelect(B, rz_active(r), data, c32(r, 0), "");
		return rz_write32(r, dst, 0, rz_shuffle(r, data, peer, 0));
	}
	{
		unsigned off = (uint16_t)in->mods.offset;
		if (off & 0x8000) { /* quad permute: 2 bits per lane of the quad */
			LLVMValueRef sh =
			    LLVMBuildMul(B, LLVMBuildAnd(B, lane, c32(r, 3), ""), c32(r, 2), "");
			LLVMValueRef sel = LLVMBuildAnd(
			    B, LLVMBuildLShr(B, c32(r, off & 0xff), sh, ""), c32(r, 3), "");
			src = LLVMBuildOr(B, LLVMBuildAnd(B, lane, c32(r, ~3u), ""), sel, "");
		} else { /* bit masks: ((lane & and) | or) ^ xor, within each 32-lane group */
			src =
			    LLVMBuildAnd(B, lane, c32(r, (off & 31) | ((r->wave - 1) & ~31u)), "");
			src = LLVMBuildOr(B, src, c32(r, (off >> 5) & 31), "");
			src = LLVMBuildXor(B, src, c32(r, (off >> 10) & 31), "");
		}
		return rz_write32(r, dst, 0, rz_shuffle(r, rz_read32(r, srcs[0], 0), src, 0));
	}
}

/*
 * ds_{load,store}_addtid_b32 (B0): no address VGPR; lane i addresses M0[19:0] + 4 * i, plus
 * the offset (the 20-bit view of M0 is B0's, docs/rewriter.md "The B0→A0 pass").
 */
static int ds_addtid(struct rz *r, const struct isa_inst *in, const struct mshape *s)
{
	const struct isa_operand m0 = {.kind = ISA_OPK_SPECIAL, .reg = ISA_REG_M0, .width = 1};
	const struct isa_operand *v = NULL;
	LLVMValueRef addr, p;
	LLVMBasicBlockRef join;

	for (unsigned i = 0; i < in->nops && !v; i++)
		if (in->ops[i].kind == ISA_OPK_VGPR)
			v = &in->ops[i];
	if (!v || s->bytes != 4 || s->kind == ISA_M_ATOMIC)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "ADDTID form without its VGPR");
	addr = LLVMBuildAdd(B, rz_read32(r, &m0, 0), LLVMBuildShl(B, r->lane, c32(r, 2), ""), "");
	addr = LLVMBuildAnd(B, addr, c32(r, 0xfffff), "");
	addr = LLVMBuildAdd(B, addr, c32(r, (uint16_t)in->mods.offset), "");
	rz_lds_order(r, s->kind != ISA_M_LOAD);
	join = rz_pred_begin(r);
	p = check(r, HOOK_LDS, addr, 4);
	if (s->kind == ISA_M_LOAD)
		load_into(r, s, p, v, 0);
	else
		store_from(r, s, p, v, 0);
	rz_pred_end(r, join);
	return 0;
}

/*
 * The LDS read-modify-writes no LLVM atomicrmw operation is: ds_rsub (memory = data - memory)
 * and ds_mskor (memory = (memory & ~data0) | data1), at 32 or 64 bits, as a compare-exchange
 * loop on the lane's address (a lane-predicated branch: it repeats while another lane's or
 * wave's write came between the read and the exchange).  The value before is returned to dst
 * (the _rtn forms), as the ISA's pseudocode says.
 */
static int ds_cas(struct rz *r, const struct mshape *s, LLVMValueRef p,
                  const struct isa_operand *dst, const struct isa_operand *d0,
                  const struct isa_operand *d1)
{
	unsigned bits = 8 * s->bytes;
	LLVMTypeRef it = LLVMIntTypeInContext(r->C, bits);
	LLVMBasicBlockRef from = LLVMGetInsertBlock(B), loop, done;
	LLVMValueRef data, mask = NULL, first, old, val, pair, seen, br;

	if ((bits != 32 && bits != 64) || !d0 || (s->aop == ISA_O_MSKOR && !d1))
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "LDS atomic %s without its data",
		                 isa_oper_name(s->aop));
	if (s->aop == ISA_O_MSKOR) {
		mask = rz_src(r, d0, bits, 0);
		data = rz_src(r, d1, bits, 0);
	} else {
		data = rz_src(r, d0, bits, 0);
	}
	first = LLVMBuildLoad2(B, it, p, "");
	LLVMSetOrdering(first, LLVMAtomicOrderingMonotonic);
	LLVMSetAlignment(first, s->bytes);
	loop = LLVMAppendBasicBlockInContext(r->C, r->F, "lds_cas");
	done = LLVMAppendBasicBlockInContext(r->C, r->F, "lds_cas_done");
	LLVMBuildBr(B, loop);
	LLVMPositionBuilderAtEnd(B, loop);
	old = LLVMBuildPhi(B, it, "");
	val = s->aop == ISA_O_MSKOR
	          ? LLVMBuildOr(B, LLVMBuildAnd(B, old, LLVMBuildNot(B, mask, ""), ""), data, "")
	          : LLVMBuildSub(B, data, old, "");
	pair = LLVMBuildAtomicCmpXchg(B, p, old, val, LLVMAtomicOrderingMonotonic,
	                              LLVMAtomicOrderingMonotonic, 0);
	seen = LLVMBuildExtractValue(B, pair, 0, "");
	br = LLVMBuildCondBr(B, LLVMBuildExtractValue(B, pair, 1, ""), done, loop);
	LLVMSetMetadata(br, r->md_lane_pred,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	LLVMAddIncoming(old, (LLVMValueRef[]){first, seen}, (LLVMBasicBlockRef[]){from, loop}, 2);
	LLVMPositionBuilderAtEnd(B, done);
	if (dst)
		for (unsigned k = 0; k < bits / 32; k++)
			rz_write_vgpr_raw(
			    r, rz_vector_slot(dst) + k,
			    LLVMBuildTrunc(B,
			                   LLVMBuildLShr(B, old, LLVMConstInt(it, 32 * k, 0), ""),
			                   r->i32, ""));
	return 0;
}

/*
 * ds_storexchg_2addr[_stride64]_rtn_b32/b64: two exchanges, the first half first (one address
 * twice gives the second half the first's data); both data registers are read before either
 * result is written, as the hardware reads its sources at issue.
 */
static int ds_exchange2(struct rz *r, const struct isa_inst *in, const struct mshape *s,
                        LLVMValueRef addr, const struct isa_operand *dst,
                        const struct isa_operand *d0, const struct isa_operand *d1)
{
	unsigned bits = 8 * s->bytes, scale = s->bytes * (s->stride64 ? 64 : 1);
	LLVMTypeRef it = LLVMIntTypeInContext(r->C, bits);
	LLVMValueRef val[2], old[2];

	if (s->aop != ISA_O_STOREXCHG || !dst || !d0 || !d1 || (bits != 32 && bits != 64))
		return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION, "two-address LDS atomic %s",
		                 isa_oper_name(s->aop));
	val[0] = rz_src(r, d0, bits, 0);
	val[1] = rz_src(r, d1, bits, 0);
	for (unsigned k = 0; k < 2; k++) {
		unsigned off = (k ? in->mods.offset1 : in->mods.offset0) * scale;
		LLVMValueRef p =
		    check(r, HOOK_LDS, LLVMBuildAdd(B, addr, c32(r, off), ""), s->bytes);
		old[k] = LLVMBuildAtomicRMW(B, LLVMAtomicRMWBinOpXchg, p, val[k],
		                            LLVMAtomicOrderingMonotonic, 0);
	}
	for (unsigned k = 0; k < 2; k++)
		for (unsigned j = 0; j < bits / 32; j++)
			rz_write_vgpr_raw(
			    r, rz_vector_slot(dst) + k * (bits / 32) + j,
			    LLVMBuildTrunc(
			        B, LLVMBuildLShr(B, old[k], LLVMConstInt(it, 32 * j, 0), ""),
			        r->i32, ""));
	return 0;
}

/*
 * The hardware runs an LDS instruction for every lane of the wave before the next one, so
 * lanes of a wave see each other's LDS stores in program order with no barrier; LLVM relies
 * on it (it drops the barrier of a workgroup that fits in one wave).  The runner runs each
 * lane on its own until a cross-lane hook, so the lanes meet before every LDS write, and
 * before a read unless they met since the last write on this path: reads between two
 * meetings cannot see a write of the other lanes out of order.
 */
void rz_lds_order(struct rz *r, bool write)
{
	LLVMValueRef site;
	if (!write && r->lds_met)
		return;
	site = rz_const32(r, rz_pc(r) * 4);
	rz_call(r, HOOK_WAVE_SYNC, &site, 1);
	r->lds_met = !write;
}

static int ds(struct rz *r, const struct isa_inst *in)
{
	const struct isa_row *row = rz_row(r, in->op);
	struct mshape s = shape_of(row);
	const struct isa_operand *dst = NULL, *addr_op = NULL, *d0 = NULL, *d1 = NULL;
	LLVMValueRef addr;
	LLVMBasicBlockRef join;

	if (in->op == ISA_OP_DS_NOP)
		return 0;
	if (in->op == ISA_OP_DS_BPERMUTE_B32 || in->op == ISA_OP_DS_BPERMUTE_FI_B32 ||
	    in->op == ISA_OP_DS_PERMUTE_B32 || in->op == ISA_OP_DS_SWIZZLE_B32)
		return ds_cross_lane(r, in);
	if (row->mem & ISA_M_ADDTID)
		return ds_addtid(r, in, &s);
	/* the transposing loads (ds_load_tr4_b64, tr8_b64, tr6_b96, tr16_b128): which lane gets
	 * which bytes of which lane's address is documented nowhere we can check it
	 * (docs/raiser.md, "Refusals") */
	if (row->mem & ISA_M_TR)
		return rz_refuse(
		    r, RAISE_UNDOCUMENTED,
		    "the transpose's lane mapping (which lane gets which bytes of which "
		    "lane's address) is not documented");
	if (!plain_access(row))
		return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION, "LDS form not raised");
	for (unsigned i = 0; i < in->nops; i++) {
		const struct isa_operand *o = &in->ops[i];
		if (o->kind == ISA_OPK_IMM)
			continue;
		if (o->role == ISA_ROLE_DST)
			dst = o;
		else if (!addr_op)
			addr_op = o;
		else if (!d0)
			d0 = o;
		else
			d1 = o;
	}
	if (!addr_op)
		return rz_refuse(r, RAISE_UNSUPPORTED_FORM, "no LDS address");
	addr = rz_read32(r, addr_op, 0);
	rz_lds_order(r, s.kind != ISA_M_LOAD);
	join = rz_pred_begin(r);
	if (s.twoaddr && s.kind == ISA_M_ATOMIC) {
		if (ds_exchange2(r, in, &s, addr, dst, d0, d1))
			return -1;
	} else if (s.twoaddr) {
		unsigned scale = s.bytes * (s.stride64 ? 64 : 1);
		for (unsigned k = 0; k < 2; k++) {
			unsigned off = (k ? in->mods.offset1 : in->mods.offset0) * scale;
			LLVMValueRef p =
			    check(r, HOOK_LDS, LLVMBuildAdd(B, addr, c32(r, off), ""), s.bytes);
			if (s.kind == ISA_M_LOAD)
				load_into(r, &s, p, dst, k * (s.bytes / 4));
			else
				store_from(r, &s, p, k ? d1 : d0, 0);
		}
	} else {
		LLVMValueRef p =
		    check(r, HOOK_LDS, LLVMBuildAdd(B, addr, c32(r, (uint32_t)in->mods.offset), ""),
		          s.bytes);
		if (s.kind == ISA_M_LOAD) {
			if (!dst)
				return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
				                 "load without a destination");
			load_into(r, &s, p, dst, 0);
		} else if (s.kind == ISA_M_STORE) {
			store_from(r, &s, p, d0, 0);
		} else {
			if (s.aop == ISA_O_CMPSTORE || s.aop == ISA_O_CMPST) {
				/* ds_cmpstore: data0 the new value, data1 the compare value; GFX9's
				 * ds_cmpst the other way round */
				unsigned bits = 8 * s.bytes;
				bool gfx9 = s.aop == ISA_O_CMPST;
				LLVMValueRef o;
				if (!d0 || !d1)
					return rz_refuse(r, RAISE_UNSUPPORTED_FORM,
					                 "a compare-store without its data");
				o = LLVMBuildAtomicCmpXchg(B, p, rz_src(r, gfx9 ? d0 : d1, bits, 0),
				                           rz_src(r, gfx9 ? d1 : d0, bits, 0),
				                           LLVMAtomicOrderingMonotonic,
				                           LLVMAtomicOrderingMonotonic, 0);
				o = LLVMBuildExtractValue(B, o, 0, "");
				if (dst)
					for (unsigned k = 0; k < bits / 32; k++)
						rz_write_vgpr_raw(
						    r, rz_vector_slot(dst) + k,
						    LLVMBuildTrunc(
						        B,
						        LLVMBuildLShr(
						            B, o,
						            LLVMConstInt(LLVMTypeOf(o), 32 * k, 0),
						            ""),
						        r->i32, ""));
			} else if (s.aop == ISA_O_RSUB || s.aop == ISA_O_MSKOR) {
				if (ds_cas(r, &s, p, s.rtn ? dst : NULL, d0, d1))
					return -1;
			} else if (d1) {
				return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION, "LDS atomic %s",
				                 isa_oper_name(s.aop));
			} else if (atomic(r, &s, p, s.rtn ? dst : NULL, d0)) {
				return -1;
			}
		}
	}
	rz_pred_end(r, join);
	return 0;
}

int rz_mem(struct rz *r, const struct isa_inst *in)
{
	switch (in->format) {
	case ISA_FMT_SMEM:
		return smem(r, in);
	case ISA_FMT_VGLOBAL:
	case ISA_FMT_VFLAT:
	case ISA_FMT_VSCRATCH:
		return flat(r, in);
	case ISA_FMT_DS:
		return ds(r, in);
	case ISA_FMT_VBUFFER:
		return rz_refuse(r, RAISE_UNSUPPORTED_INSTRUCTION,
		                 "buffer resources are not raised");
	default:
		return 1;
	}
}
