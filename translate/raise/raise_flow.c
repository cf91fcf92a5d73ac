/*
 * Control flow: blocks by .text offset, branch targets (direct, s_add_pc_i64 of a constant,
 * LLVM's long branches and the rewriter's far jumps), the scalar control instructions (SOPP,
 * calls, s_setpc switches, barriers, waits, MODE writes), and the split-barrier dataflow.
 */
#include "raise_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

LLVMBasicBlockRef rz_block_at(struct rz *r, uint64_t off)
{
	LLVMBasicBlockRef *b;

	if (off >= r->co->text_size || (off & 3) || off < r->blocks_lo || off >= r->blocks_hi)
		return NULL;
	b = &r->blocks[(off - r->blocks_lo) / 4];
	if (!*b) {
		char name[40];
		if (r->copy)
			snprintf(name, sizeof(name), "c%u.b%llx", r->copy, (unsigned long long)off);
		else
			snprintf(name, sizeof(name), "b%llx", (unsigned long long)off);
		*b = LLVMAppendBasicBlockInContext(r->C, r->F, name);
	}
	return *b;
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
int rz_branch_target(const struct isa_inst *in, uint64_t *target)
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
int rz_long_branch_target(const struct decoded *d, size_t i, uint64_t *target)
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

/* Whether in writes a constant into SGPR reg (an add of reg and an inline or literal). */
static bool adds_constant_to(const struct isa_inst *in, unsigned reg)
{
	const struct isa_operand *c = in->nops >= 3 ? &in->ops[2] : NULL;
	return (in->op == ISA_OP_S_ADD_NC_U64 || in->op == ISA_OP_S_ADD_CO_U32 ||
	        in->op == ISA_OP_S_ADD_CO_CI_U32) &&
	       c && (c->kind == ISA_OPK_INLINE || c->kind == ISA_OPK_LITERAL) &&
	       in->ops[0].kind == ISA_OPK_SGPR && in->ops[1].kind == ISA_OPK_SGPR &&
	       in->ops[0].reg == in->ops[1].reg && (in->ops[0].reg & ~1u) == reg;
}

/* Whether operand o names an SGPR of the pair s[p:p+1]. */
static bool names_pair(const struct isa_operand *o, unsigned p)
{
	unsigned w = o->width ? o->width : 1;
	return o->kind == ISA_OPK_SGPR && o->reg < p + 2 && p < o->reg + w;
}

/* How far rz_pc_feeds_branch follows a code address before it calls the use unknown. */
#define PC_USE_SCAN 64

bool rz_pc_feeds_branch(const struct decoded *d, size_t i)
{
	const struct isa_inst *g = &d->insts[i];
	uint64_t target;
	unsigned p;

	if (!rz_long_branch_target(d, i, &target))
		return true;
	if (g->op != ISA_OP_S_GET_PC_I64 || g->nops < 1 || g->ops[0].kind != ISA_OPK_SGPR)
		return false;
	p = g->ops[0].reg;
	/*
	 * Follow s[p:p+1] forward in its block, as LLVM's calls use it (the callee's offset added,
	 * other instructions scheduled between, then s_swap_pc_i64): constants added into it keep
	 * it a code address; a swap or set of the PC to it is a branch; a write of anything else
	 * ends it unused.  Any other read, a block's end or a long way is a data use, as far as
	 * this can tell.
	 */
	for (size_t k = i + 1; k < d->n && k <= i + PC_USE_SCAN; k++) {
		const struct isa_inst *in = &d->insts[k];
		bool reads = false, writes = false;
		if ((in->op == ISA_OP_S_SWAP_PC_I64 && in->nops >= 2 &&
		     names_pair(&in->ops[1], p)) ||
		    (in->op == ISA_OP_S_SET_PC_I64 && in->nops >= 1 && names_pair(&in->ops[0], p)))
			return true;
		if (adds_constant_to(in, p))
			continue;
		for (unsigned o = 0; o < in->nops; o++) {
			if (!names_pair(&in->ops[o], p))
				continue;
			if (in->ops[o].role == ISA_ROLE_DST)
				writes = true;
			else
				reads = true;
		}
		if (reads)
			return false;
		if (writes)
			return true; /* overwritten before any use */
		if (in->flags & (ISA_F_BRANCH | ISA_F_CONDBR | ISA_F_TERM | ISA_F_CALL))
			return false;
	}
	return false;
}

/* How far rz_sgprs_dead_after follows the registers before it calls them read. */
#define DEAD_SCAN 64

/* The registers of o among the width w from s[p] (bit k: s[p + k]). */
static uint32_t sgprs_named(const struct isa_operand *o, unsigned p, unsigned w)
{
	unsigned ow = o->width ? o->width : 1;
	uint32_t m = 0;

	if (o->kind != ISA_OPK_SGPR)
		return 0;
	for (unsigned k = 0; k < w; k++)
		if (p + k >= o->reg && p + k < o->reg + ow)
			m |= 1u << k;
	return m;
}

/*
 * Whether in writes every register it names as a destination, whatever it computes: a VALU
 * SGPR result (a compare mask, a carry-out, v_readlane), an SMEM load, a SOP1/SOP2 result
 * except s_cmov (which keeps the old value when SCC is 0) and s_bitset0/1 (one bit of it).
 * Anything else writing the registers counts as a read.
 */
static bool writes_whole(const struct rz *r, const struct isa_inst *in)
{
	switch (in->format) {
	case ISA_FMT_VOP1:
	case ISA_FMT_VOP2:
	case ISA_FMT_VOPC:
	case ISA_FMT_VOP3:
	case ISA_FMT_VOP3P:
		return true;
	case ISA_FMT_SMEM: /* a load; a store's or an atomic's data is read */
		return (rz_row(r, in->op)->mem & ISA_M_KIND) == ISA_M_LOAD;
	case ISA_FMT_SOP1:
	case ISA_FMT_SOP2:
		return in->op != ISA_OP_S_CMOV_B32 && in->op != ISA_OP_S_CMOV_B64 &&
		       in->op != ISA_OP_S_BITSET0_B32 && in->op != ISA_OP_S_BITSET1_B32 &&
		       in->op != ISA_OP_S_BITSET0_B64 && in->op != ISA_OP_S_BITSET1_B64;
	default:
		return false;
	}
}

bool rz_sgprs_dead_after(const struct rz *r, const struct isa_operand *o)
{
	const struct decoded *d = r->dec;
	unsigned w = o->width ? o->width : 1;
	uint32_t left = (1u << w) - 1; /* the registers not yet overwritten */
	size_t i;

	if (!d || !r->in || r->in < d->insts || r->in >= d->insts + d->n ||
	    o->kind != ISA_OPK_SGPR || w > 16)
		return false;
	i = (size_t)(r->in - d->insts);
	/*
	 * Forward in .text order while control falls through (a block boundary is no end: every
	 * path through this instruction goes on to the next): a read of any of the registers
	 * (a source, or a destination written in part), an instruction mirage does not know, an
	 * M0-relative SGPR access, a branch, a call, a return, a trap or a long way keeps them
	 * live; a whole write of each of them, or s_endpgm, ends them unread.
	 */
	for (size_t k = i + 1; k < d->n && k <= i + DEAD_SCAN; k++) {
		const struct isa_inst *in = &d->insts[k];
		uint32_t written = 0;

		if (in->op == ISA_OP_UNKNOWN || in->op == ISA_OP_S_MOVRELS_B32 ||
		    in->op == ISA_OP_S_MOVRELS_B64 || in->op == ISA_OP_S_MOVRELD_B32 ||
		    in->op == ISA_OP_S_MOVRELD_B64)
			return false;
		for (unsigned j = 0; j < in->nops; j++) {
			uint32_t hit = sgprs_named(&in->ops[j], o->reg, w) & left;
			if (!hit)
				continue;
			if (in->ops[j].role != ISA_ROLE_DST || !writes_whole(r, in))
				return false;
			written |= hit;
		}
		left &= ~written;
		if (!left || in->op == ISA_OP_S_ENDPGM)
			return true;
		if (in->flags & (ISA_F_BRANCH | ISA_F_CONDBR | ISA_F_TERM | ISA_F_CALL) ||
		    in->op == ISA_OP_S_TRAP)
			return false;
	}
	return false;
}

static LLVMValueRef uniform_br(struct rz *r, LLVMValueRef cond, LLVMBasicBlockRef t,
                               LLVMBasicBlockRef f)
{
	LLVMValueRef br = LLVMBuildCondBr(r->B, cond, t, f);
	LLVMSetMetadata(br, r->md_uniform,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	return br;
}

/* Ends the block with a switch over the known code addresses in pc (i64), to their blocks (or
 * to[i]). */
static void pc_switch_to(struct rz *r, LLVMValueRef pc, const uint64_t *targets,
                         LLVMBasicBlockRef const *to, size_t n)
{
	LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(r->C, r->F, "bad_pc");
	LLVMValueRef sw = LLVMBuildSwitch(r->B, pc, bad, (unsigned)n);
	LLVMValueRef a[2];

	LLVMSetMetadata(sw, r->md_uniform,
	                LLVMMetadataAsValue(r->C, LLVMMDNodeInContext2(r->C, NULL, 0)));
	for (size_t i = 0; i < n; i++) {
		LLVMBasicBlockRef b = to ? to[i] : rz_block_at(r, targets[i] - r->co->text_addr);
		if (b)
			LLVMAddCase(sw, rz_const64(r, targets[i]), b);
	}
	LLVMPositionBuilderAtEnd(r->B, bad);
	a[0] = rz_const32(r, RAISE_INDIRECT_BRANCH);
	a[1] = rz_const32(r, rz_pc(r));
	rz_call(r, HOOK_FAULT, a, 2);
	LLVMBuildRetVoid(r->B);
}

static void pc_switch(struct rz *r, LLVMValueRef pc, const uint64_t *targets, size_t n)
{
	pc_switch_to(r, pc, targets, NULL, n);
}

void rz_pc_jump(struct rz *r, LLVMValueRef pc, uint64_t target, LLVMBasicBlockRef to)
{
	pc_switch_to(r, pc, &target, &to, 1);
}

static LLVMValueRef src64(struct rz *r, const struct isa_operand *o)
{
	return rz_src(r, o, 64, 0);
}

/* s_cbranch_{scc,vcc,exec}{z,nz}: a uniform branch to the label, else to the next. */
static int cond_branch(struct rz *r, const struct isa_inst *in, uint64_t next)
{
	LLVMBasicBlockRef fall = rz_block_at(r, next);
	uint64_t target = 0;
	LLVMValueRef cond;

	label_of(in, &target);
	if (in->op == ISA_OP_S_CBRANCH_SCC0 || in->op == ISA_OP_S_CBRANCH_SCC1) {
		cond = rz_load_scc(r);
		if (in->op == ISA_OP_S_CBRANCH_SCC0)
			cond = LLVMBuildNot(r->B, cond, "");
	} else {
		LLVMValueRef m =
		    in->op == ISA_OP_S_CBRANCH_EXECZ || in->op == ISA_OP_S_CBRANCH_EXECNZ
		        ? rz_load_exec(r)
		        : rz_load_vcc(r);
		bool z = in->op == ISA_OP_S_CBRANCH_EXECZ || in->op == ISA_OP_S_CBRANCH_VCCZ;
		cond = LLVMBuildICmp(r->B, z ? LLVMIntEQ : LLVMIntNE, m,
		                     LLVMConstNull(LLVMTypeOf(m)), "");
	}
	if (!fall)
		return rz_refuse(r, RAISE_UNTERMINATED, "a conditional branch at the end");
	uniform_br(r, cond, rz_block_at(r, target), fall);
	return 0;
}

/* s_setreg_imm32_b32: only writes that change nothing the raised code depends on. */
static int setreg_imm(struct rz *r, const struct isa_inst *in)
{
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
	return rz_refuse(r, RAISE_MODE, "hwreg %u bits [%u:%u]", id, offset + size - 1, offset);
}

/* SOPP, branches, calls, barriers, waits: returns 0 raised, -1 refused, 1 not control. */
int rz_control(struct rz *r, const struct isa_inst *in, const uint64_t *funcs, size_t nfuncs,
               const uint64_t *all_targets, size_t ntargets)
{
	uint64_t next = in->offset + in->size, target = 0;
	LLVMValueRef a[2];

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
	case ISA_OP_S_BARRIER_WAIT: /* rz_barrier_pairs() proved a signal precedes it on every path
	                             */
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
		LLVMBuildBr(r->B, rz_block_at(r, target));
		return 0;
	case ISA_OP_S_CBRANCH_SCC0:
	case ISA_OP_S_CBRANCH_SCC1:
	case ISA_OP_S_CBRANCH_VCCZ:
	case ISA_OP_S_CBRANCH_VCCNZ:
	case ISA_OP_S_CBRANCH_EXECZ:
	case ISA_OP_S_CBRANCH_EXECNZ:
		return cond_branch(r, in, next);
	case ISA_OP_S_ADD_PC_I64: /* raise_one() refused it unless rz_branch_target() knows where */
		rz_branch_target(in, &target);
		LLVMBuildBr(r->B, rz_block_at(r, target));
		return 0;
	case ISA_OP_S_GET_PC_I64:
		return rz_write(r, &in->ops[0], rz_const64(r, r->co->text_addr + next));
	case ISA_OP_S_CALL_I64:
		label_of(in, &target);
		if (rz_write(r, &in->ops[0], rz_const64(r, r->co->text_addr + next)))
			return -1;
		LLVMBuildBr(r->B, rz_block_at(r, target));
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
	case ISA_OP_S_SETREG_IMM32_B32:
		return setreg_imm(r, in);
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

int rz_barrier_pairs(struct rz *r, const struct decoded *d, const struct extent *ext, size_t next)
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
			           in->op != ISA_OP_S_BRANCH && rz_branch_target(in, &t)) {
				rc = rz_refuse(r, RAISE_BARRIER,
				               "a signalled barrier is not waited for before this");
			}
			if (!rc && !rz_branch_target(in, &t))
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
