/*
 * The WaveNative proofs (amdgcn.h, docs/translate.md), on the raised IR after mem2reg, where
 * every EXEC write is one SSA value and every branch one terminator:
 *
 * - containment: each value written to EXEC is within the entry EXEC.  A greatest fixed point
 *   over the values the writes reach: the entry EXEC and ballots (masked with the lane's EXEC
 *   bit by the raiser) are within; the constant 0 is; and(a, b) is when either is; or, xor,
 *   select and phi when all their inputs are; zext, trunc and freeze when their input is.
 *   Anything else (a constant -1, a kernarg load, a shift) is unproven.
 * - lanes: v_writelane writes only lane 0, the one lane every half with lanes has.
 *   Either failing is not a refusal: the kernel is translated in whole-wave mode
 *   (amdgcn_whole_wave.c), under which every half has all 32 lanes of its source wave and the
 *   write means the same.
 * - uniformity: no barrier is control dependent on a branch that may go differently in the two
 *   halves of a wave64.  Values that may differ between halves start at the per-half hooks
 *   (entry EXEC, ballot, readlane, lane and workitem ids, a readfirstlane of such a value)
 *   and flow through every user; a branch on such a value (or a lane-predication branch) is
 *   divergent, and so are the phis of its region and join and the values its region defines
 *   and others use.
 */
#include "amdgcn.h"
#include "mirage/isa.h"
#include "valmap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *callee_name(LLVMValueRef call)
{
	LLVMValueRef f = LLVMGetCalledValue(call);
	size_t len;
	return f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : "";
}

static int is_call_to(LLVMValueRef v, const char *name)
{
	return LLVMIsACallInst(v) && !strcmp(callee_name(v), name);
}

static void refuse(struct raise_refusal *why, const struct code_object *co,
                   const struct co_kernel *k, uint64_t pc, enum raise_reason reason,
                   const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void refuse(struct raise_refusal *why, const struct code_object *co,
                   const struct co_kernel *k, uint64_t pc, enum raise_reason reason,
                   const char *fmt, ...)
{
	struct isa_inst in;
	va_list ap;

	memset(why, 0, sizeof(*why));
	snprintf(why->kernel, sizeof(why->kernel), "%s", k->name);
	why->offset = pc ? pc : k->entry;
	why->reason = reason;
	if (pc >= co->text_addr && pc - co->text_addr < co->text_size &&
	    isa_decode_gfx1250(co->text, co->text_size, pc - co->text_addr, NULL, &in) == ISA_OK)
		snprintf(why->mnemonic, sizeof(why->mnemonic), "%s", isa_inst_mnemonic(&in));
	va_start(ap, fmt);
	vsnprintf(why->detail, sizeof(why->detail), fmt, ap);
	va_end(ap);
}

/* ---- containment ---- */

void amdgcn_mark_exec_writes(LLVMModuleRef m, LLVMValueRef fn)
{
	LLVMContextRef C = LLVMGetModuleContext(m);
	LLVMTypeRef params[2] = {LLVMInt32TypeInContext(C), LLVMInt64TypeInContext(C)};
	LLVMTypeRef ty = LLVMFunctionType(LLVMVoidTypeInContext(C), params, 2, 0);
	LLVMValueRef marker = LLVMGetNamedFunction(m, AMDGCN_EXEC_WRITE);
	unsigned pc_kind = LLVMGetMDKindIDInContext(C, "mirage.pc", 9);
	LLVMBuilderRef B = LLVMCreateBuilderInContext(C);

	if (!marker)
		marker = LLVMAddFunction(m, AMDGCN_EXEC_WRITE, ty);
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i)) {
			LLVMValueRef p, md, args[2];
			size_t len;
			if (!LLVMIsAStoreInst(i))
				continue;
			p = LLVMGetOperand(i, 1);
			if (!LLVMIsAAllocaInst(p) || strcmp(LLVMGetValueName2(p, &len), "exec"))
				continue;
			args[0] = LLVMGetOperand(i, 0);
			args[1] = LLVMConstInt(params[1], 0, 0);
			md = LLVMGetMetadata(i, pc_kind);
			if (md && LLVMGetMDNodeNumOperands(md) == 1) {
				LLVMValueRef op;
				LLVMGetMDNodeOperands(md, &op);
				if (op && LLVMIsAConstantInt(op))
					args[1] = op;
			}
			LLVMPositionBuilderBefore(B, i);
			LLVMBuildCall2(B, ty, marker, args, 2, "");
		}
	LLVMDisposeBuilder(B);
}

enum {
	C_IN,
	C_OUT
};

struct contain {
	struct valmap index;
	LLVMValueRef *vals;
	int *state;
	size_t n, cap;
	int oom;
};

/* Whether v is a node whose verdict depends on its operands. */
static int is_inner(LLVMValueRef v)
{
	if (!LLVMIsAInstruction(v))
		return 0;
	switch (LLVMGetInstructionOpcode(v)) {
	case LLVMAnd:
	case LLVMOr:
	case LLVMXor:
	case LLVMSelect:
	case LLVMPHI:
	case LLVMZExt:
	case LLVMTrunc:
	case LLVMFreeze:
		return 1;
	default:
		return 0;
	}
}

static int leaf_within(LLVMValueRef v)
{
	if (LLVMIsAConstantInt(v))
		return LLVMConstIntGetZExtValue(v) == 0;
	return is_call_to(v, "mx.entry_exec") || is_call_to(v, "mx.ballot");
}

static void add_node(struct contain *c, LLVMValueRef v)
{
	if (valmap_get(&c->index, v) >= 0 || c->oom)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 64;
		LLVMValueRef *vals = realloc(c->vals, cap * sizeof(*vals));
		int *state = vals ? realloc(c->state, cap * sizeof(*state)) : NULL;
		if (vals)
			c->vals = vals;
		if (!state) {
			c->oom = 1;
			return;
		}
		c->state = state;
		c->cap = cap;
	}
	if (valmap_put(&c->index, v, (int)c->n)) {
		c->oom = 1;
		return;
	}
	c->vals[c->n] = v;
	c->state[c->n++] = is_inner(v) ? C_IN : (leaf_within(v) ? C_IN : C_OUT);
}

static int within(const struct contain *c, LLVMValueRef v)
{
	int i = valmap_get(&c->index, v);
	return i >= 0 && c->state[i] == C_IN;
}

/* The verdict of inner node v from its operands' current verdicts. */
static int inner_within(const struct contain *c, LLVMValueRef v)
{
	int n = LLVMGetNumOperands(v);
	switch (LLVMGetInstructionOpcode(v)) {
	case LLVMAnd:
		return within(c, LLVMGetOperand(v, 0)) || within(c, LLVMGetOperand(v, 1));
	case LLVMSelect:
		return within(c, LLVMGetOperand(v, 1)) && within(c, LLVMGetOperand(v, 2));
	default:
		for (int i = 0; i < n; i++)
			if (!within(c, LLVMGetOperand(v, i)))
				return 0;
		return 1;
	}
}

/* Adds v and every value its verdict depends on. */
static void collect(struct contain *c, LLVMValueRef root)
{
	size_t from = c->n;
	add_node(c, root);
	for (size_t i = from; i < c->n && !c->oom; i++) {
		LLVMValueRef v = c->vals[i];
		int n;
		if (!is_inner(v))
			continue;
		n = LLVMGetNumOperands(v);
		for (int o = LLVMGetInstructionOpcode(v) == LLVMSelect ? 1 : 0; o < n; o++)
			add_node(c, LLVMGetOperand(v, o));
	}
}

/* 0 proven; 1 unproven (*why names the site: whole-wave mode makes it exact); -1 refused. */
static int prove_containment(LLVMValueRef *marks, size_t nmarks, const struct code_object *co,
                             const struct co_kernel *k, struct raise_refusal *why)
{
	struct contain c = {0};
	LLVMValueRef first = NULL;
	uint64_t first_pc = 0;
	int changed = 1, rc = 0;

	for (size_t i = 0; i < nmarks; i++)
		collect(&c, LLVMGetOperand(marks[i], 0));
	while (changed && !c.oom) {
		changed = 0;
		for (size_t i = 0; i < c.n; i++)
			if (c.state[i] == C_IN && is_inner(c.vals[i]) &&
			    !inner_within(&c, c.vals[i])) {
				c.state[i] = C_OUT;
				changed = 1;
			}
	}
	/* The first unproven write in address order: what a reader of the disassembly meets. */
	for (size_t i = 0; i < nmarks; i++) {
		LLVMValueRef v = LLVMGetOperand(marks[i], 0), pc = LLVMGetOperand(marks[i], 1);
		uint64_t at = LLVMIsAConstantInt(pc) ? LLVMConstIntGetZExtValue(pc) : 0;
		if ((c.oom || !within(&c, v)) && (!first || at < first_pc)) {
			first = marks[i];
			first_pc = at;
		}
	}
	if (first) {
		LLVMValueRef v = LLVMGetOperand(first, 0);
		if (c.oom) {
			refuse(why, co, k, first_pc, RAISE_EXEC_CONTAINMENT,
			       "out of memory in the proof");
			rc = -1;
		} else if (LLVMIsAConstantInt(v))
			refuse(why, co, k, first_pc, RAISE_EXEC_CONTAINMENT,
			       "EXEC is set to 0x%llx, beyond the lanes the wave started with",
			       LLVMConstIntGetZExtValue(v));
		else
			refuse(
			    why, co, k, first_pc, RAISE_EXEC_CONTAINMENT,
			    "the value written to EXEC is not derived from the entry EXEC, ballots "
			    "and 0 by and/or/xor/select");
		if (!c.oom)
			rc = 1;
	}
	valmap_free(&c.index);
	free(c.vals);
	free(c.state);
	return rc;
}

/* ---- uniformity across the two halves ---- */

struct cfg {
	LLVMValueRef fn;
	struct valmap index; /* block -> index */
	LLVMBasicBlockRef *blocks;
	int n;         /* blocks; node n is the virtual exit */
	int *ipdom;    /* immediate post-dominator, n for the exit */
	int *po;       /* post-order number on the reverse graph */
	char *region;  /* inside a divergent branch's region (or its join) */
	char *is_join; /* the join (ipdom) of a divergent branch */
};

static int block_index(const struct cfg *g, LLVMBasicBlockRef b)
{
	return valmap_get(&g->index, b);
}

static int nsucc(LLVMBasicBlockRef b)
{
	LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
	return t ? (int)LLVMGetNumSuccessors(t) : 0;
}

static int succ(const struct cfg *g, LLVMBasicBlockRef b, int i)
{
	return block_index(g, LLVMGetSuccessor(LLVMGetBasicBlockTerminator(b), (unsigned)i));
}

/*
 * Post-dominators (Cooper, Harvey and Kennedy's iteration) on the reverse CFG rooted at a
 * virtual exit that every block without successors reaches.  Blocks that never reach an exit
 * get the virtual exit, which makes their regions as large as can be.
 */
static int postdominators(struct cfg *g)
{
	int n = g->n, *order = malloc(sizeof(int) * (size_t)(n + 1));
	int *stack = malloc(sizeof(int) * (size_t)(n + 1) * 2), sp = 0, k = 0;
	char *seen = calloc((size_t)n + 1, 1);
	int **preds = calloc((size_t)n, sizeof(int *)), *npred = calloc((size_t)n, sizeof(int));
	int changed = 1, rc = -1;

	if (!order || !stack || !seen || !preds || !npred)
		goto done;
	/* CFG predecessors: the reverse graph's successors. */
	for (int b = 0; b < n; b++)
		for (int s = 0; s < nsucc(g->blocks[b]); s++) {
			int t = succ(g, g->blocks[b], s);
			int *p = realloc(preds[t], sizeof(int) * (size_t)(npred[t] + 1));
			if (!p)
				goto done;
			preds[t] = p;
			p[npred[t]++] = b;
		}
	/* Post-order of the reverse graph from the exit (iterative DFS). */
	stack[sp++] = n;
	stack[sp++] = 0;
	seen[n] = 1;
	while (sp) {
		int node = stack[sp - 2], i = stack[sp - 1], next = -1;
		if (node == n) {
			for (; i < n && next < 0; i++)
				if (!nsucc(g->blocks[i]) && !seen[i])
					next = i;
		} else {
			for (; i < npred[node] && next < 0; i++)
				if (!seen[preds[node][i]])
					next = preds[node][i];
		}
		stack[sp - 1] = i;
		if (next < 0) {
			g->po[node] = k;
			order[k++] = node;
			sp -= 2;
			continue;
		}
		seen[next] = 1;
		stack[sp++] = next;
		stack[sp++] = 0;
	}
	for (int b = 0; b <= n; b++)
		g->ipdom[b] = -1;
	g->ipdom[n] = n;
	while (changed) {
		changed = 0;
		for (int j = k - 2; j >= 0; j--) { /* reverse post-order, exit first */
			int b = order[j], nd = -1;
			int ns = nsucc(g->blocks[b]);
			for (int s = 0; s <= ns; s++) {
				int p = s < ns ? succ(g, g->blocks[b], s) : (ns ? -1 : n);
				if (p < 0 || g->ipdom[p] < 0)
					continue;
				if (nd < 0) {
					nd = p;
					continue;
				}
				while (nd != p) {
					while (g->po[nd] < g->po[p])
						nd = g->ipdom[nd];
					while (g->po[p] < g->po[nd])
						p = g->ipdom[p];
				}
			}
			if (nd >= 0 && g->ipdom[b] != nd) {
				g->ipdom[b] = nd;
				changed = 1;
			}
		}
	}
	for (int b = 0; b < n; b++)
		if (g->ipdom[b] < 0)
			g->ipdom[b] = n;
	rc = 0;
done:
	for (int b = 0; preds && b < n; b++)
		free(preds[b]);
	free(preds);
	free(npred);
	free(order);
	free(stack);
	free(seen);
	return rc;
}

/* Marks the blocks between branch block b and its join; 1 when any was new. */
static int mark_region(struct cfg *g, int b, int *stack)
{
	int join = g->ipdom[b], sp = 0, grew = 0;
	char *seen = calloc((size_t)g->n, 1);
	if (!seen)
		return -1;
	if (join < g->n && !g->is_join[join])
		g->is_join[join] = grew = 1;
	for (int s = 0; s < nsucc(g->blocks[b]); s++)
		stack[sp++] = succ(g, g->blocks[b], s);
	while (sp) {
		int x = stack[--sp];
		if (x == join || seen[x])
			continue;
		seen[x] = 1;
		if (!g->region[x])
			g->region[x] = grew = 1;
		for (int s = 0; s < nsucc(g->blocks[x]); s++)
			stack[sp++] = succ(g, g->blocks[x], s);
	}
	free(seen);
	return grew;
}

/* readfirstlane is judged by readfirstlane_differs(), not as a source. */
static int per_half_source(LLVMValueRef v)
{
	static const char *const hooks[] = {"mx.entry_exec", "mx.ballot", "mx.readlane",
	                                    "mx.lane_id", "mx.packed_workitem_id"};
	for (size_t i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++)
		if (is_call_to(v, hooks[i]))
			return 1;
	return 0;
}

struct taint {
	struct valmap seen;
	LLVMValueRef *work;
	size_t n, cap;
	int oom;
};

static void taint(struct taint *t, LLVMValueRef v)
{
	if (t->oom || valmap_get(&t->seen, v) >= 0)
		return;
	if (valmap_put(&t->seen, v, 1)) {
		t->oom = 1;
		return;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		LLVMValueRef *w = realloc(t->work, cap * sizeof(*w));
		if (!w) {
			t->oom = 1;
			return;
		}
		t->work = w;
		t->cap = cap;
	}
	t->work[t->n++] = v;
}

static int tainted(const struct taint *t, LLVMValueRef v)
{
	return valmap_get(&t->seen, v) >= 0;
}

static void propagate(struct taint *t)
{
	while (t->n && !t->oom) {
		LLVMValueRef v = t->work[--t->n];
		for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
			LLVMValueRef user = LLVMGetUser(u);
			/* select(c, x, x) is x whatever c (a VGPR write of what it held) */
			if (LLVMIsASelectInst(user) &&
			    LLVMGetOperand(user, 1) == LLVMGetOperand(user, 2) &&
			    LLVMGetOperand(user, 1) != v)
				continue;
			if (LLVMIsAInstruction(user) && !LLVMIsAStoreInst(user) &&
			    !is_call_to(user, "mx.readfirstlane"))
				taint(t, user);
		}
	}
}

/* Whether c is the raiser's "this lane's bit of mask e": trunc(lshr(e, lane)). */
static int is_lane_bit_of(LLVMValueRef c, LLVMValueRef e)
{
	LLVMValueRef s;
	if (!LLVMIsATruncInst(c))
		return 0;
	s = LLVMGetOperand(c, 0);
	return LLVMIsAInstruction(s) && LLVMGetInstructionOpcode(s) == LLVMLShr &&
	       LLVMGetOperand(s, 0) == e;
}

/*
 * The value v has in the lanes whose bit of e is set: through the selects of predicated VGPR
 * writes and the phis at the join of a lane-predication diamond on e.
 */
static LLVMValueRef active_value(LLVMValueRef v, LLVMValueRef e, unsigned lane_pred)
{
	for (int depth = 0; depth < 64; depth++) {
		if (LLVMIsASelectInst(v) && is_lane_bit_of(LLVMGetOperand(v, 0), e)) {
			v = LLVMGetOperand(v, 1);
			continue;
		}
		if (LLVMIsAPHINode(v) && LLVMCountIncoming(v) == 2) {
			LLVMValueRef next = NULL;
			for (unsigned i = 0; i < 2 && !next; i++) {
				LLVMBasicBlockRef h = LLVMGetIncomingBlock(v, i);
				LLVMValueRef br = LLVMGetBasicBlockTerminator(h);
				if (br && LLVMIsConditional(br) && LLVMGetMetadata(br, lane_pred) &&
				    is_lane_bit_of(LLVMGetCondition(br), e) &&
				    LLVMGetSuccessor(br, 0) == LLVMGetIncomingBlock(v, 1 - i))
					next = LLVMGetIncomingValue(v, 1 - i);
			}
			if (next) {
				v = next;
				continue;
			}
		}
		return v;
	}
	return v;
}

/*
 * readfirstlane(v, e) gives both halves the same value when e is the entry EXEC (never empty
 * in a half that has lanes) and v's value in e's lanes is the same in both halves (the
 * workgroup size a kernel loads from its kernarg, say).  Otherwise it may differ.
 */
static int readfirstlane_differs(const struct taint *t, LLVMValueRef call, unsigned lane_pred)
{
	LLVMValueRef e = LLVMGetOperand(call, 1);
	if (!is_call_to(e, "mx.entry_exec"))
		return 1;
	return tainted(t, active_value(LLVMGetOperand(call, 0), e, lane_pred));
}

/* Whether block b's terminator may branch differently in the two halves. */
static int divergent_branch(const struct taint *t, LLVMBasicBlockRef b, unsigned lane_pred)
{
	LLVMValueRef term = LLVMGetBasicBlockTerminator(b);
	if (!term || LLVMGetNumSuccessors(term) < 2)
		return 0;
	if (LLVMGetMetadata(term, lane_pred))
		return 1;
	return LLVMGetNumOperands(term) > 0 && tainted(t, LLVMGetOperand(term, 0));
}

static int prove_uniform_barriers(LLVMValueRef fn, const struct code_object *co,
                                  const struct co_kernel *k, struct raise_refusal *why)
{
	struct cfg g = {.fn = fn};
	struct taint t = {0};
	unsigned lane_pred = LLVMGetMDKindIDInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)),
	                                              "mirage.lane_pred", 16);
	int *stack = NULL, rc = -1, grew = 1;
	char *done = NULL;

	g.n = (int)LLVMCountBasicBlocks(fn);
	g.blocks = calloc((size_t)g.n + 1, sizeof(*g.blocks));
	g.ipdom = calloc((size_t)g.n + 1, sizeof(int));
	g.po = calloc((size_t)g.n + 1, sizeof(int));
	g.region = calloc((size_t)g.n + 1, 1);
	g.is_join = calloc((size_t)g.n + 1, 1);
	done = calloc((size_t)g.n + 1, 1);
	{
		size_t edges = 0;
		for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
		     bb = LLVMGetNextBasicBlock(bb))
			edges += (size_t)nsucc(bb);
		stack = malloc(sizeof(int) * (edges + 4));
	}
	if (!g.blocks || !g.ipdom || !g.po || !g.region || !g.is_join || !done || !stack)
		goto oom;
	LLVMGetBasicBlocks(fn, g.blocks);
	for (int b = 0; b < g.n; b++)
		if (valmap_put(&g.index, g.blocks[b], b))
			goto oom;
	if (postdominators(&g))
		goto oom;
	for (int b = 0; b < g.n; b++)
		for (LLVMValueRef i = LLVMGetFirstInstruction(g.blocks[b]); i;
		     i = LLVMGetNextInstruction(i))
			if (per_half_source(i))
				taint(&t, i);
	while (grew && !t.oom) {
		grew = 0;
		propagate(&t);
		for (int b = 0; b < g.n; b++)
			for (LLVMValueRef i = LLVMGetFirstInstruction(g.blocks[b]); i;
			     i = LLVMGetNextInstruction(i))
				if (is_call_to(i, "mx.readfirstlane") && !tainted(&t, i) &&
				    readfirstlane_differs(&t, i, lane_pred)) {
					taint(&t, i);
					grew = 1;
				}
		propagate(&t);
		for (int b = 0; b < g.n; b++) {
			int r;
			if (done[b] || !divergent_branch(&t, g.blocks[b], lane_pred))
				continue;
			done[b] = 1;
			r = mark_region(&g, b, stack);
			if (r < 0)
				goto oom;
			grew |= r;
		}
		/* Phis of regions and joins, and values a region defines for use outside it. */
		for (int b = 0; grew && b < g.n; b++) {
			if (!g.region[b] && !g.is_join[b])
				continue;
			for (LLVMValueRef i = LLVMGetFirstInstruction(g.blocks[b]); i;
			     i = LLVMGetNextInstruction(i)) {
				if (LLVMIsAPHINode(i)) {
					taint(&t, i);
					continue;
				}
				if (!g.region[b])
					continue;
				for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
					LLVMValueRef user = LLVMGetUser(u);
					/* a phi user is in the join, judged there */
					int ub =
					    LLVMIsAInstruction(user) && !LLVMIsAPHINode(user)
					        ? block_index(&g, LLVMGetInstructionParent(user))
					        : -1;
					if (ub >= 0 && !g.region[ub]) {
						taint(&t, i);
						break;
					}
				}
			}
		}
	}
	if (t.oom)
		goto oom;
	rc = 0;
	for (int b = 0; b < g.n && !rc; b++) {
		if (!g.region[b])
			continue;
		for (LLVMValueRef i = LLVMGetFirstInstruction(g.blocks[b]); i && !rc;
		     i = LLVMGetNextInstruction(i)) {
			LLVMValueRef site;
			if (!is_call_to(i, "mx.barrier"))
				continue;
			site = LLVMGetOperand(i, 0);
			refuse(why, co, k,
			       LLVMIsAConstantInt(site) ? LLVMConstIntGetZExtValue(site) / 4 : 0,
			       RAISE_NONUNIFORM_SCALAR_STATE,
			       "the barrier is reached under a branch on EXEC, VCC or a compare, "
			       "which "
			       "can differ between the two source waves of a wave64");
			rc = -1;
		}
	}
	goto done_;
oom:
	refuse(why, co, k, 0, RAISE_NONUNIFORM_SCALAR_STATE, "out of memory in the proof");
	rc = -1;
done_:
	valmap_free(&g.index);
	valmap_free(&t.seen);
	free(t.work);
	free(g.blocks);
	free(g.ipdom);
	free(g.po);
	free(g.region);
	free(g.is_join);
	free(done);
	free(stack);
	return rc;
}

/*
 * v_writelane writes its lane whatever EXEC, and a later v_readlane reads it back (clang's
 * SGPR spills).  A half of a wave64 holds only the lanes its source wave launched, always the
 * low ones, so only lane 0 is sure to exist: a write to any other lane returns 1 with the site
 * in *why (exact in whole-wave mode, where every half has all 32 lanes).
 */
static int prove_writelanes(LLVMValueRef fn, const struct code_object *co,
                            const struct co_kernel *k, struct raise_refusal *why)
{
	unsigned pc_kind =
	    LLVMGetMDKindIDInContext(LLVMGetModuleContext(LLVMGetGlobalParent(fn)), "mirage.pc", 9);
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i)) {
			LLVMValueRef idx, md, pc = NULL;
			if (!LLVMIsAICmpInst(i) || !(md = LLVMGetMetadata(i, pc_kind)) ||
			    !is_call_to(LLVMGetOperand(i, 0), "mx.lane_id"))
				continue;
			idx = LLVMGetOperand(i, 1);
			if (LLVMIsAConstantInt(idx) && LLVMConstIntGetZExtValue(idx) == 0)
				continue;
			if (LLVMGetMDNodeNumOperands(md) == 1)
				LLVMGetMDNodeOperands(md, &pc);
			if (LLVMIsAConstantInt(idx))
				refuse(why, co, k, pc ? LLVMConstIntGetZExtValue(pc) : 0,
				       RAISE_EXEC_CONTAINMENT,
				       "v_writelane to lane %llu, which a partial source wave does "
				       "not "
				       "launch and a wave64 half then does not have",
				       LLVMConstIntGetZExtValue(idx));
			else
				refuse(why, co, k, pc ? LLVMConstIntGetZExtValue(pc) : 0,
				       RAISE_EXEC_CONTAINMENT,
				       "v_writelane to a lane chosen at run time, which a wave64 "
				       "half may "
				       "not have");
			return 1;
		}
	return 0;
}

int amdgcn_prove_wave_native(LLVMModuleRef m, LLVMValueRef fn, const struct code_object *co,
                             const struct co_kernel *k, struct raise_refusal *why)
{
	LLVMValueRef marker = LLVMGetNamedFunction(m, AMDGCN_EXEC_WRITE);
	LLVMValueRef *marks = NULL;
	struct raise_refusal lanes;
	size_t n = 0, cap = 0;
	int rc = 0;

	for (LLVMUseRef u = marker ? LLVMGetFirstUse(marker) : NULL; u; u = LLVMGetNextUse(u)) {
		if (n == cap) {
			LLVMValueRef *more =
			    realloc(marks, (cap = cap ? 2 * cap : 32) * sizeof(*marks));
			if (!more) {
				free(marks);
				refuse(why, co, k, 0, RAISE_EXEC_CONTAINMENT,
				       "out of memory in the proof");
				return -1;
			}
			marks = more;
		}
		marks[n++] = LLVMGetUser(u);
	}
	rc = prove_containment(marks, n, co, k, why);
	for (size_t i = 0; i < n; i++)
		LLVMInstructionEraseFromParent(marks[i]);
	free(marks);
	if (marker)
		LLVMDeleteFunction(marker);
	if (rc < 0)
		return -1;
	if (!rc)
		rc = prove_writelanes(fn, co, k, why);
	else if (prove_writelanes(fn, co, k, &lanes) < 0)
		return -1;
	/* *why is written only on a refusal, so a whole-wave kernel keeps its first site */
	return prove_uniform_barriers(fn, co, k, why) ? -1 : rc;
}
