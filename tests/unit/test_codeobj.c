/* libmirage_codeobj: descriptor fields by name per family (kd.h), the metadata merge rule and
 * the records read merged by it (meta_merge.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "gfx_table.h"
#include "kd.h"
#include "meta_merge.h"

static void put32(uint8_t *kd, unsigned off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		kd[off + i] = (uint8_t)(v >> (8 * i));
}

/* Every name the raiser and the translator read resolves on the families they read. */
static void test_names_resolve(void **state)
{
	static const char *const common[] = {"granulated_workitem_vgpr_count",
	                                     "float_round_mode_32",
	                                     "float_round_mode_16_64",
	                                     "float_denorm_mode_32",
	                                     "float_denorm_mode_16_64",
	                                     "user_sgpr_count",
	                                     "enable_private_segment",
	                                     "enable_sgpr_workgroup_id_x",
	                                     "enable_sgpr_workgroup_id_y",
	                                     "enable_sgpr_workgroup_id_z",
	                                     "enable_sgpr_workgroup_info",
	                                     "enable_vgpr_workitem_id",
	                                     "enable_sgpr_private_segment_buffer",
	                                     "enable_sgpr_dispatch_ptr",
	                                     "enable_sgpr_queue_ptr",
	                                     "enable_sgpr_kernarg_segment_ptr",
	                                     "enable_sgpr_dispatch_id",
	                                     "enable_sgpr_flat_scratch_init",
	                                     "enable_sgpr_private_segment_size",
	                                     "enable_wavefront_size32",
	                                     "uses_dynamic_stack",
	                                     "kernarg_preload_spec_length",
	                                     "kernarg_preload_spec_offset"};
	static const char *const family[] = {"gfx1250", "gfx942", "gfx950"};
	const struct kd_field *f;
	unsigned which;
	(void)state;

	for (size_t g = 0; g < sizeof(family) / sizeof(family[0]); g++)
		for (size_t i = 0; i < sizeof(common) / sizeof(common[0]); i++)
			if (!kd_find(kd_layout_of(gfx_by_name(family[g])), common[i], &f, &which))
				fail_msg("%s has no descriptor field '%s'", family[g], common[i]);
	assert_true(kd_find(kd_layout_of(gfx_by_name("gfx942")), "accum_offset", &f, &which));
	assert_false(kd_find(kd_layout_of(gfx_by_name("gfx1250")), "accum_offset", &f, &which));
	assert_false(kd_find(kd_layout_of(gfx_by_name("gfx942")), "no_such_field", &f, &which));
}

/* The same bits mean different widths per family: USER_SGPR_COUNT is 6 bits on gfx12.5. */
static void test_fields_per_family(void **state)
{
	uint8_t raw[KD_SIZE] = {0};
	struct kd d;
	(void)state;

	put32(raw, KD_AT(compute_pgm_rsrc2), 33u << 1 | 1u << 11 | 1);
	put32(raw, KD_AT(compute_pgm_rsrc1), 2u << 16 | 3u << 18 | 5);
	raw[KD_AT(kernel_code_properties) + 1] = 1u << 2; /* bit 10 */
	raw[KD_AT(kernarg_preload)] = 3 | 1u << 7;        /* length 3 */
	raw[KD_AT(kernarg_preload) + 1] = 2;              /* offset (2 << 8 | 1 << 7) >> 7 = 5 */
	kd_decode(raw, &d);
	assert_int_equal(kd_get(&d, kd_layout_of(gfx_by_name("gfx1250")), "user_sgpr_count"), 33);
	assert_int_equal(kd_get(&d, kd_layout_of(gfx_by_name("gfx942")), "user_sgpr_count"), 1);
	assert_int_equal(kd_get(&d, kd_layout_of(gfx_by_name("gfx942")), "enable_vgpr_workitem_id"),
	                 1);
	assert_int_equal(kd_get(&d, kd_layout_of(gfx_by_name("gfx942")), "enable_private_segment"),
	                 1);
	assert_int_equal(kd_get(&d, kd_layout_of(gfx_by_name("gfx1250")), "float_denorm_mode_32"),
	                 2);
	assert_int_equal(
	    kd_get(&d, kd_layout_of(gfx_by_name("gfx1250")), "float_denorm_mode_16_64"), 3);
	assert_int_equal(
	    kd_get(&d, kd_layout_of(gfx_by_name("gfx1250")), "granulated_workitem_vgpr_count"), 5);
	assert_int_equal(
	    kd_get(&d, kd_layout_of(gfx_by_name("gfx1250")), "enable_wavefront_size32"), 1);
	assert_int_equal(
	    kd_get(&d, kd_layout_of(gfx_by_name("gfx1250")), "kernarg_preload_spec_length"), 3);
	assert_int_equal(
	    kd_get(&d, kd_layout_of(gfx_by_name("gfx1250")), "kernarg_preload_spec_offset"), 5);
	assert_int_equal(kd_get(&d, kd_layout_of(gfx_by_name("gfx1250")), "no_such_field"), 0);
}

/* A document {"amdhsa.version": [1, v], "amdhsa.kernels": [...]?, "amdhsa.printf": [p]?}. */
static void doc(msgpack_sbuffer *sb, msgpack_unpacked *up, int minor, int kernels,
                const char *printf_fmt)
{
	msgpack_packer pk;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 1 + !!kernels + !!printf_fmt);
	msgpack_pack_str_with_body(&pk, "amdhsa.version", 14);
	msgpack_pack_array(&pk, 2);
	msgpack_pack_int(&pk, 1);
	msgpack_pack_int(&pk, minor);
	if (kernels) {
		msgpack_pack_str_with_body(&pk, "amdhsa.kernels", 14);
		msgpack_pack_array(&pk, 0);
	}
	if (printf_fmt) {
		msgpack_pack_str_with_body(&pk, "amdhsa.printf", 13);
		msgpack_pack_array(&pk, 1);
		msgpack_pack_str_with_body(&pk, printf_fmt, strlen(printf_fmt));
	}
	msgpack_unpacked_init(up);
	assert_int_equal(msgpack_unpack_next(up, sb->data, sb->size, NULL), MSGPACK_UNPACK_SUCCESS);
}

static void test_merge_rule(void **state)
{
	static const struct {
		int minor0, kernels0;
		const char *printf0;
		int minor, kernels;
		const char *printf1;
		int merges;
	} c[] = {
	    {2, 1, NULL, 2, 1, NULL, 1}, /* same version */
	    {2, 1, NULL, 1, 1, NULL, 0}, /* another version: left out */
	    {2, 1, "a", 2, 1, "a", 1},   /* equal printf */
	    {2, 1, "a", 2, 1, "b", 0},   /* printf formats that differ */
	    {2, 1, "a", 2, 1, NULL, 1},  /* one printf only */
	    {2, 1, NULL, 2, 0, NULL, 0}, /* no amdhsa.kernels */
	};
	(void)state;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		msgpack_sbuffer s0, s1;
		msgpack_unpacked u0, u1;
		doc(&s0, &u0, c[i].minor0, c[i].kernels0, c[i].printf0);
		doc(&s1, &u1, c[i].minor, c[i].kernels, c[i].printf1);
		if (codeobj_meta_mergeable(&u0.data, &u1.data) != c[i].merges)
			fail_msg("case %zu: merges is %d", i, !c[i].merges);
		msgpack_unpacked_destroy(&u0);
		msgpack_unpacked_destroy(&u1);
		msgpack_sbuffer_destroy(&s0);
		msgpack_sbuffer_destroy(&s1);
	}
	assert_null(codeobj_map_get(NULL, "x"));
}

/* A record {"amdhsa.version": [1, minor], "amdhsa.kernels": [{".name": n}, ...]}. */
static void record(msgpack_sbuffer *sb, int minor, const char *const *names, size_t n)
{
	msgpack_packer pk;

	msgpack_sbuffer_init(sb);
	msgpack_packer_init(&pk, sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 2);
	msgpack_pack_str_with_body(&pk, "amdhsa.version", 14);
	msgpack_pack_array(&pk, 2);
	msgpack_pack_int(&pk, 1);
	msgpack_pack_int(&pk, minor);
	msgpack_pack_str_with_body(&pk, "amdhsa.kernels", 14);
	msgpack_pack_array(&pk, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		msgpack_pack_map(&pk, 1);
		msgpack_pack_str_with_body(&pk, ".name", 5);
		msgpack_pack_str_with_body(&pk, names[i], strlen(names[i]));
	}
}

static const char *kernel_name(const struct cob_meta *m, size_t k)
{
	static char buf[32];
	const msgpack_object *o = codeobj_map_get(cob_meta_kernel(m, k), ".name");

	assert_non_null(o);
	snprintf(buf, sizeof(buf), "%.*s", (int)o->via.str.size, o->via.str.ptr);
	return buf;
}

/* Records offered in order: the first is the metadata, later ones merge or are left out. */
static void test_records_merged(void **state)
{
	static const char *const ab[] = {"a", "b"}, *const c[] = {"c"}, *const d[] = {"d"};
	static const uint8_t not_msgpack[] = {0xc1}, array_root[] = {0x90},
	                     kernels_not_array[] = {0x81, 0xae, 'a', 'm', 'd', 'h', 's', 'a', '.',
	                                            'k',  'e',  'r', 'n', 'e', 'l', 's', 0x05};
	struct cob_meta m = COB_META_INIT;
	msgpack_sbuffer s;
	(void)state;

	record(&s, 2, ab, 2);
	assert_int_equal(cob_meta_add(&m, s.data, s.size), COB_META_TAKEN);
	msgpack_sbuffer_destroy(&s);
	record(&s, 2, c, 1);
	assert_int_equal(cob_meta_add(&m, s.data, s.size), COB_META_TAKEN);
	/* The same bytes and one more: not exactly one document. */
	msgpack_sbuffer_write(&s, "\0", 1);
	assert_int_equal(cob_meta_add(&m, s.data, s.size), COB_META_NOT_DOCUMENT);
	msgpack_sbuffer_destroy(&s);
	record(&s, 1, d, 1); /* another amdhsa.version */
	assert_int_equal(cob_meta_add(&m, s.data, s.size), COB_META_LEFT_OUT);
	msgpack_sbuffer_destroy(&s);
	assert_int_equal(cob_meta_add(&m, not_msgpack, sizeof(not_msgpack)), COB_META_NOT_DOCUMENT);
	assert_int_equal(cob_meta_add(&m, array_root, sizeof(array_root)), COB_META_NOT_MAP);
	assert_int_equal(m.n_rec, 2);
	assert_int_equal(m.n_kernels, 3);
	assert_int_equal(m.n_left_out, 4);
	assert_int_equal(m.rec[1].first, 2);
	assert_string_equal(kernel_name(&m, 0), "a");
	assert_string_equal(kernel_name(&m, 1), "b");
	assert_string_equal(kernel_name(&m, 2), "c");
	assert_int_equal(cob_meta_record_of(&m, 1), 0);
	assert_int_equal(cob_meta_record_of(&m, 2), 1);
	assert_null(cob_meta_kernel(&m, 3));
	cob_meta_free(&m);
	assert_int_equal(m.n_rec, 0);

	/* A first record that is no metadata is not taken, nor counted: the caller decides. */
	assert_int_equal(cob_meta_add(&m, not_msgpack, sizeof(not_msgpack)), COB_META_NOT_DOCUMENT);
	assert_int_equal(cob_meta_add(&m, kernels_not_array, sizeof(kernels_not_array)),
	                 COB_META_KERNELS_NOT_ARRAY);
	assert_int_equal(m.n_rec, 0);
	assert_int_equal(m.n_left_out, 0);
	cob_meta_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names_resolve),
	    cmocka_unit_test(test_fields_per_family),
	    cmocka_unit_test(test_merge_rule),
	    cmocka_unit_test(test_records_merged),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
