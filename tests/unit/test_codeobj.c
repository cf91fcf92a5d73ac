/* libmirage_codeobj: descriptor fields by name per family (kd.h), the metadata merge rule
 * (meta_merge.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names_resolve),
	    cmocka_unit_test(test_fields_per_family),
	    cmocka_unit_test(test_merge_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
