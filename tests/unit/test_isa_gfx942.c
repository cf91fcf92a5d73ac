/* The gfx942 decoder on hand-checked bytes: truncation at every length, garbage, wave64 masks,
 * AGPRs, SDWA/DPP, m0's GFX9 code, and the table chosen from e_flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mirage/isa.h"

/* Bytes below come from llvm-mc-22 -triple amdgcn-amd-amdhsa -mcpu=gfx942 -show-encoding. */
static const uint8_t s_load_dword[] = {0xc0, 0x00, 0x02, 0xc0, 0x1c, 0x00, 0x00, 0x00};
static const uint8_t global_load_acc[] = {0x10, 0x80, 0x50, 0xdc, 0x06, 0x00, 0x82, 0x07};
static const uint8_t cmp_sdwa[] = {0xf9, 0x10, 0x94, 0x7d, 0x07, 0x88, 0x00, 0x06};
static const uint8_t accvgpr_write[] = {0x00, 0x40, 0xd9, 0xd3, 0x1f, 0x01, 0x00, 0x18};
static const uint8_t and_lit[] = {0xff, 0x00, 0x04, 0x26, 0xff, 0x03, 0x00, 0x00};
static const uint8_t mov_dpp[] = {0xfa, 0x02, 0x00, 0x7e, 0x01, 0xb1, 0x00, 0xff};
static const uint8_t buffer_load[] = {0x0c, 0x10, 0x50, 0xe0, 0x02, 0x01, 0x01, 0x03};
static const uint8_t ds_read_acc[] = {0x04, 0x00, 0x6c, 0xda, 0x00, 0x00, 0x00, 0x00};
static const uint8_t add_e64[] = {0x02, 0x82, 0x01, 0xd1, 0x00, 0x03, 0x02, 0x28};
static const uint8_t cmp_e32[] = {0x07, 0x03, 0x96, 0x7d};
static const uint8_t mov_m0[] = {0x01, 0x00, 0xfc, 0xbe};

static int decode(const uint8_t *b, size_t n, struct isa_inst *in)
{
	return isa_decode_gfx942(b, n, 0, NULL, in);
}

/* Every 8-byte form, cut at every length, is ISA_ERR_TRUNCATED, never a read past the end. */
static void test_truncated(void **state)
{
	static const struct {
		const uint8_t *b;
		size_t n;
	} forms[] = {
	    {s_load_dword, sizeof(s_load_dword)}, {global_load_acc, sizeof(global_load_acc)},
	    {cmp_sdwa, sizeof(cmp_sdwa)},         {accvgpr_write, sizeof(accvgpr_write)},
	    {and_lit, sizeof(and_lit)},           {mov_dpp, sizeof(mov_dpp)},
	    {buffer_load, sizeof(buffer_load)},   {ds_read_acc, sizeof(ds_read_acc)},
	    {add_e64, sizeof(add_e64)},
	};
	struct isa_inst in;
	(void)state;
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		for (size_t n = 0; n < forms[f].n; n++) {
			uint8_t *copy =
			    malloc(n ? n : 1); /* exact size: ASan catches a read past it */
			memcpy(copy, forms[f].b, n);
			assert_int_equal(decode(copy, n, &in), ISA_ERR_TRUNCATED);
			assert_int_equal(in.offset, 0);
			free(copy);
		}
		assert_int_equal(decode(forms[f].b, forms[f].n, &in), ISA_OK);
		assert_int_equal(in.size, 8);
		assert_int_not_equal(in.op, ISA_OP_UNKNOWN);
		assert_int_equal(in.arch, ISA_ARCH_GFX942);
	}
}

static void test_garbage(void **state)
{
	/* EXP (0xc4...) and MTBUF (0xe8...) are no family of the table: the size is not guessed. */
	static const uint8_t exp_word[] = {0x00, 0x00, 0x00, 0xc4, 0, 0, 0, 0};
	static const uint8_t mtbuf[] = {0x00, 0x00, 0x00, 0xe8, 0, 0, 0, 0};
	/* VOP2 opcode 0x38 (v_dot2c_i32_i16, not in the table) with a literal source code: the
	 * size depends on the opcode (whether it reads src0), so it is not guessed. */
	static const uint8_t vop2_lit[] = {0xff, 0x00, 0x00, 0x70, 0, 0, 0, 0};
	/* SMEM opcode 0xff (none): SMEM is always 8 bytes, an unknown record. */
	static const uint8_t smem_unknown[] = {0x00, 0x00, 0xfc, 0xc3, 0, 0, 0, 0};
	struct isa_inst in;
	(void)state;
	assert_int_equal(decode(exp_word, sizeof(exp_word), &in), ISA_ERR_SIZE_UNKNOWN);
	assert_int_equal(decode(mtbuf, sizeof(mtbuf), &in), ISA_ERR_SIZE_UNKNOWN);
	assert_int_equal(decode(vop2_lit, sizeof(vop2_lit), &in), ISA_ERR_SIZE_UNKNOWN);
	assert_int_equal(decode(smem_unknown, sizeof(smem_unknown), &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_UNKNOWN);
	assert_int_equal(in.size, 8);
	assert_int_equal(in.nops, 0);
	assert_int_equal(isa_decode_gfx942(NULL, 4, 0, NULL, &in), ISA_ERR_ARG);
	assert_int_equal(isa_decode(ISA_ARCH_COUNT, s_load_dword, 8, 0, NULL, &in), ISA_ERR_ARG);
}

/* Canonical op ids with the table's own mnemonics; wave64 masks; m0 reported as ISA_REG_M0. */
static void test_operands(void **state)
{
	struct isa_inst in;
	char text[128];
	(void)state;
	assert_int_equal(decode(s_load_dword, sizeof(s_load_dword), &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_S_LOAD_B32);
	assert_string_equal(isa_inst_mnemonic(&in), "s_load_dword");
	assert_int_equal(in.mods.offset, 0x1c);
	isa_inst_format(&in, text, sizeof(text));
	assert_string_equal(text, "s_load_dword s3, s[0:1], 28");

	assert_int_equal(decode(cmp_e32, sizeof(cmp_e32), &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_V_CMP_LE_U32);
	assert_int_equal(in.ops[0].kind, ISA_OPK_SPECIAL);
	assert_int_equal(in.ops[0].reg, ISA_REG_VCC_LO);
	assert_int_equal(in.ops[0].width, 2);
	assert_true(in.impl_def & ISA_IMPL_VCC);
	assert_true(in.impl_use & ISA_IMPL_EXEC);

	assert_int_equal(decode(cmp_sdwa, sizeof(cmp_sdwa), &in), ISA_OK);
	assert_int_equal(in.sdwa, 1);
	assert_int_equal(in.ops[0].kind, ISA_OPK_SGPR);
	assert_int_equal(in.ops[0].reg, 8);
	assert_int_equal(in.ops[0].width, 2);
	assert_int_equal(in.sdwa_src0_sel, 0);
	assert_int_equal(in.sdwa_src1_sel, 6);

	assert_int_equal(decode(mov_m0, sizeof(mov_m0), &in), ISA_OK);
	assert_int_equal(in.ops[0].kind, ISA_OPK_SPECIAL);
	assert_int_equal(in.ops[0].reg, ISA_REG_M0);

	assert_int_equal(decode(accvgpr_write, sizeof(accvgpr_write), &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_V_ACCVGPR_WRITE_B32);
	assert_int_equal(in.ops[0].kind, ISA_OPK_AGPR);
	assert_int_equal(in.ops[1].kind, ISA_OPK_VGPR);
	assert_int_equal(in.ops[1].reg, 31);

	assert_int_equal(decode(global_load_acc, sizeof(global_load_acc), &in), ISA_OK);
	assert_int_equal(in.acc, 1);
	assert_int_equal(in.ops[0].kind, ISA_OPK_AGPR);
	assert_int_equal(in.ops[0].reg, 7);
	assert_int_equal(in.mods.offset, 16);

	assert_int_equal(decode(mov_dpp, sizeof(mov_dpp), &in), ISA_OK);
	assert_int_equal(in.dpp, 16);
	assert_int_equal(in.mods.dpp_ctrl, 0xb1);
	assert_int_equal(in.mods.row_mask, 0xf);

	assert_int_equal(decode(and_lit, sizeof(and_lit), &in), ISA_OK);
	assert_int_equal(in.literal_size, 4);
	assert_true(in.literal == 0x3ff);
}

/* gfx950's v_bitop3_b32 (D2340702 4C060300, bitop3:0x7a): a gfx950 row, unknown to gfx942. */
static void test_gfx950(void **state)
{
	static const uint8_t bitop3[] = {0x02, 0x07, 0x34, 0xd2, 0x00, 0x03, 0x06, 0x4c};
	struct isa_inst in;
	(void)state;
	assert_int_equal(isa_decode_gfx950(bitop3, sizeof(bitop3), 0, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_V_BITOP3_B32);
	assert_int_equal(in.arch, ISA_ARCH_GFX950);
	assert_int_equal(in.mods.bitop3, 0x7a);
	assert_int_equal(in.nops, 4);
	assert_int_equal(in.ops[0].flags, 0); /* the table bits are no neg/abs modifiers */
	assert_int_equal(in.ops[1].flags, 0);
	assert_int_equal(isa_decode_gfx942(bitop3, sizeof(bitop3), 0, NULL, &in), ISA_OK);
	assert_int_equal(in.op, ISA_OP_UNKNOWN);
	assert_int_equal(in.size, 8);
	/* Every gfx942 row is a gfx950 row. */
	for (unsigned id = 1; id < ISA_OP_COUNT; id++)
		if (isa_gfx942_rows[id].mnemonic)
			assert_ptr_equal(isa_gfx942_rows[id].mnemonic,
			                 isa_gfx950_rows[id].mnemonic);
}

/* The ELF's processor picks the table: gfx950 -> gfx950, the rest of gfx9.4 -> gfx942, gfx12.5 ->
 * gfx1250, anything else none. */
static void test_arch_of_e_flags(void **state)
{
	(void)state;
	assert_int_equal(isa_arch_of_e_flags(0x4c), ISA_ARCH_GFX942); /* gfx942 */
	/* gfx950 with the xnack/sramecc bits set */
	assert_int_equal(isa_arch_of_e_flags(0x4f | 0x300), ISA_ARCH_GFX950);
	assert_int_equal(isa_arch_of_e_flags(0x5f), ISA_ARCH_GFX942);  /* gfx9-4-generic */
	assert_int_equal(isa_arch_of_e_flags(0x49), ISA_ARCH_GFX1250); /* gfx1250 */
	assert_int_equal(isa_arch_of_e_flags(0x5a), ISA_ARCH_GFX1250); /* gfx1251: its family's */
	assert_int_equal(isa_arch_of_e_flags(0x2c), -1);               /* gfx900: no table */
	assert_int_equal(isa_arch_of_e_flags(0), -1);
	assert_string_equal(isa_arch_name(ISA_ARCH_GFX942), "gfx942");
	assert_string_equal(isa_arch_name(ISA_ARCH_COUNT), "?");
	/* the one architecture table: names both ways, LDS sizes */
	for (unsigned a = 0; a < ISA_ARCH_COUNT; a++)
		assert_int_equal(isa_arch_by_name(isa_arch_name(a)), (int)a);
	assert_int_equal(isa_arch_by_name("gfx1251"), -1);
	assert_int_equal(isa_arch_by_name(NULL), -1);
	assert_int_equal(isa_arch_lds_limit(ISA_ARCH_GFX950), 160u * 1024);
	assert_int_equal(isa_arch_lds_limit(ISA_ARCH_COUNT), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_truncated), cmocka_unit_test(test_garbage),
	    cmocka_unit_test(test_operands),  cmocka_unit_test(test_arch_of_e_flags),
	    cmocka_unit_test(test_gfx950),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
