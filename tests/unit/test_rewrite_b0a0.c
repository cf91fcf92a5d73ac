/* The B0->A0 pass's bytes against llvm-mc-22's encodings, and its policy through hs_rewrite. */
#include "test_rewrite_util.h"

#include "b0a0_encode.h"

#include <mirage/isa.h>

#define HEX(...) ((const uint8_t[]){__VA_ARGS__})

/* The s_branch encoder decides reach: +-32768 dwords from PC+4, not a distance constant. */
static void test_sbranch_reach(void **state)
{
	uint8_t b[4];

	(void)state;
	assert_true(hs_sbranch_encode(0, 4 + 4 * 32767, b));
	assert_memory_equal(b, HEX(0xff, 0x7f, 0xa0, 0xbf), 4);
	assert_false(hs_sbranch_encode(0, 4 + 4 * 32768, b));
	assert_true(hs_sbranch_encode(0x1fffc, 0, b));
	assert_memory_equal(b, HEX(0x00, 0x80, 0xa0, 0xbf), 4);
	assert_false(hs_sbranch_encode(0x20000, 0, b));
	assert_false(hs_sbranch_encode(0, 6, b)); /* misaligned */
}

/*
 * The far jump through a pair, never s_add_pc_i64 (llvm-mc-22 -mcpu=gfx1250): "s_get_pc_i64
 * s[8:9]" = 00 47 88 be; "s_add_nc_u64 s[8:9], s[8:9], 0x12340" = 08 ff 88 a9 40 23 01 00;
 * "s_set_pc_i64 s[8:9]" = 08 48 80 be; "s_add_nc_u64 s[104:105], s[104:105],
 * lit64(0xfffffffffffedcc0)" = 68 fe e8 a9 c0 dc fe ff ff ff ff ff.  The delta counts from
 * the instruction after s_get_pc_i64 (pc + 4).
 */
static void test_far_jump(void **state)
{
	uint8_t b[HS_FAR_JUMP_MAX];

	(void)state;
	assert_int_equal(hs_far_jump_encode(0x1000, 0x1004 + 0x12340, 8, 16, b), 16);
	assert_memory_equal(b,
	                    HEX(0x00, 0x47, 0x88, 0xbe, 0x08, 0xff, 0x88, 0xa9, 0x40, 0x23, 0x01,
	                        0x00, 0x08, 0x48, 0x80, 0xbe),
	                    16);
	assert_int_equal(hs_far_jump_encode(0x20000, 0x20004 - 0x12340, 104, 20, b), 20);
	assert_memory_equal(b,
	                    HEX(0x00, 0x47, 0xe8, 0xbe, 0x68, 0xfe, 0xe8, 0xa9, 0xc0, 0xdc, 0xfe,
	                        0xff, 0xff, 0xff, 0xff, 0xff, 0x68, 0x48, 0x80, 0xbe),
	                    20);
	/* Backwards, or 2^31 and more forwards, needs the 64-bit literal: 20 bytes. */
	assert_int_equal(hs_far_jump_size(0x20000, 0x1000), 20);
	assert_int_equal(hs_far_jump_size(0, 4 + (1ull << 31)), 20);
	assert_int_equal(hs_far_jump_size(0, 4 + (1ull << 31) - 4), 16);
	assert_int_equal(hs_far_jump_encode(0x20000, 0x1000, 2, 16, b), 0);
}

/* In place: cluster_load_b32 v1, v[2:3], off -> global_load_b32; isfirst -1 -> signal -1. */
static void test_in_place(void **state)
{
	uint8_t c[12] = {0x7c, 0xc0, 0x19, 0xee, 0x01, 0, 0, 0, 0x02, 0, 0, 0};
	uint8_t a8[4] = {0x7c, 0x80, 0x1a, 0xee}, s[4] = {0xc1, 0x4f, 0x80, 0xbe};

	(void)state;
	assert_int_equal(hs_b0a0_classify(c, 12, ISA_FMT_VGLOBAL, 103), HS_SITE_CLUSTER_LOAD);
	hs_b0a0_in_place(c, HS_SITE_CLUSTER_LOAD);
	assert_memory_equal(c, HEX(0x7c, 0x00, 0x05, 0xee), 4);
	hs_b0a0_in_place(a8, HS_SITE_CLUSTER_LOAD); /* async_to_lds_b8 */
	assert_memory_equal(a8, HEX(0x7c, 0xc0, 0x17, 0xee), 4);
	assert_int_equal(hs_b0a0_classify(HEX(0x04, 0xc0, 0x19, 0xee, 1, 0, 0, 0, 2, 0, 0, 0), 12,
	                                  ISA_FMT_VGLOBAL, 103),
	                 HS_SITE_CLUSTER_SADDR);
	assert_int_equal(hs_b0a0_classify(s, 4, ISA_FMT_SOP1, 0x4f), HS_SITE_ISFIRST);
	hs_b0a0_in_place(s, HS_SITE_ISFIRST);
	assert_memory_equal(s, HEX(0xc1, 0x4e, 0x80, 0xbe), 4);
	assert_int_equal(hs_b0a0_classify(HEX(0x7d, 0x4f, 0x80, 0xbe), 4, ISA_FMT_SOP1, 0x4f),
	                 HS_SITE_ISFIRST_REG);
	hs_nop_encode(s); /* s_nop 0, the filler of a patched site */
	assert_memory_equal(s, HEX(0x00, 0x00, 0x80, 0xbf), 4);
}

/* The opcode field of a first dword. */
static unsigned opcode_at(const uint8_t dw0[4], unsigned shift)
{
	return (unsigned)((dw0[0] | dw0[1] << 8 | dw0[2] << 16 | (uint32_t)dw0[3] << 24) >> shift) &
	       0xff;
}

/*
 * What replaces what comes from the decoder's rows (their MEM, TYPE and OPER): every cluster
 * load becomes its global load, every DS two-address form splits into its single form, as the
 * B0->A0 table of docs/rewriter.md says.
 */
static void test_replacements_from_rows(void **state)
{
	static const unsigned cluster[][2] = {
	    {ISA_OP_CLUSTER_LOAD_B32, ISA_OP_GLOBAL_LOAD_B32},
	    {ISA_OP_CLUSTER_LOAD_B64, ISA_OP_GLOBAL_LOAD_B64},
	    {ISA_OP_CLUSTER_LOAD_B128, ISA_OP_GLOBAL_LOAD_B128},
	    {ISA_OP_CLUSTER_LOAD_ASYNC_TO_LDS_B8, ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B8},
	    {ISA_OP_CLUSTER_LOAD_ASYNC_TO_LDS_B32, ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B32},
	    {ISA_OP_CLUSTER_LOAD_ASYNC_TO_LDS_B64, ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B64},
	    {ISA_OP_CLUSTER_LOAD_ASYNC_TO_LDS_B128, ISA_OP_GLOBAL_LOAD_ASYNC_TO_LDS_B128},
	};
	static const unsigned ds2[][2] = {
	    {ISA_OP_DS_LOAD_2ADDR_B32, ISA_OP_DS_LOAD_B32},
	    {ISA_OP_DS_LOAD_2ADDR_STRIDE64_B32, ISA_OP_DS_LOAD_B32},
	    {ISA_OP_DS_LOAD_2ADDR_B64, ISA_OP_DS_LOAD_B64},
	    {ISA_OP_DS_LOAD_2ADDR_STRIDE64_B64, ISA_OP_DS_LOAD_B64},
	    {ISA_OP_DS_STORE_2ADDR_B32, ISA_OP_DS_STORE_B32},
	    {ISA_OP_DS_STORE_2ADDR_STRIDE64_B32, ISA_OP_DS_STORE_B32},
	    {ISA_OP_DS_STORE_2ADDR_B64, ISA_OP_DS_STORE_B64},
	    {ISA_OP_DS_STORE_2ADDR_STRIDE64_B64, ISA_OP_DS_STORE_B64},
	    {ISA_OP_DS_STOREXCHG_2ADDR_RTN_B32, ISA_OP_DS_STOREXCHG_RTN_B32},
	    {ISA_OP_DS_STOREXCHG_2ADDR_STRIDE64_RTN_B32, ISA_OP_DS_STOREXCHG_RTN_B32},
	    {ISA_OP_DS_STOREXCHG_2ADDR_RTN_B64, ISA_OP_DS_STOREXCHG_RTN_B64},
	    {ISA_OP_DS_STOREXCHG_2ADDR_STRIDE64_RTN_B64, ISA_OP_DS_STOREXCHG_RTN_B64},
	};
	unsigned n_sites = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(cluster) / sizeof(cluster[0]); i++) {
		uint32_t w = isa_gfx1250_word0(cluster[i][0]) | 0x7c; /* saddr off */
		uint8_t site[12] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
		                    (uint8_t)(w >> 24)};
		assert_int_equal(hs_b0a0_classify(site, 12, ISA_FMT_VGLOBAL,
		                                  isa_gfx1250_rows[cluster[i][0]].opcode),
		                 HS_SITE_CLUSTER_LOAD);
		hs_b0a0_in_place(site, HS_SITE_CLUSTER_LOAD);
		assert_int_equal(opcode_at(site, 14), isa_gfx1250_rows[cluster[i][1]].opcode);
	}
	for (size_t i = 0; i < sizeof(ds2) / sizeof(ds2[0]); i++) {
		uint32_t w = isa_gfx1250_word0(ds2[i][0]) | 0x0201; /* offset0:1 offset1:2 */
		uint8_t site[8] =
		    {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24), 1, 2, 4,
		     8},
		        out[HS_DS2_SPLIT_SIZE];
		assert_int_equal(
		    hs_b0a0_classify(site, 8, ISA_FMT_DS, isa_gfx1250_rows[ds2[i][0]].opcode),
		    HS_SITE_DS2);
		assert_int_equal(hs_ds2_split(site, out), HS_DS2_OK);
		assert_int_equal(opcode_at(out, 18), isa_gfx1250_rows[ds2[i][1]].opcode);
		assert_int_equal(opcode_at(out + 8, 18), isa_gfx1250_rows[ds2[i][1]].opcode);
	}
	/* and no other row of the table is a site */
	for (unsigned id = 1; id < ISA_OP_COUNT; id++) {
		const struct isa_row *r = &isa_gfx1250_rows[id];
		uint8_t site[12] = {0};
		if (r->mnemonic && hs_b0a0_classify(site, r->format == ISA_FMT_DS ? 8 : 12,
		                                    r->format, r->opcode) != HS_SITE_NONE)
			n_sites++;
	}
	assert_int_equal(n_sites, 7 + 12 + 2 + 1); /* cluster loads, DS2, ADDTID, isfirst */
}

/* DS2 splits: bytes, stride64 limits, the overlap order, the cyclic exchange. */
static void test_ds2_split(void **state)
{
	uint8_t out[HS_DS2_SPLIT_SIZE];

	(void)state;
	/* ds_load_2addr_b32 v[2:3], v1 offset0:1 offset1:2 */
	assert_int_equal(hs_ds2_split(HEX(0x01, 0x02, 0xdc, 0xd8, 0x01, 0x00, 0x00, 0x02), out),
	                 HS_DS2_OK);
	assert_memory_equal(out,
	                    HEX(0x04, 0x00, 0xd8, 0xd8, 0x01, 0x00, 0x00, 0x02, 0x08, 0x00, 0xd8,
	                        0xd8, 0x01, 0x00, 0x00, 0x03, 0x00, 0x00, 0xc6, 0xbf),
	                    HS_DS2_SPLIT_SIZE);
	/* ds_store_2addr_b64 v1, v[2:3], v[4:5] offset0:1 offset1:2 */
	assert_int_equal(hs_ds2_split(HEX(0x01, 0x02, 0x38, 0xd9, 0x01, 0x02, 0x04, 0x00), out),
	                 HS_DS2_OK);
	assert_memory_equal(out,
	                    HEX(0x08, 0x00, 0x34, 0xd9, 0x01, 0x02, 0x00, 0x00, 0x10, 0x00, 0x34,
	                        0xd9, 0x01, 0x04, 0x00, 0x00),
	                    16);
	/* stride64_b64 offset0:127 fits (65024), 128 does not (65536). */
	assert_int_equal(hs_ds2_split(HEX(0x7f, 0x01, 0xe0, 0xd9, 0x01, 0x00, 0x00, 0x02), out),
	                 HS_DS2_OK);
	assert_int_equal(hs_ds2_split(HEX(0x80, 0x00, 0xe0, 0xd9, 0x01, 0x00, 0x00, 0x02), out),
	                 HS_DS2_OFFSET);
	/* stride64_b32 always fits: 255 * 256 = 65280. */
	assert_int_equal(hs_ds2_split(HEX(0xff, 0xff, 0xe0, 0xd8, 0x01, 0x00, 0x00, 0x02), out),
	                 HS_DS2_OK);
	/* ds_load_2addr_b32 v[2:3], v2: the address is the first destination, second half first. */
	assert_int_equal(hs_ds2_split(HEX(0x03, 0x04, 0xdc, 0xd8, 0x02, 0x00, 0x00, 0x02), out),
	                 HS_DS2_OK);
	assert_memory_equal(out,
	                    HEX(0x10, 0x00, 0xd8, 0xd8, 0x02, 0x00, 0x00, 0x03, 0x0c, 0x00, 0xd8,
	                        0xd8, 0x02, 0x00, 0x00, 0x02),
	                    16);
	/* ds_storexchg_2addr_rtn_b32 v[2:3], v1, v3, v2: each half writes what the other reads. */
	assert_int_equal(hs_ds2_split(HEX(0x01, 0x02, 0xb8, 0xd8, 0x01, 0x03, 0x02, 0x02), out),
	                 HS_DS2_CYCLIC);
	assert_int_equal(hs_ds2_split(HEX(0x01, 0x02, 0xd8, 0xd8, 0x01, 0x00, 0x00, 0x02), out),
	                 HS_DS2_UNKNOWN);
}

/* ADDTID: the B0->A0 table's bytes (docs/rewriter.md) for v5, offset 16 (the load) and a store via
 * v10. */
static void test_addtid(void **state)
{
	uint8_t out[HS_ADDTID_SIZE];
	const uint8_t *load = HEX(0x10, 0x00, 0xc4, 0xda, 0x00, 0x00, 0x00, 0x05);
	const uint8_t *store = HEX(0x10, 0x00, 0xc0, 0xda, 0x00, 0x05, 0x00, 0x00);

	(void)state;
	assert_false(hs_addtid_is_store(load));
	hs_addtid_encode(load, 0, out);
	assert_memory_equal(out,
	                    HEX(0x05, 0x00, 0x1f, 0xd7, 0xc1, 0x00, 0x01, 0x00, /* mbcnt_lo */
	                        0x05, 0x00, 0x20, 0xd7, 0xc1, 0x0a, 0x02, 0x00, /* mbcnt_hi */
	                        0x82, 0x0a, 0x0a, 0x30,                         /* lshlrev */
	                        0x7d, 0x0a, 0x0a, 0x4a,                         /* add m0 */
	                        0xff, 0x0a, 0x0a, 0x36, 0xff, 0xff, 0x0f, 0x00, /* and */
	                        0x10, 0x00, 0xd8, 0xd8, 0x05, 0x00, 0x00, 0x05),
	                    HS_ADDTID_SIZE);
	assert_true(hs_addtid_is_store(store));
	hs_addtid_encode(store, 10, out);
	/* ds_store_b32 v10, v5 offset:16 */
	assert_memory_equal(out + 32, HEX(0x10, 0x00, 0x34, 0xd8, 0x0a, 0x05, 0x00, 0x00), 8);
}

/* Required sites that cannot be placed: fail closed by default and under STRICT; best effort
 * declines each, counts it per kind and says so in the note. */
static void test_policy(void **state)
{
	struct blob in = fixture("b0a0_decline");
	struct hs_rewrite_output out = {0};
	HS_OPTS(hs_rewrite_report, rep);

	(void)state;
	for (int strict = 0; strict < 2; strict++) {
		HS_OPTS(hs_rewrite_opts, opts,
		        .flags = strict ? HS_REWRITE_STRICT | HS_REWRITE_BEST_EFFORT : 0);
		assert_int_equal(hs_rewrite(in.data, in.size, NULL, "gfx1250", &opts, &out, &rep),
		                 HS_ERROR);
		assert_int_equal(rep.reason, HS_REASON_CANNOT_APPLY);
		assert_non_null(strstr(rep.message, "kernel 'far': ds_load_2addr_stride64_b64 at "
		                                    ".text+0x0 (vaddr 0x"));
	}
	{
		HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_BEST_EFFORT);
		assert_int_equal(hs_rewrite(in.data, in.size, NULL, "gfx1250", &opts, &out, &rep),
		                 HS_OK);
	}
	assert_int_equal(rep.count[HS_COUNT_B0A0_DS2_DECLINED], 2);
	/* The two adjacent sites beyond s_branch reach of the pool share one far jump. */
	assert_int_equal(rep.count[HS_COUNT_B0A0_DS2], 2);
	assert_int_equal(rep.count[HS_COUNT_B0A0_LONG_JUMP], 2);
	assert_int_equal(rep.count[HS_COUNT_B0A0_FAR_JUMPS], 1);
	assert_int_equal(rep.count[HS_COUNT_B0A0_FAR_PAIR_KERNELS], 1);
	assert_int_equal(rep.count[HS_COUNT_B0A0_FAR_PAIR_LOW], 8);
	assert_int_equal(rep.count[HS_COUNT_B0A0_FAR_PAIR_HIGH], 8);
	assert_int_equal(rep.patches_declined, 2);
	assert_int_equal(rep.reason, HS_REASON_SITES_DECLINED);
	assert_non_null(strstr(rep.message, "first: kernel 'far': ds_load_2addr_stride64_b64"));
	assert_true(rep.changed); /* the B0 tag is still retagged */
	hs_rewrite_output_release(&out);
	free(in.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sbranch_reach), cmocka_unit_test(test_in_place),
	    cmocka_unit_test(test_ds2_split),     cmocka_unit_test(test_replacements_from_rows),
	    cmocka_unit_test(test_addtid),        cmocka_unit_test(test_policy),
	    cmocka_unit_test(test_far_jump),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
