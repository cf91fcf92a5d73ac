/* hs_inspect: JSON for kernels, descriptors, counts, metadata, notes, pools, and disassembly. */
#include "test_rewrite_util.h"

#include <cjson/cJSON.h>

static cJSON *inspect(struct blob b, unsigned flags, const char *kernel)
{
	char *json = NULL;
	cJSON *root;

	if (hs_inspect(b.data, b.size, flags, kernel, &json) != HS_OK)
		fail_msg("hs_inspect: %s", hs_last_error());
	root = cJSON_Parse(json);
	assert_non_null(root);
	free(json);
	return root;
}

static const cJSON *get(const cJSON *o, const char *path)
{
	char buf[256], *save = NULL;
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && o; k = strtok_r(NULL, ".", &save))
		o = cJSON_IsArray(o) ? cJSON_GetArrayItem(o, atoi(k))
		                     : cJSON_GetObjectItemCaseSensitive(o, k);
	if (!o)
		fail_msg("no '%s' in the JSON", path);
	return o;
}

static void test_fresh_object(void **state)
{
	struct blob in = fixture("hello");
	cJSON *j = inspect(in, 0, NULL);

	assert_string_equal(get(j, "isa")->valuestring, "amdgcn-amd-amdhsa--gfx1250");
	assert_string_equal(get(j, "processor")->valuestring, "gfx1250");
	assert_string_equal(get(j, "kernels.0.name")->valuestring, "hello");
	assert_int_equal(get(j, "kernels.0.sgpr_count")->valueint, 8);
	assert_int_equal(get(j, "kernels.0.descriptor.compute_pgm_rsrc3.inst_pref_size")->valueint,
	                 4);
	assert_int_equal(get(j, "kernels.0.descriptor.kernarg_size")->valueint, 8);
	assert_true(cJSON_IsTrue(get(j, "kernels.0.entry_in_text")));
	assert_true(cJSON_IsFalse(get(j, "kernels.0.entry_is_stub")));
	assert_true(
	    cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(get(j, "metadata"), "amdhsa.kernels")));
	assert_string_equal(get(j, "notes.0.owner")->valuestring, "AMDGPU");
	assert_int_equal(get(j, "notes.0.type")->valueint, 32);
	assert_int_equal(cJSON_GetArraySize(get(j, "pools")), 0);
	cJSON_Delete(j);
	free(in.data);
}

/*
 * The RSRC registers are decoded in the layout of the object's family, with LLVM 22's
 * field names: gfx9.4 RSRC3 holds ACCUM_OFFSET, gfx8 has no RSRC3 fields, gfx12.5's
 * USER_SGPR_COUNT is 6 bits wide.
 */
static void test_descriptor_layout_per_family(void **state)
{
	static const struct {
		const char *fixture, *processor, *path;
		int value; /* -1: the field must be absent */
	} cases[] = {
	    {"gfx942", "gfx942", "compute_pgm_rsrc3.accum_offset", 0},
	    {"gfx942", "gfx942", "compute_pgm_rsrc3.inst_pref_size", -1},
	    {"gfx942", "gfx942", "compute_pgm_rsrc1.fp16_ovfl", 0},
	    {"gfx942", "gfx942", "compute_pgm_rsrc1.wgp_mode", -1},
	    {"gfx803", "gfx803", "compute_pgm_rsrc1.granulated_wavefront_sgpr_count", 1},
	    {"gfx803", "gfx803", "compute_pgm_rsrc1.enable_ieee_mode", 1},
	    {"gfx803", "gfx803", "compute_pgm_rsrc1.fp16_ovfl", -1},
	    {"gfx803", "gfx803", "compute_pgm_rsrc3.inst_pref_size", -1},
	    {"gfx700", "gfx700", "compute_pgm_rsrc1.enable_ieee_mode", 1},
	    {"gfx700", "gfx700", "compute_pgm_rsrc1.fp16_ovfl", -1},
	    {"hello", "gfx1250", "compute_pgm_rsrc1.disable_perf", 0},
	    {"hello", "gfx1250", "compute_pgm_rsrc1.enable_ieee_mode", -1},
	    {"hello", "gfx1250", "compute_pgm_rsrc3.inst_pref_size", 4},
	    {"hello", "gfx1250", "compute_pgm_rsrc2.user_sgpr_count", 2},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct blob in = fixture(cases[i].fixture);
		cJSON *j = inspect(in, 0, NULL);
		const cJSON *kd = get(j, "kernels.0.descriptor");
		char reg[64], *field;

		assert_string_equal(get(j, "processor")->valuestring, cases[i].processor);
		snprintf(reg, sizeof(reg), "%s", cases[i].path);
		field = strchr(reg, '.');
		*field++ = '\0';
		kd = get(kd, reg);
		assert_true(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(kd, "raw")));
		if (cases[i].value < 0) {
			if (cJSON_GetObjectItemCaseSensitive(kd, field))
				fail_msg("%s: %s has a field %s", cases[i].fixture, reg, field);
		} else {
			assert_int_equal(get(kd, field)->valueint, cases[i].value);
		}
		cJSON_Delete(j);
		free(in.data);
	}
}

static void test_stubbed_object_with_disasm(void **state)
{
	struct blob in = fixture("multi");
	struct hs_rewrite_output out = rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL);
	struct blob b = {out.data, out.size};
	cJSON *j = inspect(b, HS_INSPECT_DISASM, "k_c_display_name");
	const cJSON *dis;

	assert_int_equal(cJSON_GetArraySize(get(j, "kernels")), 1);
	assert_string_equal(get(j, "kernels.0.name")->valuestring, "k_c");
	assert_true(cJSON_IsTrue(get(j, "kernels.0.entry_is_stub")));
	assert_int_equal(get(j, "kernels.0.sgpr_count")->valueint, 108);
	assert_int_equal(get(j, "kernels.0.stub_scratch_sgpr")->valueint, 104);
	dis = get(j, "kernels.0.disasm");
	/* The stub shows as k_c.stub, then the original entry under its own symbol. */
	assert_string_equal(get(dis, "0.label")->valuestring, "k_c.stub");
	assert_string_equal(get(dis, "0.text")->valuestring,
	                    "global_prefetch_b8 v0, s[0:1] scope:SCOPE_SE");
	assert_string_equal(get(dis, "1.text")->valuestring, "v_nop");
	assert_string_equal(get(dis, "2.text")->valuestring, "s_get_pc_i64 s[104:105]");
	assert_string_equal(get(dis, "5.text")->valuestring, "s_set_pc_i64 s[104:105]");
	assert_string_equal(get(dis, "6.text")->valuestring, "s_code_end");
	assert_string_equal(get(dis, "7.label")->valuestring, "k_c");
	assert_string_equal(get(dis, "7.vaddr")->valuestring,
	                    get(j, "kernels.0.stub_target")->valuestring);
	assert_true(cJSON_IsTrue(get(j, "pools.0.entry_trampolines")));
	assert_string_equal(get(j, "pools.0.target_state")->valuestring, "neutral");
	cJSON_Delete(j);
	hs_rewrite_output_release(&out);
	free(in.data);
}

static void test_bad_arguments(void **state)
{
	struct blob in = fixture("hello");
	char *json = NULL;

	assert_int_equal(hs_inspect(in.data, in.size, 0, "nope", &json), HS_INVALID_ARGUMENT);
	assert_non_null(strstr(hs_last_error(), "nope"));
	assert_int_equal(hs_inspect(in.data, in.size, 0x80, NULL, &json), HS_INVALID_ARGUMENT);
	assert_int_equal(hs_inspect(in.data, 40, 0, NULL, &json), HS_INVALID_ARGUMENT);
	assert_int_equal(hs_inspect(NULL, 0, 0, NULL, &json), HS_INVALID_ARGUMENT);
	assert_int_equal(hs_inspect(in.data, in.size, 0, NULL, NULL), HS_INVALID_ARGUMENT);
	assert_null(json);
	free(in.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fresh_object),
	    cmocka_unit_test(test_descriptor_layout_per_family),
	    cmocka_unit_test(test_stubbed_object_with_disasm),
	    cmocka_unit_test(test_bad_arguments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
