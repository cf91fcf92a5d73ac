/*
 * The helper functions a kernel reaches.  LLVM's call sequence puts the callee's address in an
 * SGPR pair as the code address after an s_get_pc_i64 plus a constant (s_add_nc_u64, or
 * s_add_u32 and s_addc_u32 on gfx9) and calls through it with s_swap_pc_i64; code built at -O0
 * keeps that pair in VGPR lanes across other calls (v_writelane / v_readlane).  A forward scan of
 * each function's straight-line code that tracks constants in SGPRs, SCC and VGPR lanes finds
 * each call's callee, and from the kernel the set of functions it reaches.
 *
 * The raiser then decodes only those functions instead of every helper of the object: in an
 * object of many kernels built at -O0 against libclc, each kernel otherwise carries every
 * other kernel's body and every builtin, and its returns switch over all of their return
 * sites.  Nothing here decides what runs: a call is still a switch over the functions raised,
 * whose default is the indirect-branch fault, so a callee this scan got wrong stops the kernel
 * with that fault and never runs other code.  What the scan cannot follow (an unknown callee, a
 * jump through a register other than the return address, an indexed register write) makes the
 * caller raise every helper, as before.
 */
#include "raise_internal.h"

#include <stdlib.h>
#include <string.h>

struct lane_val {
	uint16_t vgpr;
	uint8_t lane;
	uint32_t val;
};

struct scan {
	uint32_t s[NSGPR];
	bool known[NSGPR];
	bool scc_known;
	uint32_t scc;
	struct lane_val *lanes;
	size_t nlanes, cap;
};

static void forget_sgprs(struct scan *st)
{
	memset(st->known, 0, sizeof(st->known));
	st->scc_known = false;
}

static void forget_all(struct scan *st)
{
	forget_sgprs(st);
	st->nlanes = 0;
}

static void forget_vgpr(struct scan *st, unsigned v, unsigned width)
{
	size_t n = 0;
	for (size_t i = 0; i < st->nlanes; i++)
		if (st->lanes[i].vgpr < v || st->lanes[i].vgpr >= v + width)
			st->lanes[n++] = st->lanes[i];
	st->nlanes = n;
}

static struct lane_val *lane_at(struct scan *st, unsigned v, unsigned lane)
{
	for (size_t i = 0; i < st->nlanes; i++)
		if (st->lanes[i].vgpr == v && st->lanes[i].lane == lane)
			return &st->lanes[i];
	return NULL;
}

static int set_lane(struct scan *st, unsigned v, unsigned lane, bool known, uint32_t val)
{
	struct lane_val *l = lane_at(st, v, lane);
	if (!known) {
		if (l)
			*l = st->lanes[--st->nlanes];
		return 0;
	}
	if (!l) {
		if (st->nlanes == st->cap) {
			size_t cap = st->cap ? 2 * st->cap : 32;
			void *p = realloc(st->lanes, cap * sizeof(*st->lanes));
			if (!p)
				return -1;
			st->lanes = p;
			st->cap = cap;
		}
		l = &st->lanes[st->nlanes++];
		l->vgpr = (uint16_t)v;
		l->lane = (uint8_t)lane;
	}
	l->val = val;
	return 0;
}

/* The dword `part` of source operand o (0 low, 1 high), if the scan knows it. */
static bool value_of(const struct scan *st, const struct isa_inst *in, const struct isa_operand *o,
                     unsigned part, uint32_t *v)
{
	switch (o->kind) {
	case ISA_OPK_SGPR:
		if (o->reg + part >= NSGPR || !st->known[o->reg + part])
			return false;
		*v = st->s[o->reg + part];
		return true;
	case ISA_OPK_INLINE:
		if (o->flags & ISA_OPF_FLOATINL)
			return false;
		*v = (uint32_t)((uint64_t)o->imm >> (32 * part));
		return true;
	case ISA_OPK_LITERAL:
		/* A 32-bit literal of a 64-bit operand is extended by rules the raiser refuses
		 * for a set bit 31; the scan follows only the unambiguous ones. */
		if (part && in->literal_size != 8 && (o->imm & 0x80000000))
			return false;
		*v = (uint32_t)((uint64_t)o->imm >> (32 * part));
		return true;
	default:
		return false;
	}
}

static bool value64_of(const struct scan *st, const struct isa_inst *in,
                       const struct isa_operand *o, uint64_t *v)
{
	uint32_t lo, hi;
	if (!value_of(st, in, o, 0, &lo) || !value_of(st, in, o, 1, &hi))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

static void set_sgpr(struct scan *st, const struct isa_operand *o, unsigned part, bool known,
                     uint32_t v)
{
	if (o->kind != ISA_OPK_SGPR || o->reg + part >= NSGPR)
		return;
	st->known[o->reg + part] = known;
	st->s[o->reg + part] = v;
}

/* Every register the instruction writes becomes unknown. */
static void forget_writes(struct scan *st, const struct isa_inst *in)
{
	for (unsigned i = 0; i < in->nops; i++) {
		const struct isa_operand *o = &in->ops[i];
		unsigned w = o->width ? o->width : 1;
		if (o->role != ISA_ROLE_DST)
			continue;
		if (o->kind == ISA_OPK_SGPR)
			for (unsigned k = 0; k < w; k++)
				set_sgpr(st, o, k, false, 0);
		else if (o->kind == ISA_OPK_VGPR)
			forget_vgpr(st, o->reg, w);
	}
	if (in->impl_def & ISA_IMPL_SCC)
		st->scc_known = false;
}

/* Whether the instruction writes registers its operands do not name (through M0 or the GPR
 * index mode): the scan cannot follow them. */
static bool writes_indexed(const struct isa_inst *in)
{
	switch (in->op) {
	case ISA_OP_S_MOVRELD_B32:
	case ISA_OP_S_MOVRELD_B64:
	case ISA_OP_V_MOVRELD_B32:
	case ISA_OP_V_MOVRELSD_B32:
	case ISA_OP_V_MOVRELSD_2_B32:
	case ISA_OP_S_SET_GPR_IDX_ON:
		return true;
	default:
		return false;
	}
}

struct callees {
	uint64_t *at; /* .text offsets */
	size_t n, cap;
	unsigned unknown; /* RZ_UNKNOWN_*: what the scan could not follow */
	uint64_t *where;  /* or NULL: where the instruction being scanned goes, if a call or jump */
};

static int add_callee(struct callees *c, uint64_t t)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->at[i] == t)
			return 0;
	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		void *p = realloc(c->at, cap * sizeof(*c->at));
		if (!p)
			return -1;
		c->at = p;
		c->cap = cap;
	}
	c->at[c->n++] = t;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* One instruction's effect on the scan; the calls and jumps it finds go to c. */
static int step(const struct rz *r, struct scan *st, const struct isa_inst *in, struct callees *c)
{
	uint64_t text = r->co->text_addr, a64 = 0, b64 = 0, t = 0;
	uint32_t a = 0, b = 0, lane = 0;
	bool ka, kb;

	if (writes_indexed(in)) {
		c->unknown |= RZ_UNKNOWN_JUMP;
		return 0;
	}
	switch (in->op) {
	case ISA_OP_S_GET_PC_I64:
		t = text + in->offset + in->size;
		set_sgpr(st, &in->ops[0], 0, true, (uint32_t)t);
		set_sgpr(st, &in->ops[0], 1, true, (uint32_t)(t >> 32));
		return 0;
	case ISA_OP_S_ADD_NC_U64:
		ka = value64_of(st, in, &in->ops[1], &a64) && value64_of(st, in, &in->ops[2], &b64);
		set_sgpr(st, &in->ops[0], 0, ka, (uint32_t)(a64 + b64));
		set_sgpr(st, &in->ops[0], 1, ka, (uint32_t)((a64 + b64) >> 32));
		return 0;
	case ISA_OP_S_ADD_CO_U32:
	case ISA_OP_S_ADD_CO_CI_U32: {
		bool ci = in->op == ISA_OP_S_ADD_CO_CI_U32;
		uint64_t sum;
		ka = value_of(st, in, &in->ops[1], 0, &a) && value_of(st, in, &in->ops[2], 0, &b) &&
		     (!ci || st->scc_known);
		sum = ka ? (uint64_t)a + b + (ci ? st->scc : 0) : 0;
		set_sgpr(st, &in->ops[0], 0, ka, (uint32_t)sum);
		st->scc_known = ka;
		st->scc = (uint32_t)(sum >> 32);
		return 0;
	}
	case ISA_OP_S_MOV_B32:
	case ISA_OP_S_MOV_B64:
		for (unsigned k = 0; k < (in->op == ISA_OP_S_MOV_B64 ? 2u : 1u); k++) {
			ka = value_of(st, in, &in->ops[1], k, &a);
			set_sgpr(st, &in->ops[0], k, ka, a);
		}
		return 0;
	case ISA_OP_V_WRITELANE_B32:
		if (in->ops[0].kind != ISA_OPK_VGPR)
			break;
		if (!value_of(st, in, &in->ops[2], 0, &lane) || lane >= 64) {
			forget_vgpr(st, in->ops[0].reg, 1);
			return 0;
		}
		ka = value_of(st, in, &in->ops[1], 0, &a);
		return set_lane(st, in->ops[0].reg, lane, ka, a);
	case ISA_OP_V_READLANE_B32: {
		const struct lane_val *l = NULL;
		if (in->ops[1].kind == ISA_OPK_VGPR && value_of(st, in, &in->ops[2], 0, &lane))
			l = lane_at(st, in->ops[1].reg, lane);
		set_sgpr(st, &in->ops[0], 0, l != NULL, l ? l->val : 0);
		return 0;
	}
	case ISA_OP_S_SWAP_PC_I64:
	case ISA_OP_S_CALL_I64:
		if (in->op == ISA_OP_S_CALL_I64)
			kb = !rz_branch_target(in, &t);
		else if ((kb = value64_of(st, in, &in->ops[1], &t)))
			t -= text;
		if (c->where)
			*c->where = kb ? t : RZ_TARGET_UNKNOWN;
		if (!kb)
			c->unknown |= RZ_UNKNOWN_CALL;
		else if (add_callee(c, t))
			return -1;
		/* What the callee leaves in SGPRs is not followed; LLVM's callers keep their
		 * values in VGPR lanes, which the calling convention preserves. */
		forget_sgprs(st);
		return 0;
	case ISA_OP_S_SET_PC_I64:
		/* A return (the caller's address in s[30:31], unknown here), a long branch
		 * (constants: find_leaders follows it) or a jump into another function (a tail
		 * call, which makes that function reached). */
		if (value64_of(st, in, &in->ops[0], &t)) {
			if (c->where)
				*c->where = t - text;
			return add_callee(c, t - text);
		}
		if (in->ops[0].kind != ISA_OPK_SGPR || in->ops[0].reg != 30)
			c->unknown |= RZ_UNKNOWN_JUMP;
		return 0;
	default:
		break;
	}
	forget_writes(st, in);
	return 0;
}

int rz_reach_scan(const struct rz *r, const struct decoded *d, size_t from, size_t to,
                  uint64_t **callees, size_t *n, unsigned *unknown, uint64_t *target_of)
{
	struct scan st = {0};
	struct callees c = {0};
	uint64_t *labels = NULL;
	size_t nlabels = 0;
	int rc = -1;

	/* Code a branch lands on is reached from elsewhere: the scan starts over there. */
	labels = calloc(to - from + 1, sizeof(*labels));
	if (!labels)
		goto out;
	for (size_t i = from; i < to; i++) {
		uint64_t t;
		if ((d->insts[i].flags & (ISA_F_BRANCH | ISA_F_CONDBR)) &&
		    !rz_branch_target(&d->insts[i], &t))
			labels[nlabels++] = t;
	}
	qsort(labels, nlabels, sizeof(*labels), cmp_u64);
	for (size_t i = from; i < to; i++) {
		const struct isa_inst *in = &d->insts[i];
		uint64_t off = in->offset;
		bool joined = i == from || d->insts[i - 1].offset + d->insts[i - 1].size != off ||
		              (d->insts[i - 1].flags & ISA_F_TERM) ||
		              bsearch(&off, labels, nlabels, sizeof(*labels), cmp_u64);
		if (joined)
			forget_all(&st);
		c.where = target_of ? &target_of[i - from] : NULL;
		if (c.where)
			*c.where = RZ_TARGET_UNKNOWN;
		if (step(r, &st, in, &c))
			goto out;
	}
	rc = 0;
out:
	free(labels);
	free(st.lanes);
	if (rc) {
		free(c.at);
		c.at = NULL, c.n = 0;
	}
	*callees = c.at;
	*n = c.n;
	*unknown = c.unknown;
	return rc;
}
