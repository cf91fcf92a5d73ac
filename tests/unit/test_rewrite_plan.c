/* The edit plan: overlap checks, the shared pool allocator, merged kernel changes, policy. */
#include "test_rewrite_util.h"

#include "pass.h"
#include "plan.h"

static struct hs_object load(const char *name, struct blob *in)
{
	struct hs_object o;

	*in = fixture(name);
	assert_int_equal(hs_object_load(&o, in->data, in->size), HS_OK);
	return o;
}

/* Two edits of one byte are an error, whatever order they come in; neighbours are fine. */
static void test_patch_overlap(void **state)
{
	struct blob in;
	struct hs_object o = load("hello", &in);
	struct hs_plan p;
	static const uint8_t four[4] = {1, 2, 3, 4};

	(void)state;
	assert_int_equal(hs_plan_init(&p, &o, HS_PLAN_DECLINE), HS_OK);
	assert_int_equal(hs_plan_patch(&p, 0x100, four, 4), HS_OK);
	assert_int_equal(hs_plan_patch(&p, 0x104, four, 4), HS_OK);
	assert_int_equal(hs_plan_patch(&p, 0xfc, four, 4), HS_OK);
	assert_int_equal(hs_plan_patch(&p, 0x102, four, 1), HS_ERROR);
	assert_non_null(strstr(hs_last_error(), "two edits overlap at file offset 0x102"));
	assert_int_equal(hs_plan_patch(&p, 0xfa, four, 4), HS_ERROR);
	assert_int_equal(hs_plan_patch(&p, 0x107, four, 2), HS_ERROR);
	assert_int_equal(hs_plan_patch(&p, in.size - 2, four, 4), HS_ERROR);
	assert_non_null(strstr(hs_last_error(), "outside the file"));
	assert_int_equal(p.n_patch, 3);
	for (size_t i = 1; i < p.n_patch; i++)
		assert_true(p.patch[i - 1].off < p.patch[i].off);
	hs_plan_free(&p);
	hs_object_free(&o);
	free(in.data);
}

/* Every pass reserves from one pool: page-aligned base, each reservation aligned, zeroed. */
static void test_pool_allocator(void **state)
{
	struct blob in;
	struct hs_object o = load("multi", &in);
	struct hs_plan p;
	uint64_t a, b, c;
	uint8_t *bytes;

	(void)state;
	assert_int_equal(hs_plan_init(&p, &o, HS_PLAN_DECLINE), HS_OK);
	assert_int_equal(hs_plan_reserve(&p, 20, 4, &a, &bytes), HS_OK);
	assert_int_equal(a % 4096, 0);
	assert_true(a >= o.e.max_alloc_end);
	memset(bytes, 0xab, 20);
	assert_int_equal(hs_plan_reserve(&p, 256, 256, &b, &bytes), HS_OK);
	assert_int_equal(b, a + 256);
	for (int i = 0; i < 256; i++)
		assert_int_equal(bytes[i], 0);
	assert_int_equal(hs_plan_reserve(&p, 8, 8, &c, NULL), HS_OK);
	assert_int_equal(c, b + 256);
	assert_int_equal(p.pool.used, 256 + 256 + 8);
	assert_int_equal(p.pool.align, 256);
	/* The gap between the first reservation and the aligned second stays zero. */
	for (uint64_t i = 20; i < 256; i++)
		assert_int_equal(p.pool.bytes[i], 0);
	assert_int_equal(hs_plan_reserve(&p, 8, 3, &c, NULL), HS_ERROR);
	assert_int_equal(hs_plan_reserve(&p, 8, 8192, &c, NULL), HS_ERROR);
	hs_plan_free(&p);
	hs_object_free(&o);
	free(in.data);
}

/*
 * Kernel changes merge across passes: the largest SGPR need, the smallest INST_PREF_SIZE
 * clamp, one entry; finalize turns them into descriptor patches and metadata updates.
 */
static void test_kernel_changes_merge(void **state)
{
	struct blob in;
	struct hs_object o = load("hello", &in);
	const struct cob_kernel *k = &o.ks.k[0];
	struct hs_plan p;
	uint64_t v;

	(void)state;
	assert_int_equal(hs_plan_init(&p, &o, HS_PLAN_DECLINE), HS_OK);
	assert_true(hs_meta_get_uint(o.meta, k->meta, ".sgpr_count", &v));
	assert_int_equal(v, 8);
	hs_plan_kernel_sgprs(&p, 0, 12);
	hs_plan_kernel_sgprs(&p, 0, 20); /* a second pass needs more */
	hs_plan_kernel_sgprs(&p, 0, 4);  /* a third less: the maximum stays */
	hs_plan_kernel_vgprs(&p, 0, 1);  /* below the current 2: no update */
	hs_plan_kernel_inst_pref(&p, 0, 3);
	hs_plan_kernel_inst_pref(&p, 0, 2);
	hs_plan_kernel_inst_pref(&p, 0, 5);
	assert_int_equal(hs_plan_kernel_entry(&p, 0, k->kd_vaddr + 0x2000), HS_OK);
	assert_int_equal(hs_plan_kernel_entry(&p, 0, k->kd_vaddr + 0x2000), HS_OK);
	assert_int_equal(hs_plan_kernel_entry(&p, 0, k->kd_vaddr + 0x3000), HS_ERROR);
	assert_non_null(strstr(hs_last_error(), "two passes move its entry"));
	assert_true(hs_plan_empty(&p));
	assert_int_equal(hs_plan_finalize(&p), HS_OK);
	assert_false(hs_plan_empty(&p));
	assert_int_equal(p.n_meta, 1);
	assert_string_equal(p.meta[0].key, ".sgpr_count");
	assert_int_equal(p.meta[0].value, 20);
	assert_int_equal(p.count[HS_COUNT_KERNELS_RAISED], 1);
	/* The entry offset and RSRC3 (INST_PREF_SIZE 4 clamped to 2) as patches. */
	assert_int_equal(p.n_patch, 2);
	assert_int_equal(p.patch[0].off, k->kd_off + KD_AT(kernel_code_entry_byte_offset));
	assert_int_equal(rd64(p.patch[0].bytes), 0x2000);
	assert_int_equal(p.patch[1].off, k->kd_off + KD_AT(compute_pgm_rsrc3));
	assert_int_equal(kd_field_get(rd32(p.patch[1].bytes), &o.layout->inst_pref_size), 2);
	hs_plan_free(&p);
	hs_object_free(&o);
	free(in.data);
}

/* The plan's policy for a required edit that cannot be placed: decline, or fail closed. */
static void test_decline_policy(void **state)
{
	struct blob in;
	struct hs_object o = load("hello", &in);
	struct hs_plan p;

	(void)state;
	assert_int_equal(hs_plan_init(&p, &o, HS_PLAN_DECLINE), HS_OK);
	assert_int_equal(hs_plan_decline(&p, HS_COUNT_PATCHES_DECLINED, "site 0x%x", 0x40), HS_OK);
	assert_int_equal(p.count[HS_COUNT_PATCHES_DECLINED], 1);
	hs_plan_free(&p);
	assert_int_equal(hs_plan_init(&p, &o, HS_PLAN_STRICT), HS_OK);
	assert_int_equal(hs_plan_decline(&p, HS_COUNT_PATCHES_DECLINED, "site 0x%x", 0x40),
	                 HS_ERROR);
	assert_string_equal(hs_last_error(),
	                    "site 0x40; the edit is required, so the rewrite fails closed");
	assert_int_equal(p.count[HS_COUNT_PATCHES_DECLINED], 0);
	/* One target state per plan. */
	assert_int_equal(hs_plan_state(&p, HS_STATE_A0), HS_OK);
	assert_int_equal(hs_plan_state(&p, HS_STATE_A0), HS_OK);
	assert_int_equal(hs_plan_state(&p, HS_STATE_B0), HS_ERROR);
	hs_plan_free(&p);
	hs_object_free(&o);
	free(in.data);
}

/* The pass table: names unique, each row's report bit its own, dependencies on earlier rows. */
static void test_pass_table(void **state)
{
	uint32_t seen = 0;

	(void)state;
	assert_true(hs_pass_count >= 2);
	for (size_t i = 0; i < hs_pass_count; i++) {
		const struct hs_pass *r = &hs_pass_table[i];
		assert_non_null(r->name);
		assert_non_null(r->plan);
		assert_int_equal(r->report_bit & (r->report_bit - 1), 0);
		assert_int_equal(seen & r->report_bit, 0);
		assert_int_equal(r->after & ~seen, 0); /* only rows that run before it */
		seen |= r->report_bit;
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(hs_pass_table[j].name, r->name);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_patch_overlap),        cmocka_unit_test(test_pool_allocator),
	    cmocka_unit_test(test_kernel_changes_merge), cmocka_unit_test(test_decline_policy),
	    cmocka_unit_test(test_pass_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
