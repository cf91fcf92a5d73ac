/* The B0->A0 pass's bytes: site classes, in-place opcodes, DS2 split, ADDTID, s_branch, far jump.
 */
#include "b0a0_encode.h"

#include <string.h>

#include "le_bytes.h"

#include <mirage/isa.h>

/* Opcode numbers and first dwords come from the decoder's rows (isa/gfx1250.def), which
 * tests/integration/isa_rows.sh pins against llvm-mc-22; this file only places fields. */
#define OPCODE(id) (isa_gfx1250_rows[ISA_OP_##id].opcode)
#define WORD0(id)  isa_gfx1250_word0(ISA_OP_##id)

/* VGLOBAL: the opcode is dword0[21:14], the SGPR base dword0[6:0] (0x7c: off). */
#define VG_OP_SHIFT  14
#define VG_OP_MASK   (0xffu << VG_OP_SHIFT)
#define VG_SADDR_OFF 0x7cu
/* SOP1: the opcode is byte 1, ssrc0 byte 0 (below 0x80: a register, m0 included). */
/* DS: offset0 [7:0], offset1 [15:8] (one 16-bit offset in the single forms), opcode [25:18]. */
#define DS_OP_SHIFT 18
#define DS_OP_MASK  (0xffu << DS_OP_SHIFT)

/*
 * cluster_load_* -> global_load_* (the B0->A0 table of docs/rewriter.md).  The cluster loads
 * are B0-only, so the decoder has no rows for them: their VGLOBAL opcodes and names are here.
 */
static const struct {
	uint8_t from;
	uint16_t to; /* enum isa_op of the A0 load */
	const char *name;
} cluster_ops[] = {
    {103, ISA_OP_GLOBAL_LOAD_B32, "cluster_load_b32"},
    {104, ISA_OP_GLOBAL_LOAD_B64, "cluster_load_b64"},
    {105, ISA_OP_GLOBAL_LOAD_B128, "cluster_load_b128"},
    {106, ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B8, "cluster_load_async_to_lds_b8"},
    {107, ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B32, "cluster_load_async_to_lds_b32"},
    {108, ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B64, "cluster_load_async_to_lds_b64"},
    {109, ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B128, "cluster_load_async_to_lds_b128"},
};

enum ds2_shape {
	DS2_LOAD,
	DS2_STORE,
	DS2_XCHG
};

/* Every DS two-address form (enum isa_op), its single-address op, element bytes and stride. */
static const struct ds2_row {
	uint16_t op2, op1;
	uint8_t elem, stride64, shape;
} ds2_rows[] = {
    {ISA_OP_DS_LOAD_2ADDR_B32, ISA_OP_DS_LOAD_B32, 4, 0, DS2_LOAD},
    {ISA_OP_DS_LOAD_2ADDR_STRIDE64_B32, ISA_OP_DS_LOAD_B32, 4, 1, DS2_LOAD},
    {ISA_OP_DS_LOAD_2ADDR_B64, ISA_OP_DS_LOAD_B64, 8, 0, DS2_LOAD},
    {ISA_OP_DS_LOAD_2ADDR_STRIDE64_B64, ISA_OP_DS_LOAD_B64, 8, 1, DS2_LOAD},
    {ISA_OP_DS_STORE_2ADDR_B32, ISA_OP_DS_STORE_B32, 4, 0, DS2_STORE},
    {ISA_OP_DS_STORE_2ADDR_STRIDE64_B32, ISA_OP_DS_STORE_B32, 4, 1, DS2_STORE},
    {ISA_OP_DS_STORE_2ADDR_B64, ISA_OP_DS_STORE_B64, 8, 0, DS2_STORE},
    {ISA_OP_DS_STORE_2ADDR_STRIDE64_B64, ISA_OP_DS_STORE_B64, 8, 1, DS2_STORE},
    {ISA_OP_DS_STOREXCHG_2ADDR_RTN_B32, ISA_OP_DS_STOREXCHG_RTN_B32, 4, 0, DS2_XCHG},
    {ISA_OP_DS_STOREXCHG_2ADDR_STRIDE64_RTN_B32, ISA_OP_DS_STOREXCHG_RTN_B32, 4, 1, DS2_XCHG},
    {ISA_OP_DS_STOREXCHG_2ADDR_RTN_B64, ISA_OP_DS_STOREXCHG_RTN_B64, 8, 0, DS2_XCHG},
    {ISA_OP_DS_STOREXCHG_2ADDR_STRIDE64_RTN_B64, ISA_OP_DS_STOREXCHG_RTN_B64, 8, 1, DS2_XCHG},
};

static const struct ds2_row *ds2_row_of(unsigned opcode)
{
	for (size_t i = 0; i < sizeof(ds2_rows) / sizeof(ds2_rows[0]); i++)
		if (isa_gfx1250_rows[ds2_rows[i].op2].opcode == opcode)
			return &ds2_rows[i];
	return NULL;
}

/* The VGLOBAL opcode of the A0 load a cluster load becomes, or -1. */
static int cluster_target(unsigned op)
{
	for (size_t i = 0; i < sizeof(cluster_ops) / sizeof(cluster_ops[0]); i++)
		if (cluster_ops[i].from == op)
			return isa_gfx1250_rows[cluster_ops[i].to].opcode;
	return -1;
}

const char *hs_b0a0_cluster_name(const uint8_t dw0[4])
{
	unsigned op = (hs_rd32(dw0) & VG_OP_MASK) >> VG_OP_SHIFT;

	for (size_t i = 0; i < sizeof(cluster_ops) / sizeof(cluster_ops[0]); i++)
		if (cluster_ops[i].from == op)
			return cluster_ops[i].name;
	return NULL;
}

enum hs_b0a0_site hs_b0a0_classify(const uint8_t *p, size_t size, enum hs_b0a0_fmt fmt, unsigned op)
{
	switch (fmt) {
	case HS_B0A0_VGLOBAL:
		if (size < 12 || cluster_target(op) < 0)
			return HS_SITE_NONE;
		return (p[0] & 0x7f) == VG_SADDR_OFF ? HS_SITE_CLUSTER_LOAD : HS_SITE_CLUSTER_SADDR;
	case HS_B0A0_SOP1:
		if (size < 4 || op != OPCODE(S_BARRIER_SIGNAL_ISFIRST))
			return HS_SITE_NONE;
		return p[0] < 0x80 ? HS_SITE_ISFIRST_REG : HS_SITE_ISFIRST;
	case HS_B0A0_DS:
		if (size != 8)
			return HS_SITE_NONE;
		if (op == OPCODE(DS_LOAD_ADDTID_B32) || op == OPCODE(DS_STORE_ADDTID_B32))
			return HS_SITE_ADDTID;
		return ds2_row_of(op) ? HS_SITE_DS2 : HS_SITE_NONE;
	default:
		return HS_SITE_NONE;
	}
}

void hs_b0a0_in_place(uint8_t dw0[4], enum hs_b0a0_site kind)
{
	uint32_t w = hs_rd32(dw0);

	if (kind == HS_SITE_ISFIRST) {
		dw0[1] = (uint8_t)OPCODE(S_BARRIER_SIGNAL);
		return;
	}
	w = (w & ~VG_OP_MASK) | (uint32_t)cluster_target((w & VG_OP_MASK) >> VG_OP_SHIFT)
	                            << VG_OP_SHIFT;
	hs_wr32(dw0, w);
}

bool hs_sbranch_encode(uint64_t pc, uint64_t target, uint8_t out[4])
{
	/* target = pc + 4 + 4 * simm16, simm16 in [-32768, 32767]. */
	int64_t d = (int64_t)(target - (pc + 4));

	if (d % 4 || d / 4 < INT16_MIN || d / 4 > INT16_MAX)
		return false;
	hs_wr32(out, WORD0(S_BRANCH) | ((uint32_t)(d / 4) & 0xffffu));
	return true;
}

/* SOP1 sdst [22:16], ssrc0 [7:0]; SOP2 sdst [22:16], ssrc1 [15:8], ssrc0 [7:0]. */
#define SRC_LIT32 0xffu
#define SRC_LIT64 0xfeu
/* Source operand codes: m0, the inline constants 0, 2 and -1. */
#define SRC_M0   0x7du
#define SRC_ZERO 0x80u
#define SRC_TWO  0x82u
#define SRC_NEG1 0xc1u

size_t hs_far_jump_size(uint64_t pc, uint64_t target)
{
	return 4 + hs_far_gate_size(pc, target);
}

size_t hs_far_gate_size(uint64_t pc, uint64_t target)
{
	return target - (pc + 4) < (1ull << 31) ? HS_FAR_JUMP_MIN - 4 : HS_FAR_JUMP_MAX - 4;
}

void hs_get_pc_encode(unsigned pair, uint8_t out[4])
{
	hs_wr32(out, WORD0(S_GET_PC_I64) | (pair & 0x7fu) << 16);
}

size_t hs_far_gate_encode(uint64_t pc, uint64_t target, unsigned pair, size_t room, uint8_t *out)
{
	uint64_t delta = target - (pc + 4); /* s_get_pc_i64 gives the next instruction's address */
	size_t size = hs_far_gate_size(pc, target);
	bool lit32 = size == HS_FAR_JUMP_MIN - 4;
	uint32_t p = pair & 0x7fu;

	if (size > room)
		return 0;
	hs_wr32(out, WORD0(S_ADD_NC_U64) | p << 16 | (lit32 ? SRC_LIT32 : SRC_LIT64) << 8 | p);
	if (lit32)
		hs_wr32(out + 4, (uint32_t)delta);
	else
		hs_wr64(out + 4, delta);
	hs_wr32(out + size - 4, WORD0(S_SET_PC_I64) | p);
	return size;
}

size_t hs_far_jump_encode(uint64_t pc, uint64_t target, unsigned pair, size_t room, uint8_t *out)
{
	if (hs_far_jump_size(pc, target) > room)
		return 0;
	hs_get_pc_encode(pair, out);
	return 4 + hs_far_gate_encode(pc, target, pair, room - 4, out + 4);
}

/* True when register ranges [a, a+na) and [b, b+nb) share a VGPR. */
static bool overlap(unsigned a, unsigned na, unsigned b, unsigned nb)
{
	return na && nb && a < b + nb && b < a + na;
}

enum hs_ds2_refusal hs_ds2_split(const uint8_t site[8], uint8_t out[HS_DS2_SPLIT_SIZE])
{
	uint32_t w0 = hs_rd32(site), w1 = hs_rd32(site + 4);
	const struct ds2_row *r = ds2_row_of((w0 & DS_OP_MASK) >> DS_OP_SHIFT);
	unsigned addr = w1 & 0xff, data[2] = {(w1 >> 8) & 0xff, (w1 >> 16) & 0xff};
	unsigned vdst = w1 >> 24, dw, nd, nw, first;
	uint32_t off[2];

	if (!r)
		return HS_DS2_UNKNOWN;
	dw = r->elem / 4;
	nd = r->shape == DS2_STORE ? 0 : dw; /* VGPRs each half writes */
	nw = r->shape == DS2_LOAD ? 0 : dw;  /* data VGPRs each half reads */
	for (int h = 0; h < 2; h++) {
		off[h] = (uint32_t)((w0 >> (8 * h)) & 0xff) * r->elem * (r->stride64 ? 64u : 1u);
		if (off[h] > 0xffff)
			return HS_DS2_OFFSET;
	}
	/* Half h writes vdst + h*dw; the half issued second must still read what it needs. */
	first = 0;
	if (overlap(vdst, nd, addr, 1) || overlap(vdst, nd, data[1], nw)) {
		first = 1;
		if (overlap(vdst + dw, nd, addr, 1) || overlap(vdst + dw, nd, data[0], nw))
			return HS_DS2_CYCLIC;
	}
	for (unsigned i = 0; i < 2; i++) {
		unsigned h = first ^ i;
		uint32_t a = (w0 & ~(DS_OP_MASK | 0xffffu)) |
		             (uint32_t)isa_gfx1250_rows[r->op1].opcode << DS_OP_SHIFT | off[h];
		uint32_t b = addr | (nw ? data[h] << 8 : 0) | (nd ? (vdst + h * dw) << 24 : 0);
		hs_wr32(out + 8 * i, a);
		hs_wr32(out + 8 * i + 4, b);
	}
	hs_wr32(out + 16, WORD0(S_WAIT_DSCNT)); /* s_wait_dscnt 0 */
	return HS_DS2_OK;
}

bool hs_addtid_is_store(const uint8_t site[8])
{
	return ((hs_rd32(site) & DS_OP_MASK) >> DS_OP_SHIFT) == OPCODE(DS_STORE_ADDTID_B32);
}

void hs_addtid_encode(const uint8_t site[8], unsigned scratch, uint8_t out[HS_ADDTID_SIZE])
{
	uint32_t w0 = hs_rd32(site), w1 = hs_rd32(site + 4);
	bool store = hs_addtid_is_store(site);
	uint32_t t = store ? scratch & 0xff : w1 >> 24, d = (w1 >> 8) & 0xff;
	uint32_t vop2 = t << 17 | t << 9; /* vdst [24:17], vsrc1 [16:9] */

	/* VOP3 vdst [7:0]; dword 1 src0 [8:0], src1 [17:9] (VGPRs at 256). */
	hs_wr32(out + 0, WORD0(V_MBCNT_LO_U32_B32) | t); /* v_mbcnt_lo_u32_b32 t, -1, 0 */
	hs_wr32(out + 4, SRC_NEG1 | SRC_ZERO << 9);
	hs_wr32(out + 8, WORD0(V_MBCNT_HI_U32_B32) | t); /* v_mbcnt_hi_u32_b32 t, -1, t */
	hs_wr32(out + 12, SRC_NEG1 | (256u + t) << 9);
	hs_wr32(out + 16, WORD0(V_LSHLREV_B32) | SRC_TWO | vop2); /* v_lshlrev_b32 t, 2, t */
	hs_wr32(out + 20, WORD0(V_ADD_NC_U32) | SRC_M0 | vop2);   /* v_add_nc_u32 t, m0, t */
	/* v_and_b32 t, 0xfffff, t (B0's 20 bits) */
	hs_wr32(out + 24, WORD0(V_AND_B32) | SRC_LIT32 | vop2);
	hs_wr32(out + 28, 0x000fffffu);
	/* ds_load_b32 t, t offset:N | ds_store_b32 t, d offset:N (the site's other bits kept) */
	hs_wr32(out + 32,
	        (w0 & ~DS_OP_MASK) | (uint32_t)(store ? OPCODE(DS_STORE_B32) : OPCODE(DS_LOAD_B32))
	                                 << DS_OP_SHIFT);
	hs_wr32(out + 36, store ? (d << 8 | t) : (t << 24 | t));
}
