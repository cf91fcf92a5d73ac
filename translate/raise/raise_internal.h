/* The raiser's state while it builds one kernel's function, and what its files share
 * (docs/raiser.md, "Layout"). */
#ifndef MIRAGE_RAISE_INTERNAL_H
#define MIRAGE_RAISE_INTERNAL_H

#include "mirage/isa.h"
#include "mirage/raise.h"

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum raise_hook {
#define RAISE_HOOK(id, name, ret, args, kind) HOOK_##id,
#include "mirage/raise_hooks.def"
#undef RAISE_HOOK
	HOOK_COUNT
};

#define NSGPR 108 /* s0..s105, vcc_lo (106), vcc_hi (107) */
#define NVGPR 1024
/* gfx942's AGPRs a0..a255 live in the VGPR slots from here (gfx942 has 512 VGPRs at most,
 * and gfx1250, whose VOPD spare is v1022, has no AGPRs). */
#define AGPR_SLOT0 512

/* The register slot of a VGPR or AGPR operand's first register. */
static inline unsigned rz_vector_slot(const struct isa_operand *o)
{
	return o->reg + (o->kind == ISA_OPK_AGPR ? AGPR_SLOT0 : 0);
}
#define NTTMP 16

struct rz {
	LLVMContextRef C;
	LLVMModuleRef M;
	LLVMBuilderRef B; /* the instruction being raised */
	LLVMBuilderRef A; /* allocas and their zero stores, in the entry block */
	LLVMValueRef F;
	LLVMTypeRef i1, i8, i16, i32, i64, f16, f32, f64, ptr, vd;
	LLVMValueRef hook[HOOK_COUNT];
	LLVMTypeRef hook_ty[HOOK_COUNT];
	LLVMValueRef sgpr[NSGPR], vgpr[NVGPR], ttmp[NTTMP];
	LLVMValueRef exec, exec_hi, scc, m0;
	LLVMValueRef lane; /* i32 lane id, computed once */
	unsigned md_lane_pred, md_uniform;
	/* the blocks of the code being raised, by (.text offset - blocks_lo) / 4, for offsets in
	 * [blocks_lo, blocks_hi): all of .text, or one function's copy (raise_inline.c) */
	LLVMBasicBlockRef *blocks;
	uint64_t blocks_lo, blocks_hi;
	unsigned copy; /* the copy being raised (raise_inline.c), 0: the kernel's code */
	const struct code_object *co;
	const struct co_kernel *k;
	unsigned arch;             /* enum isa_arch of the object's table */
	unsigned wave;             /* 32 or 64 lanes: the kernel's wave size (its descriptor) */
	LLVMTypeRef mask;          /* i32 or i64: EXEC, VCC and compare results at wave width */
	const struct isa_inst *in; /* being raised */
	const struct decoded *dec; /* every instruction raised, in .text order (in is one) */
	LLVMValueRef active;       /* this lane's EXEC bit for in, or NULL */
	const struct isa_operand *dpp_op; /* DPP: this source reads dpp_val instead */
	LLVMValueRef dpp_val;
	/* SDWA (GFX9): the sources whose byte/word select applies, and the destination */
	const struct isa_operand *sdwa_src[2], *sdwa_dst;
	/* GFX9 index mode: on (s_set_gpr_idx_on) and its mode bits (SRC0=1, SRC1=2, SRC2=4,
	 * DST=8); for the VALU instruction being raised, its indexed operands (src0..2, dst),
	 * which of them were accessed indexed, and the index (M0[7:0]) */
	bool gpr_idx_on;
	/* No LDS write since the lanes last met on this straight-line path (rz_lds_order) */
	bool lds_met;
	unsigned gpr_idx_mode, gpr_idx_used;
	const struct isa_operand *gpr_idx_op[4];
	LLVMValueRef gpr_idx_val;
	/* the instruction's modifiers (enum rz_mod bits) and those its handler applied */
	uint64_t mods_present, mods_used;
	struct raise_refusal *why;
	bool refused;
};

/*
 * Encoding modifiers (raise_mods.c): a handler that applies one marks it used; one left set and
 * unmarked after the handler is an unsupported-form refusal, never a dropped bit.
 */
#define RZ_MOD_OPERANDS 10 /* neg/abs per operand, by its index in isa_inst.ops */
enum rz_mod {
	RZ_MOD_CLAMP,
	RZ_MOD_OMOD,
	RZ_MOD_OP_SEL0, /* + source k; + 3 is the destination's */
	RZ_MOD_OP_SEL_HI0 = RZ_MOD_OP_SEL0 + 4,
	RZ_MOD_NEG_HI0 = RZ_MOD_OP_SEL_HI0 + 3,
	RZ_MOD_DPP = RZ_MOD_NEG_HI0 + 3,
	RZ_MOD_SDWA_SRC0,
	RZ_MOD_SDWA_SRC1,
	RZ_MOD_SDWA_DST,
	RZ_MOD_NEG0,
	RZ_MOD_ABS0 = RZ_MOD_NEG0 + RZ_MOD_OPERANDS,
	RZ_MOD_COUNT = RZ_MOD_ABS0 + RZ_MOD_OPERANDS
};
/* The modifiers instruction in sets. */
uint64_t rz_mods_present(const struct isa_inst *in);
/* Marks modifier m (enum rz_mod) applied for the instruction being raised. */
void rz_mod_used(struct rz *r, unsigned m);
/* Marks the neg/abs of flags (ISA_OPF_NEG | ISA_OPF_ABS) applied on operand o of r->in. */
void rz_operand_mods_used(struct rz *r, const struct isa_operand *o, unsigned flags);
/* After a handler raised r->in: -1 (refused) when a present modifier was not applied. */
int rz_mods_check(struct rz *r);

/* The row of op in the kernel's table (gfx1250 or gfx942/gfx950). */
static inline const struct isa_row *rz_row(const struct rz *r, unsigned op)
{
	return &isa_arch_rows(r->arch)[op];
}

/* Records the first refusal (for rz->in, or offset off when in is NULL); returns -1. */
int rz_refuse(struct rz *r, enum raise_reason reason, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The instruction's address as the code object has it (objdump's), for sites and reports. */
static inline uint64_t rz_pc(const struct rz *r)
{
	return r->co->text_addr + r->in->offset;
}

/* Hooks and constants (raise_hooks.c): every hook declared in r->M once, then called. */
void rz_declare_hooks(struct rz *r);
LLVMValueRef rz_call(struct rz *r, enum raise_hook h, LLVMValueRef *args, unsigned n);
LLVMValueRef rz_const32(struct rz *r, uint64_t v);
LLVMValueRef rz_const64(struct rz *r, uint64_t v);
LLVMValueRef rz_intrinsic(struct rz *r, const char *name, LLVMTypeRef *over, unsigned nover,
                          LLVMValueRef *args, unsigned nargs);
/* This lane's EXEC bit (i1), cached for the instruction. */
LLVMValueRef rz_active(struct rz *r);
LLVMValueRef rz_load_exec(struct rz *r);
/* Tags inst with !mirage.pc, the address of the instruction being raised: EXEC writes and
 * v_writelane's lane compare carry it for the amdgcn binding's proofs (docs/translate.md). */
void rz_tag_pc(struct rz *r, LLVMValueRef inst);
void rz_store_exec(struct rz *r, LLVMValueRef v);
/* VCC as a wave mask (i32 or i64). */
LLVMValueRef rz_load_vcc(struct rz *r);
LLVMValueRef rz_load_scc(struct rz *r);
void rz_store_scc(struct rz *r, LLVMValueRef i1);
/* Cross-lane ballot of pred (masked with this lane's EXEC bit). */
LLVMValueRef rz_ballot(struct rz *r, LLVMValueRef pred, unsigned k);
/* The value v of lane src_lane (per lane, i32): a cross-lane rendezvous (site k). */
LLVMValueRef rz_shuffle(struct rz *r, LLVMValueRef v, LLVMValueRef src_lane, unsigned k);
/* The bit of this lane in wave mask m (i1; m is i32 or i64). */
LLVMValueRef rz_lane_bit(struct rz *r, LLVMValueRef m);
/* A wave-mask operand (VCC, an SGPR pair, a constant) at the wave's width. */
LLVMValueRef rz_mask_src(struct rz *r, const struct isa_operand *o);
/* The value of v (i32) in this wave's first lane set in exec (lane 0 when none). */
LLVMValueRef rz_readfirstlane(struct rz *r, LLVMValueRef v, unsigned k);

/* Operand access: dword k of an operand (i32), bits of a source as an integer. */
LLVMValueRef rz_read32(struct rz *r, const struct isa_operand *o, unsigned k);
/* A source as an integer of bits (16/32/64); fp != 0 says float inline constants are of that
 * width's float type; neg/abs applied when fp. */
LLVMValueRef rz_src(struct rz *r, const struct isa_operand *o, unsigned bits, unsigned fp);
/* Writes: scalar destinations directly, VGPRs under this lane's EXEC bit. */
int rz_write32(struct rz *r, const struct isa_operand *o, unsigned k, LLVMValueRef v);
int rz_write(struct rz *r, const struct isa_operand *o, LLVMValueRef v); /* i32 or i64 */
/* A VGPR write that ignores EXEC (v_writelane), or an unpredicated one in a diamond. */
void rz_write_vgpr_raw(struct rz *r, unsigned reg, LLVMValueRef v32);
/* The alloca of a register, made (zeroed, in the entry block) on first use. */
LLVMValueRef rz_vgpr_slot(struct rz *r, unsigned reg);
LLVMValueRef rz_sgpr_slot(struct rz *r, unsigned i); /* s0..s105, 106/107 vcc_lo/hi */
LLVMValueRef rz_ttmp_slot(struct rz *r, unsigned i);

/* Lane predication: a diamond on this lane's EXEC bit; rz_pred_end joins. */
LLVMBasicBlockRef rz_pred_begin(struct rz *r);
void rz_pred_end(struct rz *r, LLVMBasicBlockRef join);

/* The entry state (raise_entry.c): user SGPRs, workgroup ids, v0 and EXEC; -1 refused. */
int rz_seed_entry(struct rz *r);

/* ---- control flow (raise_flow.c) ---- */

struct extent {
	uint64_t start, end; /* .text offsets */
	bool is_kernel;
	bool is_pool;        /* a trampoline in the rewriter's pool, reached by a branch */
	size_t first, count; /* its instructions in struct decoded */
};

/* The extent that holds .text offset off, or SIZE_MAX. */
static inline size_t rz_extent_at(const struct extent *ext, size_t next, uint64_t off)
{
	for (size_t e = 0; e < next; e++)
		if (off >= ext[e].start && off < ext[e].end)
			return e;
	return SIZE_MAX;
}

/* A helper function's extent (not the kernel's, not a trampoline). */
static inline bool rz_is_function(const struct extent *e)
{
	return !e->is_kernel && !e->is_pool;
}

struct decoded {
	struct isa_inst *insts;
	size_t n, cap;
};

/* The block that starts at .text offset off (made on first use), NULL outside .text. */
LLVMBasicBlockRef rz_block_at(struct rz *r, uint64_t off);
/* A direct branch's target (.text offset): 0, or -1 when it is not known statically. */
int rz_branch_target(const struct isa_inst *in, uint64_t *target);
/* The target of the long branch or far jump that starts at d->insts[i]: 0, or -1. */
int rz_long_branch_target(const struct decoded *d, size_t i, uint64_t *target);
/* The callees of the calls (and the targets of the jumps to constant addresses) among
 * d->insts[from, to), as .text offsets in a malloc'd array (raise_reach.c); *unknown says what
 * was not known statically (RZ_UNKNOWN_*, 0 for nothing).  -1 out of memory. */
int rz_reach_scan(const struct rz *r, const struct decoded *d, size_t from, size_t to,
                  uint64_t **callees, size_t *n, unsigned *unknown, uint64_t *target_of);
/* rz_reach_scan's *unknown: a call whose callee, a jump (or an indexed register write) whose
 * effect the scan could not follow */
#define RZ_UNKNOWN_CALL 1u
#define RZ_UNKNOWN_JUMP 2u
/* target_of[i - from], when given: where the call or constant s_set_pc_i64 at d->insts[i]
 * goes (a .text offset), else this. */
#define RZ_TARGET_UNKNOWN UINT64_MAX
/* Whether the s_get_pc_i64 at d->insts[i] only computes a branch or call target (a long
 * branch, a far jump, or LLVM's call sequence), never a data address. */
bool rz_pc_feeds_branch(const struct decoded *d, size_t i);
/* Whether the SGPRs of operand o, written by the instruction being raised, are overwritten
 * whole before anything reads them, on the straight-line code after it (or the wave ends):
 * then what the instruction writes there is never seen. */
bool rz_sgprs_dead_after(const struct rz *r, const struct isa_operand *o);
/* Every s_barrier_wait pairs with one signal on every path; -1 refused. */
int rz_barrier_pairs(struct rz *r, const struct decoded *d, const struct extent *ext, size_t next);

/*
 * Calls raised inline (raise_inline.c): when every call's callee and every jump is known, each
 * call raises its own copy of its callee, whose returns go back to that call's site only.
 */
struct rz_copy {
	size_t ext;            /* the function's extent; copy 0 is the kernel's code (SIZE_MAX) */
	size_t parent;         /* the copy whose call made this one */
	size_t call;           /* that call (an index in struct decoded) */
	size_t child0, nchild; /* the copies this copy's calls make */
	LLVMBasicBlockRef *blocks; /* by (offset - its extent's start) / 4; copy 0: rz.blocks */
};
struct rz_inline {
	struct rz_copy *c;
	size_t n;
	size_t instructions; /* raised in all: the sum of the copies' */
	uint64_t *target_of; /* by instruction: a call's callee, a constant s_set_pc_i64's target */
};
/* 0 and the copies (their blocks made at the leaders find_leaders made), 1 when the kernel's
 * calls are not raised so (a callee, a jump or a return not known, recursion, more than limit
 * instructions in all), -1 refused (out of memory). */
int rz_inline_plan(struct rz *r, const struct decoded *d, const struct extent *ext, size_t next,
                   size_t limit, struct rz_inline *out);
void rz_inline_free(struct rz_inline *p);
/* Makes copy c the one rz_block_at() reads (and names blocks for). */
void rz_inline_use(struct rz *r, const struct rz_inline *p, const struct extent *ext, size_t c);
/* In copy c, a call, or an s_set_pc_i64 (a return or a long branch): raised with its one known
 * target; 1 when in is neither. */
int rz_inline_control(struct rz *r, const struct rz_inline *p, const struct extent *ext, size_t c,
                      size_t i);

/* Handlers: 0 raised, -1 refused (rz_refuse called), 1 not this handler's. */
/* SOPP, branches, calls (funcs: the helpers' addresses), s_setpc (targets: every known code
 * address), barriers, waits, MODE writes (raise_flow.c). */
int rz_control(struct rz *r, const struct isa_inst *in, const uint64_t *funcs, size_t nfuncs,
               const uint64_t *all_targets, size_t ntargets);
/* Ends the block with a jump to pc (i64) when it is target, to block to; any other value is the
 * indirect-branch fault. */
void rz_pc_jump(struct rz *r, LLVMValueRef pc, uint64_t target, LLVMBasicBlockRef to);
int rz_salu(struct rz *r, const struct isa_inst *in);
/* Before a raised LDS access (write: it may store): the wave's lanes meet unless nothing
 * since their last meeting on this path could make the access see another order (raise_mem.c). */
void rz_lds_order(struct rz *r, bool write);
/* gfx12's scalar float ops, SOP1, SOP2 and SOPC (raise_sfloat.c), offered first by rz_salu. */
int rz_sfloat(struct rz *r, const struct isa_inst *in);
int rz_valu(struct rz *r, const struct isa_inst *in);
int rz_mem(struct rz *r, const struct isa_inst *in);
/* v_movrel* and s_movrel*: relative register indexing through M0 (raise_movrel.c). */
int rz_movrel(struct rz *r, const struct isa_inst *in);
/* Dynamic register access, shared by v_movrel* and GFX9 index mode (raise_movrel.c): how many
 * registers of the VGPR (or SGPR) file an index may reach; a run-time fault unless idx < n;
 * register base + t (t < n) read as a select chain, or written with one select per register. */
unsigned rz_index_file(struct rz *r, bool vector);
void rz_index_check(struct rz *r, LLVMValueRef idx, unsigned n);
LLVMValueRef rz_read_indexed(struct rz *r, const struct isa_operand *base, LLVMValueRef t,
                             unsigned n);
int rz_write_indexed(struct rz *r, const struct isa_operand *base, LLVMValueRef t, unsigned n,
                     LLVMValueRef v);
/* GFX9 VGPR index mode (raise_gpr_idx.c): s_set_gpr_idx_on/off/mode/idx (0 raised, -1
 * refused, 1 not one); before a VALU instruction in the mode, its indexed operands and the
 * index (rz_gpr_idx_begin), after it the check that each was accessed indexed. */
int rz_gpr_idx(struct rz *r, const struct isa_inst *in, bool block_start);
int rz_gpr_idx_begin(struct rz *r, const struct isa_inst *in);
int rz_gpr_idx_end(struct rz *r);
/* An indexed operand's dword k: the value read (NULL: o is not indexed) or written (1: not). */
LLVMValueRef rz_gpr_idx_read(struct rz *r, const struct isa_operand *o, unsigned k);
int rz_gpr_idx_write(struct rz *r, const struct isa_operand *o, unsigned k, LLVMValueRef v);

#endif
