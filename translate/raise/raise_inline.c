/*
 * Calls raised inline.  When raise_reach.c's scan knows every call's callee and every constant
 * jump, finds no jump it cannot follow, and every s_set_pc_i64 of a function that is not a long
 * branch returns through s[30:31], each call gets its own copy of its callee's body: the call
 * is a jump into that copy, and the copy's returns go back to that call's site alone.  The
 * raised function then has the control flow of the source with its calls inlined, which LLVM's
 * AMDGPU back end structurizes as it does any inlined code; a body shared by every caller,
 * whose returns switch over every caller's site, makes loops of calls that are not loops and
 * costs that back end minutes at -O0 (docs/raiser.md, "Calls").
 *
 * Each copy still checks its target: a return compares s[30:31] with its call's site, and any
 * other value is the indirect-branch fault, as a shared body's return would give for an
 * address it does not know.
 */
#include "raise_internal.h"

#include <stdint.h>
#include <stdlib.h>

/* The extent of d->insts[i]. */
static size_t extent_of(const struct extent *ext, size_t next, size_t i)
{
	for (size_t e = 0; e < next; e++)
		if (i >= ext[e].first && i < ext[e].first + ext[e].count)
			return e;
	return SIZE_MAX;
}

/* The copy group of extent e: the function's extent, or SIZE_MAX for the kernel's code (the
 * kernel and the trampolines it branches to), which has one copy. */
static size_t group_of(const struct extent *ext, size_t e)
{
	return e != SIZE_MAX && rz_is_function(&ext[e]) ? e : SIZE_MAX;
}

/* Whether the code stays in its own copy: every call enters a function at its start, every
 * branch and long branch lands in the group it leaves, a return leaves a function.  1 if not. */
static int check_flow(const struct decoded *d, const struct extent *ext, size_t next,
                      const uint64_t *to)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct isa_inst *in = &d->insts[i];
		size_t e = extent_of(ext, next, i), g = group_of(ext, e), t_ext;
		uint64_t t;
		if (e == SIZE_MAX)
			return 1;
		if (in->flags & ISA_F_CALL) {
			t_ext =
			    to[i] == RZ_TARGET_UNKNOWN ? SIZE_MAX : rz_extent_at(ext, next, to[i]);
			if (t_ext == SIZE_MAX || !rz_is_function(&ext[t_ext]) ||
			    ext[t_ext].start != to[i])
				return 1;
			continue;
		}
		if (in->op == ISA_OP_S_SET_PC_I64) {
			if (to[i] == RZ_TARGET_UNKNOWN) { /* a return: the kernel's code has none */
				if (g == SIZE_MAX)
					return 1;
				continue;
			}
			t_ext = rz_extent_at(ext, next, to[i]); /* a long branch */
			if (t_ext == SIZE_MAX || group_of(ext, t_ext) != g)
				return 1;
			continue;
		}
		if ((in->flags & (ISA_F_BRANCH | ISA_F_CONDBR) || in->op == ISA_OP_S_ADD_PC_I64) &&
		    !rz_branch_target(in, &t) && group_of(ext, rz_extent_at(ext, next, t)) != g)
			return 1;
	}
	return 0;
}

/* The calls among copy c's instructions make its children, in instruction order.  1 when one
 * would recurse or the copies would pass limit instructions. */
static int add_children(const struct decoded *d, const struct extent *ext, size_t next,
                        struct rz_inline *p, size_t c, size_t *cap, size_t limit)
{
	p->c[c].child0 = p->n;
	for (size_t e = 0; e < next; e++) {
		if (group_of(ext, e) != group_of(ext, p->c[c].ext))
			continue;
		for (size_t i = ext[e].first; i < ext[e].first + ext[e].count; i++) {
			size_t f;
			if (!(d->insts[i].flags & ISA_F_CALL))
				continue;
			f = rz_extent_at(ext, next, p->target_of[i]);
			for (size_t a = c; a != SIZE_MAX; a = p->c[a].parent)
				if (p->c[a].ext == f)
					return 1; /* recursion */
			p->instructions += ext[f].count;
			if (p->instructions > limit)
				return 1;
			if (p->n == *cap) {
				void *q = realloc(p->c, 2 * *cap * sizeof(*p->c));
				if (!q)
					return -1;
				p->c = q;
				*cap *= 2;
			}
			p->c[p->n++] = (struct rz_copy){f, c, i, 0, 0, NULL};
			p->c[c].nchild++;
		}
	}
	return 0;
}

/* Each function copy's blocks, at the leaders find_leaders() made in rz.blocks, which keeps
 * the kernel's code's only; leader by leader, each in the copies of its function in order. */
static int make_blocks(struct rz *r, const struct extent *ext, size_t next, struct rz_inline *p)
{
	LLVMBasicBlockRef *all = p->c[0].blocks;
	size_t *first = calloc(next + 1, sizeof(*first)), *at = calloc(next + 1, sizeof(*at));
	size_t *of = malloc(p->n * sizeof(*of)); /* of[first[e], first[e + 1]): e's copies */
	int rc = -1;

	if (!first || !at || !of)
		goto out;
	for (size_t c = 1; c < p->n; c++) {
		const struct extent *x = &ext[p->c[c].ext];
		p->c[c].blocks = calloc((x->end - x->start) / 4 + 1, sizeof(LLVMBasicBlockRef));
		if (!p->c[c].blocks)
			goto out;
		first[p->c[c].ext + 1]++;
	}
	for (size_t e = 0; e < next; e++)
		first[e + 1] += first[e];
	for (size_t c = 1; c < p->n; c++)
		of[first[p->c[c].ext] + at[p->c[c].ext]++] = c;
	for (size_t e = 0; e < next; e++) {
		if (!rz_is_function(&ext[e]))
			continue;
		for (uint64_t off = ext[e].start; off < ext[e].end; off += 4) {
			if (!all[off / 4])
				continue;
			for (size_t k = first[e]; k < first[e + 1]; k++) {
				rz_inline_use(r, p, ext, of[k]);
				rz_block_at(r, off);
			}
			LLVMDeleteBasicBlock(all[off / 4]);
			all[off / 4] = NULL;
		}
	}
	rz_inline_use(r, p, ext, 0);
	rc = 0;
out:
	free(first);
	free(at);
	free(of);
	return rc;
}

int rz_inline_plan(struct rz *r, const struct decoded *d, const struct extent *ext, size_t next,
                   size_t limit, struct rz_inline *out)
{
	struct rz_inline p = {0};
	uint64_t *callees = NULL;
	size_t n = 0, cap = 16;
	unsigned unknown = 0;
	int rc = -1;

	p.target_of = calloc(d->n + 1, sizeof(*p.target_of));
	p.c = calloc(cap, sizeof(*p.c));
	if (!p.target_of || !p.c ||
	    rz_reach_scan(r, d, 0, d->n, &callees, &n, &unknown, p.target_of))
		goto out;
	rc = 1;
	if (unknown || check_flow(d, ext, next, p.target_of))
		goto out;
	p.c[p.n++] = (struct rz_copy){SIZE_MAX, SIZE_MAX, SIZE_MAX, 0, 0, r->blocks};
	for (size_t e = 0; e < next; e++)
		if (!rz_is_function(&ext[e]))
			p.instructions += ext[e].count;
	for (size_t c = 0; c < p.n; c++) { /* breadth first: p.n grows */
		int a = add_children(d, ext, next, &p, c, &cap, limit);
		if (a) {
			rc = a;
			goto out;
		}
	}
	rc = -1;
	if (make_blocks(r, ext, next, &p))
		goto out;
	*out = p;
	p = (struct rz_inline){0};
	rc = 0;
out:
	free(callees);
	rz_inline_free(&p);
	if (rc < 0)
		return rz_refuse(r, RAISE_DECODE, "out of memory");
	return rc;
}

void rz_inline_free(struct rz_inline *p)
{
	for (size_t c = 1; p->c && c < p->n; c++)
		free(p->c[c].blocks);
	free(p->c);
	free(p->target_of);
	*p = (struct rz_inline){0};
}

/* Copy 0 reads the map of all of .text; a function copy reads its own. */
void rz_inline_use(struct rz *r, const struct rz_inline *p, const struct extent *ext, size_t c)
{
	if (c == 0) {
		r->blocks = p->c[0].blocks;
		r->blocks_lo = 0;
		r->blocks_hi = r->co->text_size;
	} else {
		r->blocks = p->c[c].blocks;
		r->blocks_lo = ext[p->c[c].ext].start;
		r->blocks_hi = ext[p->c[c].ext].end;
	}
	r->copy = (unsigned)c;
}

/* The copy that copy c's call d->insts[i] makes. */
static size_t child_at(const struct rz_inline *p, size_t c, size_t i)
{
	for (size_t k = 0; k < p->c[c].nchild; k++)
		if (p->c[p->c[c].child0 + k].call == i)
			return p->c[c].child0 + k;
	return SIZE_MAX;
}

/* The block at off in copy c (made by make_blocks: a leader). */
static LLVMBasicBlockRef block_in(struct rz *r, const struct rz_inline *p, const struct extent *ext,
                                  size_t c, uint64_t off)
{
	unsigned keep = r->copy;
	LLVMBasicBlockRef b;
	rz_inline_use(r, p, ext, c);
	b = rz_block_at(r, off);
	rz_inline_use(r, p, ext, keep);
	return b;
}

int rz_inline_control(struct rz *r, const struct rz_inline *p, const struct extent *ext, size_t c,
                      size_t i)
{
	const struct isa_inst *in = &r->dec->insts[i];
	uint64_t text = r->co->text_addr, site = in->offset + in->size, t = p->target_of[i];
	LLVMValueRef pc;

	if (in->flags & ISA_F_CALL) {
		size_t k = child_at(p, c, i);
		pc = in->op == ISA_OP_S_SWAP_PC_I64 ? rz_src(r, &in->ops[1], 64, 0)
		                                    : rz_const64(r, text + t);
		if (rz_write(r, &in->ops[0], rz_const64(r, text + site)))
			return -1;
		rz_pc_jump(r, pc, text + t, block_in(r, p, ext, k, t));
		return 0;
	}
	if (in->op != ISA_OP_S_SET_PC_I64)
		return 1;
	pc = rz_src(r, &in->ops[0], 64, 0);
	if (t != RZ_TARGET_UNKNOWN) { /* a long branch */
		rz_pc_jump(r, pc, text + t, rz_block_at(r, t));
		return 0;
	}
	{ /* a return, to the site of the call that made this copy */
		const struct isa_inst *call = &r->dec->insts[p->c[c].call];
		uint64_t back = call->offset + call->size;
		rz_pc_jump(r, pc, text + back, block_in(r, p, ext, p->c[c].parent, back));
	}
	return 0;
}
