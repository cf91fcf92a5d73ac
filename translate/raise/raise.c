/*
 * The raiser's driver: the kernel's extents decoded (with the helpers it calls and the
 * rewriter's trampolines), leaders and blocks, then each instruction through the handlers in
 * turn (control flow, scalar, memory, vector), and the checks at the end.  The handlers use
 * register access (raise_regs.c), never the other way round.
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

/* ---- decoding the extents ---- */

static int decode_extent(struct rz *r, struct extent *e, struct decoded *d)
{
	struct isa_state st;
	const struct code_object *co = r->co;

	e->first = d->n;
	e->count = 0;
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
		e->count++;
		off += in->size;
		if (in->flags & ISA_F_TERM)
			isa_state_reset(&st);
	}
	r->in = NULL;
	return 0;
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
	return rz_extent_at(ext, next, off) != SIZE_MAX;
}

/* Whether off starts one of the extents (a function entry). */
static bool in_extents_start(const struct extent *ext, size_t next, uint64_t off)
{
	for (size_t e = 0; e < next; e++)
		if (ext[e].start == off)
			return true;
	return false;
}

/* Decodes helper function f as extent ext[*next] unless it is one already. */
static int decode_helper(struct rz *r, struct decoded *d, struct extent *ext, size_t *next,
                         const struct co_func *f)
{
	uint64_t start = f->addr - r->co->text_addr;

	if (is_kernel_func(r->co, f->name) || !f->size || in_extents_start(ext, *next, start))
		return 0;
	ext[*next] = (struct extent){.start = start, .end = start + f->size};
	if (decode_extent(r, &ext[*next], d))
		return -1;
	(*next)++;
	return 0;
}

/*
 * The helper functions the kernel calls, and what they call in turn (raise_reach.c), each
 * decoded once.  When a call's callee is not known statically, or is not the start of a
 * function, every helper of the object is decoded: calls are then resolved at run time over
 * all of them.  ext has room for every function of the object.
 */
static int decode_helpers(struct rz *r, struct decoded *d, struct extent *ext, size_t *next)
{
	const struct code_object *co = r->co;
	size_t scanned = 0;
	bool every = false;

	while (!every && scanned < d->n) {
		uint64_t *callees = NULL;
		size_t n = 0, upto = d->n;
		unsigned unknown = 0;
		if (rz_reach_scan(r, d, scanned, upto, &callees, &n, &unknown, NULL))
			return rz_refuse(r, RAISE_DECODE, "out of memory");
		every = unknown != 0;
		scanned = upto;
		for (size_t c = 0; c < n && !every; c++) {
			const struct co_func *f = NULL;
			for (size_t i = 0; i < co->nfuncs && !f; i++)
				if (co->funcs[i].addr == co->text_addr + callees[c] &&
				    co->funcs[i].size)
					f = &co->funcs[i];
			if (!f) {
				/* a jump inside the code already decoded (a long branch) is
				 * no call; anything else is not a function the scan knows */
				every = !in_extents(ext, *next, callees[c]);
				continue;
			}
			if (decode_helper(r, d, ext, next, f)) {
				free(callees);
				return -1;
			}
		}
		free(callees);
	}
	for (size_t i = 0; every && i < co->nfuncs; i++)
		if (decode_helper(r, d, ext, next, &co->funcs[i]))
			return -1;
	return 0;
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
		if ((rz_branch_target(&d->insts[i], &t) && rz_long_branch_target(d, i, &t)) ||
		    t < co->pool_start || t >= co->pool_end || in_extents(*ext, *next, t))
			continue;
		if (*next == *cap) {
			void *p = realloc(*ext, 2 * *cap * sizeof(**ext));
			if (!p)
				return rz_refuse(r, RAISE_DECODE, "out of memory");
			*ext = p;
			*cap *= 2;
		}
		(*ext)[*next] = (struct extent){
		    .start = t, .end = trampoline_end(co, r->arch, t), .is_pool = true};
		if (decode_extent(r, &(*ext)[*next], d))
			return -1;
		(*next)++;
	}
	return 0;
}

/* The addresses calls and s_setpc may reach, as a sorted set of one each. */
struct code_targets {
	uint64_t *funcs, *targets; /* helper functions; every known code address */
	size_t nfuncs, ntargets;
};

/*
 * Leaders (extent starts, branch targets, what follows a branch, call or terminator) made
 * blocks, every branch's target checked, and the addresses calls and s_setpc may reach.
 */
static int find_leaders(struct rz *r, const struct decoded *d, const struct extent *ext,
                        size_t next, struct code_targets *ct)
{
	uint64_t *funcs, *targets;
	size_t nfuncs = 0, ntargets = 0;

	ct->funcs = funcs = calloc(next + 1, sizeof(*funcs));
	ct->targets = targets = calloc(next + d->n + 1, sizeof(*targets));
	if (!funcs || !targets)
		return -1;
	for (size_t e = 0; e < next; e++) {
		rz_block_at(r, ext[e].start);
		if (!ext[e].is_kernel && !ext[e].is_pool)
			funcs[nfuncs++] = r->co->text_addr + ext[e].start;
		targets[ntargets++] = r->co->text_addr + ext[e].start;
	}
	for (size_t i = 0; i < d->n; i++) {
		const struct isa_inst *in = &d->insts[i];
		uint64_t t;
		r->in = in;
		if (in->op == ISA_OP_S_ADD_PC_I64 && rz_branch_target(in, &t)) {
			rz_refuse(r, RAISE_INDIRECT_BRANCH,
			          "s_add_pc_i64 of a register: the target is not known");
			return -1;
		}
		if ((in->flags & (ISA_F_BRANCH | ISA_F_CONDBR)) || in->op == ISA_OP_S_ADD_PC_I64) {
			if (rz_branch_target(in, &t) || !rz_block_at(r, t)) {
				rz_refuse(r, RAISE_INDIRECT_BRANCH,
				          "the branch target is outside .text");
				return -1;
			}
			if (!in_extents(ext, next, t)) {
				/* code no function symbol covers (a patch pool, data) is never
				 * decoded */
				rz_refuse(
				    r, RAISE_INDIRECT_BRANCH,
				    "the branch target 0x%llx is outside the kernel's functions",
				    (unsigned long long)(r->co->text_addr + t));
				return -1;
			}
		}
		if (in->flags & (ISA_F_BRANCH | ISA_F_CONDBR | ISA_F_TERM | ISA_F_CALL))
			if (in->offset + in->size < r->co->text_size)
				rz_block_at(r, in->offset + in->size);
		if (in->flags & ISA_F_CALL)
			targets[ntargets++] = r->co->text_addr + in->offset + in->size;
		/* A long branch's s_setpc_b64 goes where its constants say: a case of every
		 * s_setpc switch, which LLVM folds to a branch. */
		if (!rz_long_branch_target(d, i, &t) && in_extents(ext, next, t) &&
		    rz_block_at(r, t))
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
	ct->nfuncs = nfuncs;
	ct->ntargets = ntargets;
	return 0;
}

/* Whether RSRC1's float mode applies to in: it reads float sources (either half of a VOPD
 * pair), or converts an integer to a float that can round (a 32-bit integer has more digits than
 * an f32, a 16-bit one than an f16, and 65535 is past the largest f16). */
static bool uses_float_mode(const struct rz *r, const struct isa_inst *in)
{
	uint32_t flags = in->flags;
	if (in->format == ISA_FMT_VOPD || in->format == ISA_FMT_VOPD3)
		flags |= rz_row(r, in->op_y)->flags;
	switch (in->op) {
	case ISA_OP_V_CVT_F32_I32:
	case ISA_OP_V_CVT_F32_U32:
	case ISA_OP_S_CVT_F32_I32:
	case ISA_OP_S_CVT_F32_U32:
	case ISA_OP_V_CVT_F16_I16:
	case ISA_OP_V_CVT_F16_U16:
		return true;
	default:
		return flags & (ISA_F_FLOAT | ISA_F_F16);
	}
}

/* owner[j] of a function's or trampoline's entry no return goes to */
#define NO_RETURN (RZ_TARGET_UNKNOWN - 1)

/*
 * Which return sites each function's returns may reach: owner[j] is the start of the function
 * whose calls return to ct->targets[j]; RZ_TARGET_UNKNOWN when every s_set_pc_i64 keeps it (a
 * long branch's target, the site of a call raise_reach.c could not follow, a site that is also
 * a function's entry); NO_RETURN for an entry that is none of those.  A return then switches
 * over its own function's sites only, instead of every function's body merging into every
 * return site and every function's entry: with no jump the scan could not follow, only a call
 * enters a function.  An address outside them is the indirect-branch fault, as before.  *owner is
 * NULL (every s_set_pc_i64 keeps every target) when a constant jump enters another function (a tail
 * call: the callee's returns go to its jumper's callers), or when a jump or register write the scan
 * could not follow may do so.
 */
static int return_owners(struct rz *r, const struct decoded *d, const struct extent *ext,
                         size_t next, const struct code_targets *ct, uint64_t **owner)
{
	uint64_t *to = calloc(d->n + 1, sizeof(*to)), *own = NULL, *callees = NULL;
	size_t n = 0;
	unsigned unknown = 0;
	int rc = -1;

	*owner = NULL;
	if (!to || rz_reach_scan(r, d, 0, d->n, &callees, &n, &unknown, to))
		goto out;
	if (unknown & RZ_UNKNOWN_JUMP) {
		rc = 0; /* it may be a tail call: no narrowing */
		goto out;
	}
	own = malloc((ct->ntargets + 1) * sizeof(*own));
	if (!own)
		goto out;
	for (size_t j = 0; j < ct->ntargets; j++)
		own[j] = in_extents_start(ext, next, ct->targets[j] - r->co->text_addr)
		             ? NO_RETURN
		             : RZ_TARGET_UNKNOWN;
	for (size_t i = 0; i < d->n; i++) {
		const struct isa_inst *in = &d->insts[i];
		uint64_t site = r->co->text_addr + in->offset + in->size;
		const uint64_t *at;
		if (in->op == ISA_OP_S_SET_PC_I64 && to[i] != RZ_TARGET_UNKNOWN)
			for (size_t e = 1; e < next; e++)
				if (ext[e].start == to[i] && !ext[e].is_pool) {
					rc = 0; /* a tail call: no narrowing */
					goto out;
				}
		if (!(in->flags & ISA_F_CALL))
			continue;
		at = bsearch(&site, ct->targets, ct->ntargets, sizeof(*at), cmp_u64);
		if (at)
			own[at - ct->targets] =
			    to[i] == RZ_TARGET_UNKNOWN ||
			            in_extents_start(ext, next, site - r->co->text_addr)
			        ? RZ_TARGET_UNKNOWN
			        : to[i];
	}
	/* a site a long branch also lands on is every s_set_pc_i64's */
	for (size_t i = 0; i < d->n; i++) {
		uint64_t t = to[i], a;
		const uint64_t *at;
		if (d->insts[i].op != ISA_OP_S_SET_PC_I64 || t == RZ_TARGET_UNKNOWN)
			continue;
		a = r->co->text_addr + t;
		at = bsearch(&a, ct->targets, ct->ntargets, sizeof(*at), cmp_u64);
		if (at)
			own[at - ct->targets] = RZ_TARGET_UNKNOWN;
	}
	*owner = own;
	own = NULL;
	rc = 0;
out:
	free(to);
	free(own);
	free(callees);
	return rc;
}

/* The targets an s_set_pc_i64 in the function that starts at fn may reach, into sel. */
static size_t returns_of(const struct code_targets *ct, const uint64_t *owner, uint64_t fn,
                         uint64_t *sel)
{
	size_t n = 0;
	for (size_t j = 0; j < ct->ntargets; j++)
		if (owner[j] == RZ_TARGET_UNKNOWN || owner[j] == fn)
			sel[n++] = ct->targets[j];
	return n;
}

/* What raising the instructions needs besides rz: the calls' shape. */
struct emit {
	struct code_targets ct;
	uint64_t *owner, *sel; /* calls shared by their callers: each return's sites */
	struct rz_inline inl;  /* or calls raised inline (inl.n copies) */
	size_t copy;           /* the copy being raised */
	bool open_block;
};

/* One instruction, d->insts[i] of extent e: 0, or -1 refused. */
static int raise_inst(struct rz *r, const struct decoded *d, const struct extent *ext, size_t next,
                      size_t e, size_t i, struct emit *em, struct raise_result *res)
{
	const struct isa_inst *in = &d->insts[i];
	LLVMBasicBlockRef here = r->blocks[(in->offset - r->blocks_lo) / 4];
	bool fall_in = here && em->open_block;
	int h;

	r->in = in;
	r->active = NULL;
	r->dpp_op = NULL;
	r->sdwa_src[0] = r->sdwa_src[1] = r->sdwa_dst = NULL;
	r->mods_present = rz_mods_present(in);
	r->mods_used = 0;
	if (!em->open_block) /* a branch in index mode was refused: every block starts off */
		r->gpr_idx_on = false;
	if (here) {
		if (em->open_block)
			LLVMBuildBr(r->B, here);
		LLVMPositionBuilderAtEnd(r->B, here);
		r->lds_met = false;
		em->open_block = true;
	} else if (!em->open_block) {
		/* Code after a terminator that no branch reaches. */
		LLVMPositionBuilderAtEnd(r->B,
		                         LLVMAppendBasicBlockInContext(r->C, r->F, "unreached"));
		em->open_block = true;
	}
	h = rz_gpr_idx(r, in, fall_in);
	if (h == 1 && !r->refused)
		h = rz_gpr_idx_begin(r, in) ? -1 : 1;
	if (h == 1 && em->inl.n)
		h = rz_inline_control(r, &em->inl, ext, em->copy, i);
	if (h == 1 && in->op == ISA_OP_S_SET_PC_I64 && em->owner)
		h = rz_control(r, in, em->ct.funcs, em->ct.nfuncs, em->sel,
		               returns_of(&em->ct, em->owner, ext[e].start, em->sel));
	if (h == 1)
		h = rz_control(r, in, em->ct.funcs, em->ct.nfuncs, em->ct.targets, em->ct.ntargets);
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
		return -1;
	res->instructions++;
	if (in->op == ISA_OP_S_GET_PC_I64 && !rz_pc_feeds_branch(d, i))
		res->reads_image = 1;
	if (!res->has_float && uses_float_mode(r, in)) {
		res->has_float = 1;
		res->first_float.offset = r->co->text_addr + in->offset;
		snprintf(res->first_float.mnemonic, sizeof(res->first_float.mnemonic), "%s",
		         isa_inst_mnemonic(in));
	}
	if (in->flags & (ISA_F_BRANCH | ISA_F_CONDBR | ISA_F_TERM | ISA_F_CALL) ||
	    in->op == ISA_OP_S_TRAP)
		em->open_block = false;
	return 0;
}

/* Extent e's instructions (in the copy being raised): 0, or -1 refused. */
static int raise_extent(struct rz *r, const struct decoded *d, const struct extent *ext,
                        size_t next, size_t e, struct emit *em, struct raise_result *res)
{
	em->open_block = false;
	for (size_t i = ext[e].first; i < ext[e].first + ext[e].count; i++)
		if (raise_inst(r, d, ext, next, e, i, em, res))
			return -1;
	if (!em->open_block)
		return 0;
	r->in = ext[e].count ? &d->insts[ext[e].first + ext[e].count - 1] : NULL;
	return rz_refuse(r, RAISE_UNTERMINATED, "%s ends without s_endpgm or a branch",
	                 ext[e].is_kernel ? "the kernel"
	                 : ext[e].is_pool ? "a trampoline"
	                                  : "a helper function");
}

/* Every instruction: once, or with calls raised inline once per copy of its function. */
static int raise_code(struct rz *r, const struct decoded *d, const struct extent *ext, size_t next,
                      struct emit *em, struct raise_result *res)
{
	if (!em->inl.n) {
		for (size_t e = 0; e < next; e++)
			if (raise_extent(r, d, ext, next, e, em, res))
				return -1;
		return 0;
	}
	for (size_t c = 0; c < em->inl.n; c++) {
		size_t own = em->inl.c[c].ext;
		rz_inline_use(r, &em->inl, ext, c);
		em->copy = c;
		for (size_t e = 0; e < next; e++)
			if ((c ? e == own : !rz_is_function(&ext[e])) &&
			    raise_extent(r, d, ext, next, e, em, res))
				return -1;
	}
	rz_inline_use(r, &em->inl, ext, 0);
	return 0;
}

/* Above this many raised instructions, calls are shared by their callers instead of inlined. */
#define INLINE_LIMIT 150000

static int raise_one(struct rz *r, struct decoded *d, struct extent *ext, size_t next,
                     struct raise_result *res)
{
	struct emit em = {0};
	LLVMBasicBlockRef entry, seed;
	int rc = -1;

	r->dec = d;
	if (find_leaders(r, d, ext, next, &em.ct))
		goto out;
	if (res->uses_calls) {
		int plan = rz_inline_plan(r, d, ext, next, INLINE_LIMIT, &em.inl);
		if (plan < 0)
			goto out;
		em.sel = plan ? malloc((em.ct.ntargets + 1) * sizeof(*em.sel)) : NULL;
		if (plan && (!em.sel || return_owners(r, d, ext, next, &em.ct, &em.owner)))
			goto out;
	}
	if (rz_barrier_pairs(r, d, ext, next))
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
	if (rz_seed_entry(r))
		goto out;
	LLVMBuildBr(r->B, rz_block_at(r, ext[0].start));
	rc = raise_code(r, d, ext, next, &em, res);
out:
	r->dec = NULL;
	free(em.ct.funcs);
	free(em.ct.targets);
	free(em.owner);
	free(em.sel);
	rz_inline_free(&em.inl);
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
	LLVMBasicBlockRef *all_blocks = NULL; /* r->blocks may be a copy's (raise_inline.c) */
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
	r->blocks = all_blocks = calloc(co->text_size / 4 + 1, sizeof(*r->blocks));
	r->blocks_hi = co->text_size;
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
	ext[next++] = (struct extent){.start = k->entry - co->text_addr,
	                              .end = k->entry - co->text_addr + k->size,
	                              .is_kernel = true};
	if (decode_extent(r, &ext[0], &d))
		goto out;
	for (size_t i = 0; i < d.n; i++)
		if (d.insts[i].flags & ISA_F_CALL || d.insts[i].op == ISA_OP_S_SET_PC_I64)
			res->uses_calls = 1;
	if (res->uses_calls && decode_helpers(r, &d, ext, &next))
		goto out;

	if (follow_pool(r, &ext, &next, &ext_cap, &d))
		goto out;

	r->M = LLVMModuleCreateWithNameInContext(k->name, ctx);
	r->B = LLVMCreateBuilderInContext(ctx);
	r->A = LLVMCreateBuilderInContext(ctx);
	rz_declare_hooks(r);
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
	free(all_blocks);
	free(d.insts);
	free(ext);
	free(r);
	return rc;
}
