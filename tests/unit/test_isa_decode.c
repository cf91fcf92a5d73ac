/* The gfx1250 decoder on hand-checked bytes: bad input, MSB banking, implicit registers, the table.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mirage/isa.h"

/* Bytes below come from llvm-mc-22 -triple amdgcn-amd-amdhsa -mcpu=gfx1250 -show-encoding. */
static const uint8_t s_mov_b64_lit64[] = {0xfe, 0x01, 0x84, 0xbe, 0x89, 0x67,
                                          0x45, 0x23, 0x01, 0x00, 0x00, 0x00};
static const uint8_t v_and_lit32[] = {0xff, 0x3e, 0x0e, 0x36, 0xff, 0x03, 0x00, 0x00};
static const uint8_t global_load[] = {0x7c, 0x00, 0x05, 0xee, 0x01, 0x00,
                                      0x00, 0x00, 0x02, 0xf0, 0xff, 0xff};

static int decode(const uint8_t *b, size_t n, struct isa_state *st, struct isa_inst *in)
{
	return isa_decode_gfx1250(b, n, 0, st, in);
}

static void test_literal64(void **state)
{
	struct isa_inst in;
	(void)state;
	assert_int_equal(decode(s_mov_b64_lit64, sizeof(s_mov_b64_lit64), NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_S_MOV_B64);
	assert_int_equal(in.size, 12);
	assert_int_equal(in.literal_size, 8);
	assert_true(in.literal == 0x123456789ull);
	assert_int_equal(in.nops, 2);
	assert_int_equal(in.ops[0].kind, ISA_OPK_SGPR);
	assert_int_equal(in.ops[0].reg, 4);
	assert_int_equal(in.ops[0].width, 2);
	assert_int_equal(in.ops[1].kind, ISA_OPK_LITERAL);
	assert_true((uint64_t)in.ops[1].imm == 0x123456789ull);
}

/* A literal cut off by the end of the buffer is an error with the offset, never a read past it. */
static void test_truncated_literal(void **state)
{
	struct isa_inst in;
	(void)state;
	for (size_t n = 4; n < sizeof(s_mov_b64_lit64); n++) {
		uint8_t *copy = malloc(n); /* exact size: ASan catches a read past it */
		memcpy(copy, s_mov_b64_lit64, n);
		assert_int_equal(decode(copy, n, NULL, &in), ISA_ERR_TRUNCATED);
		assert_int_equal(in.offset, 0);
		assert_int_equal(in.size, 12);
		free(copy);
	}
	uint8_t *copy = malloc(6);
	memcpy(copy, v_and_lit32, 6);
	assert_int_equal(decode(copy, 6, NULL, &in), ISA_ERR_TRUNCATED);
	free(copy);
}

static void test_truncated_12_byte(void **state)
{
	struct isa_inst in;
	(void)state;
	for (size_t n = 0; n < sizeof(global_load); n++) {
		uint8_t *copy = malloc(n ? n : 1);
		memcpy(copy, global_load, n);
		assert_int_equal(decode(copy, n, NULL, &in), ISA_ERR_TRUNCATED);
		free(copy);
	}
	assert_int_equal(decode(global_load, sizeof(global_load), NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_GLOBAL_LOAD_B32);
	assert_int_equal(in.mods.offset, -16);
	/* At a non-zero offset the error names that offset. */
	uint8_t two[16];
	memcpy(two, global_load, 12);
	memcpy(two + 12, global_load, 4);
	assert_int_equal(isa_decode_gfx1250(two, sizeof(two), 12, NULL, &in), ISA_ERR_TRUNCATED);
	assert_int_equal(in.offset, 12);
}

/* Every shorter prefix of a 12-byte form is an error, never a record (VOPD3, VOP3 DPP, VOPD+K). */
static void test_truncated_forms(void **state)
{
	static const uint8_t forms[][12] = {
	    /* v_dual_fma_f32 v0, v1, v2, v3 :: v_dual_mov_b32 v6, v7 */
	    {0x01, 0x81, 0x4c, 0xcf, 0x07, 0x01, 0x02, 0x03, 0x00, 0x00, 0x00, 0x06},
	    /* v_add_f32_e64_dpp v1, v2, v3 row_shr:1 row_mask:0x3 bank_mask:0xf */
	    {0x01, 0x00, 0x03, 0xd5, 0xfa, 0x06, 0x02, 0x00, 0x02, 0x11, 0x01, 0x3f},
	    /* v_dual_fmaak_f32 v0, v1, v2, 0x40000000 :: v_dual_mov_b32 v3, v4 */
	    {0x01, 0x05, 0x50, 0xc8, 0x04, 0x01, 0x02, 0x00, 0x00, 0x00, 0x00, 0x40},
	};
	static const unsigned ops[] = {ISA_OP_V_FMA_F32, ISA_OP_V_ADD_F32, ISA_OP_V_FMAAK_F32};
	struct isa_inst in;
	(void)state;
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		for (size_t n = 4; n < 12; n++) {
			uint8_t *copy = malloc(n);
			memcpy(copy, forms[f], n);
			assert_int_equal(decode(copy, n, NULL, &in), ISA_ERR_TRUNCATED);
			free(copy);
		}
		assert_int_equal(decode(forms[f], 12, NULL, &in), ISA_OK);
		assert_int_equal(in.size, 12);
		assert_int_equal(in.op, ops[f]);
	}
	assert_int_equal(in.literal, 0x40000000);
}

/* Words no row describes: an unknown record with the family's size, or an error when the size is
 * open. */
static void test_garbage(void **state)
{
	struct isa_inst in;
	/* VOP3 opcode 0x3ff (unused), no literal source: 8 bytes, unknown. */
	static const uint8_t vop3_unknown[] = {0x00, 0x00, 0xff, 0xd7, 0x01, 0x05, 0x02, 0x00};
	/* The same with src0 = 0xff: whether a literal follows depends on the opcode. */
	static const uint8_t vop3_unknown_lit[] = {0x00, 0x00, 0xff, 0xd7, 0xff, 0x04, 0x02, 0x00};
	/* DS opcode 0x5b (no row): DS is always 8 bytes. */
	static const uint8_t ds_unknown[] = {0x00, 0x00, 0x6c, 0xd9, 0x01, 0x00, 0x00, 0x02};
	static const uint8_t ones[] = {0xff, 0xff, 0xff, 0xff};
	(void)state;
	assert_int_equal(decode(vop3_unknown, 8, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_UNKNOWN);
	assert_int_equal(in.format, ISA_FMT_VOP3);
	assert_int_equal(in.size, 8);
	assert_int_equal(in.raw_opcode, 0x3ff);
	assert_string_equal(isa_inst_mnemonic(&in), "<unknown>");
	assert_int_equal(decode(vop3_unknown_lit, 8, NULL, &in), ISA_ERR_SIZE_UNKNOWN);
	assert_int_equal(decode(ds_unknown, 8, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_UNKNOWN);
	assert_int_equal(in.size, 8);
	/* v_and_b16 v2, <64-bit literal>, v1: LLVM 22 gives it 16 bytes, v_mul_lo_u32 12: open. */
	static const uint8_t lit64_narrow[] = {0x02, 0x00, 0x62, 0xd7, 0xfe, 0x02, 0x02, 0x00,
	                                       0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
	assert_int_equal(decode(lit64_narrow, sizeof(lit64_narrow), NULL, &in),
	                 ISA_ERR_SIZE_UNKNOWN);
	/* 0xffffffff is in no gfx1250 family. */
	assert_int_equal(decode(ones, 4, NULL, &in), ISA_ERR_SIZE_UNKNOWN);
	assert_int_equal(decode(NULL, 4, NULL, &in), ISA_ERR_ARG);
}

/* s_set_vgpr_msb 0xe4 (src0 +0, src1 +256, src2 +512, dst +768) then v_fma_f32 v1, v2, v3, v4. */
static void test_vgpr_msb(void **state)
{
	static const uint8_t code[] = {0xe4, 0x00, 0x86, 0xbf, 0x01, 0x00,
	                               0x13, 0xd6, 0x02, 0x07, 0x12, 0x04};
	struct isa_state st;
	struct isa_inst in;
	(void)state;
	isa_state_reset(&st);
	assert_int_equal(isa_decode_gfx1250(code, sizeof(code), 0, &st, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_S_SET_VGPR_MSB);
	assert_int_equal(st.vgpr_msb, 0xe4);
	assert_int_equal(isa_decode_gfx1250(code, sizeof(code), 4, &st, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_V_FMA_F32);
	assert_int_equal(in.ops[0].reg, 769);
	assert_int_equal(in.ops[1].reg, 2);
	assert_int_equal(in.ops[2].reg, 259);
	assert_int_equal(in.ops[3].reg, 516);
	/* A new function starts with the state reset. */
	isa_state_reset(&st);
	assert_int_equal(isa_decode_gfx1250(code, sizeof(code), 4, &st, &in), ISA_OK);
	assert_int_equal(in.ops[0].reg, 1);
}

/*
 * An s_setreg_imm32_b32 of MODE sets the banks from imm32[19:12], in MODE's order (dst, src0,
 * src1, src2 from bit 12 up), whatever field it names: 0xe4 there is src0 +256, src1 +512,
 * src2 +768, dst +0 (s_set_vgpr_msb 0x39).  A write of another hwreg (SCHED_MODE) keeps them.
 */
static void test_vgpr_msb_mode_write(void **state)
{
	static const uint8_t mode[] = {0x41, 0x06, 0x80, 0xb9, 0x00, 0x40, 0x0e, 0x00};
	static const uint8_t sched[] = {0x1a, 0x08, 0x80, 0xb9, 0x00, 0xf0, 0x0f, 0x00};
	static const uint8_t fma[] = {0x01, 0x00, 0x13, 0xd6, 0x02, 0x07, 0x12, 0x04};
	struct isa_state st;
	struct isa_inst in;
	(void)state;
	isa_state_reset(&st);
	assert_int_equal(isa_decode_gfx1250(mode, sizeof(mode), 0, &st, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_S_SETREG_IMM32_B32);
	assert_int_equal(st.vgpr_msb, 0x39);
	assert_int_equal(isa_decode_gfx1250(sched, sizeof(sched), 0, &st, &in), ISA_OK);
	assert_int_equal(st.vgpr_msb, 0x39);
	assert_int_equal(isa_decode_gfx1250(fma, sizeof(fma), 0, &st, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_V_FMA_F32);
	assert_int_equal(in.ops[0].reg, 1);
	assert_int_equal(in.ops[1].reg, 258);
	assert_int_equal(in.ops[2].reg, 515);
	assert_int_equal(in.ops[3].reg, 772);
}

static void test_implicit(void **state)
{
	/* v_cmp_gt_u32_e32 vcc_lo, 5, v0 / v_cmpx_gt_u32_e64 s3, v0 / s_and_saveexec_b32 s3, s2 */
	static const uint8_t cmp[] = {0x85, 0x00, 0x98, 0x7c};
	static const uint8_t cmpx64[] = {0x7e, 0x00, 0xcc, 0xd4, 0x03, 0x00, 0x02, 0x00};
	static const uint8_t saveexec[] = {0x02, 0x20, 0x83, 0xbe};
	/* v_cndmask_b32_e64 v0, -v1, |v2|, s3 */
	static const uint8_t cnd64[] = {0x00, 0x02, 0x01, 0xd5, 0x01, 0x05, 0x0e, 0x20};
	struct isa_inst in;
	(void)state;
	assert_int_equal(decode(cmp, 4, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_V_CMP_GT_U32);
	assert_int_equal(in.impl_def, ISA_IMPL_VCC);
	assert_int_equal(in.impl_use, ISA_IMPL_EXEC); /* every vector instruction reads EXEC */
	assert_int_equal(in.ops[0].kind, ISA_OPK_SPECIAL);
	assert_int_equal(in.ops[0].reg, ISA_REG_VCC_LO);
	assert_int_equal(in.ops[1].kind, ISA_OPK_INLINE);
	assert_int_equal(in.ops[1].imm, 5);
	assert_int_equal(decode(cmpx64, 8, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_V_CMPX_GT_U32);
	assert_int_equal(in.format, ISA_FMT_VOP3);
	assert_int_equal(in.impl_def, ISA_IMPL_EXEC);
	assert_int_equal(in.nops, 2);
	assert_int_equal(decode(saveexec, 4, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_S_AND_SAVEEXEC_B32);
	assert_int_equal(in.impl_def, ISA_IMPL_EXEC | ISA_IMPL_SCC);
	assert_int_equal(in.impl_use, ISA_IMPL_EXEC);
	assert_int_equal(decode(cnd64, 8, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_V_CNDMASK_B32);
	assert_int_equal(in.impl_use, ISA_IMPL_EXEC); /* the e64 form names s3, not vcc */
	assert_int_equal(in.nops, 4);
	assert_true(in.ops[1].flags & ISA_OPF_NEG);
	assert_true(in.ops[2].flags & ISA_OPF_ABS);
	assert_int_equal(in.ops[3].kind, ISA_OPK_SGPR);
	assert_int_equal(in.ops[3].reg, 3);
}

static void test_branch_label(void **state)
{
	/* s_cbranch_execz 47 at offset 8: target 8 + 4 + 47 * 4 */
	static const uint8_t code[] = {0, 0, 0x80, 0xbf, 0, 0, 0x80, 0xbf, 0x2f, 0x00, 0xa5, 0xbf};
	struct isa_inst in;
	(void)state;
	assert_int_equal(isa_decode_gfx1250(code, sizeof(code), 8, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_S_CBRANCH_EXECZ);
	assert_true(in.flags & ISA_F_CONDBR);
	assert_int_equal(in.impl_use, ISA_IMPL_EXEC);
	assert_int_equal(in.ops[0].kind, ISA_OPK_LABEL);
	assert_int_equal(in.ops[0].imm, 8 + 4 + 47 * 4);
}

/*
 * Per table: every row has a mnemonic, a sample, and a (format, opcode) no other row takes;
 * every op id has a row in some table (the canonical list has no orphans).
 */
static void test_table(void **state)
{
	(void)state;
	for (unsigned arch = 0; arch < ISA_ARCH_COUNT; arch++) {
		const struct isa_row *rows = isa_arch_rows(arch);
		assert_non_null(rows);
		for (unsigned a = 1; a < ISA_OP_COUNT; a++) {
			const struct isa_row *r = &rows[a];
			if (!r->mnemonic)
				continue;
			assert_non_null(r->sample);
			assert_true(r->format > ISA_FMT_NONE && r->format < ISA_FMT_COUNT);
			for (unsigned b = a + 1; b < ISA_OP_COUNT; b++) {
				const struct isa_row *q = &rows[b];
				if (!q->mnemonic)
					continue;
				assert_false(r->format == q->format && r->opcode == q->opcode);
				assert_false(r->vopd && r->vopd == q->vopd);
				assert_true(strcmp(r->mnemonic, q->mnemonic) != 0);
			}
		}
	}
	for (unsigned a = 1; a < ISA_OP_COUNT; a++) {
		bool named = false;
		for (unsigned arch = 0; arch < ISA_ARCH_COUNT; arch++)
			named |= isa_arch_rows(arch)[a].mnemonic != NULL;
		assert_true(named);
	}
	assert_null(isa_arch_rows(ISA_ARCH_COUNT));
}

/* isa_gfx1250_word0: every row's first dword, operands zero, decodes back to that row (the rows
 * are pinned against llvm-mc-22 by integration/isa_rows, so this pins the encoder too). */
static void test_word0(void **state)
{
	unsigned checked = 0;

	(void)state;
	for (unsigned op = 1; op < ISA_OP_COUNT; op++) {
		const struct isa_row *r = &isa_gfx1250_rows[op];
		uint8_t buf[16] = {0};
		struct isa_inst in;
		uint32_t w = isa_gfx1250_word0(op);

		if (!r->mnemonic || r->format == ISA_FMT_VOPD || r->format == ISA_FMT_VOPD3) {
			assert_int_equal(w, 0);
			continue;
		}
		memcpy(buf, &w, 4);
		if (isa_decode_gfx1250(buf, sizeof(buf), 0, NULL, &in) < 0 || in.op != op)
			fail_msg("%s: word0 0x%08x decodes as op %u", r->mnemonic, w, in.op);
		checked++;
	}
	assert_true(checked > 1000);
	assert_int_equal(isa_gfx1250_word0(ISA_OP_S_GET_PC_I64), 0xbe804700u);
	assert_int_equal(isa_gfx1250_word0(ISA_OP_V_MBCNT_LO_U32_B32), 0xd71f0000u);
	assert_int_equal(isa_gfx1250_word0(0), 0);
	assert_int_equal(isa_gfx1250_word0(ISA_OP_COUNT), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_literal64),
	    cmocka_unit_test(test_truncated_literal),
	    cmocka_unit_test(test_truncated_12_byte),
	    cmocka_unit_test(test_garbage),
	    cmocka_unit_test(test_vgpr_msb),
	    cmocka_unit_test(test_vgpr_msb_mode_write),
	    cmocka_unit_test(test_implicit),
	    cmocka_unit_test(test_branch_label),
	    cmocka_unit_test(test_table),
	    cmocka_unit_test(test_truncated_forms),
	    cmocka_unit_test(test_word0),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
