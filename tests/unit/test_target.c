/* Target resolution: profile, then HSA_HOTSWAP_ISA_OVERRIDE, then the first supported visible GPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hotswap_contract.h"
#include "strbuf.h"
#include "target.h"

#include <stdio.h>
#include <string.h>

/* Detected GPUs built in memory: gfx names in index order; hidden ones get visible_rank -1. */
static struct kfd_gpu gpu_store[8];
static size_t visible_store[8];

static struct kfd_gpus make_gpus(const char *const *names, size_t n, const char *hidden)
{
	struct kfd_gpus g = KFD_GPUS_INIT;
	g.kfd_present = true;
	g.gpu = gpu_store;
	g.nr = n;
	g.visible = visible_store;
	for (size_t i = 0; i < n; i++) {
		memset(&gpu_store[i], 0, sizeof(gpu_store[i]));
		gpu_store[i].index = (unsigned)i;
		snprintf(gpu_store[i].gfx, sizeof(gpu_store[i].gfx), "%s", names[i]);
		gpu_store[i].info = gfx_by_name(names[i]);
		gpu_store[i].visible_rank = -1;
		if (hidden && strchr(hidden, (int)('0' + i)))
			continue;
		gpu_store[i].visible_rank = (int)g.nvisible;
		visible_store[g.nvisible++] = i;
	}
	if (g.nvisible < n)
		g.visible_var = "ROCR_VISIBLE_DEVICES";
	return g;
}

static void test_profile_wins(void **state)
{
	const char *names[] = {"gfx1250"};
	struct kfd_gpus g = make_gpus(names, 1, NULL);
	struct target_request req = {.profile_target = "gfx950", .isa_override = "gfx942"};
	struct target_choice c;
	assert_int_equal(target_resolve(&req, &g, &c, NULL, NULL), 0);
	assert_string_equal(c.gfx, "gfx950");
	assert_int_equal(c.origin, TARGET_FROM_PROFILE);
	assert_string_equal(c.origin_text, "profile");
	assert_null(c.gpu);
}

static void test_override(void **state)
{
	struct kfd_gpus g = make_gpus(NULL, 0, NULL);
	struct target_request req = {.profile_target = "auto",
	                             .isa_override = "amdgcn-amd-amdhsa--gfx942:xnack-"};
	struct target_choice c;
	assert_int_equal(target_resolve(&req, &g, &c, NULL, NULL), 0);
	assert_string_equal(c.gfx, "amdgcn-amd-amdhsa--gfx942:xnack-");
	assert_int_equal(c.origin, TARGET_FROM_OVERRIDE);
	assert_string_equal(c.origin_text, HOTSWAP_ENV_ISA_OVERRIDE);
}

static void test_first_supported_gpu(void **state)
{
	const char *names[] = {"gfx90a", "gfx950", "gfx942"};
	struct kfd_gpus g = make_gpus(names, 3, NULL);
	struct target_request req = {
	    .profile_target = NULL, .isa_override = "", .source_target = "gfx1250:32"};
	struct target_choice c;
	assert_int_equal(target_resolve(&req, &g, &c, NULL, NULL), 0);
	assert_string_equal(c.gfx, "gfx950");
	assert_int_equal(c.origin, TARGET_FROM_GPU);
	assert_string_equal(c.origin_text, "detected GPU 1");
	assert_ptr_equal(c.gpu, &gpu_store[1]);
}

static void test_same_isa_gpu(void **state)
{
	const char *names[] = {"gfx1100", "gfx1250"};
	struct kfd_gpus g = make_gpus(names, 2, NULL);
	struct target_request req = {.source_target = "amdgcn-amd-amdhsa--gfx1250:xnack-"};
	struct target_choice c;
	assert_int_equal(target_resolve(&req, &g, &c, NULL, NULL), 0);
	assert_string_equal(c.gfx, "gfx1250");
	assert_string_equal(c.origin_text, "detected GPU 1");
}

static void test_hidden_gpu_skipped(void **state)
{
	const char *names[] = {"gfx942", "gfx950"};
	struct kfd_gpus g = make_gpus(names, 2, "0");
	struct target_request req = {0};
	struct target_choice c;
	assert_int_equal(target_resolve(&req, &g, &c, NULL, NULL), 0);
	assert_string_equal(c.gfx, "gfx950");
	assert_string_equal(c.origin_text, "detected GPU 1");
}

static void test_refusal_names_detected(void **state)
{
	const char *names[] = {"gfx1100", "gfx942"};
	struct kfd_gpus g = make_gpus(names, 2, "1");
	struct target_request req = {.profile_target = "auto"};
	struct target_choice c;
	struct strbuf why = STRBUF_INIT, fix = STRBUF_INIT;
	assert_int_equal(target_resolve(&req, &g, &c, &why, &fix), -1);
	assert_string_equal(why.buf,
	                    "no GPU to retarget gfx1250 code onto: detected gfx1100 (GPU 0), "
	                    "gfx942 (GPU 1, hidden); hidden GPUs are excluded by "
	                    "ROCR_VISIBLE_DEVICES");
	assert_string_equal(
	    fix.buf,
	    "HotSwap retargets gfx1250 onto gfx942, gfx950, gfx1250; "
	    "run on such a GPU, set the profile's target, or export " HOTSWAP_ENV_ISA_OVERRIDE
	    "=<gfx> if this host can run it");
	strbuf_release(&why);
	strbuf_release(&fix);
}

static void test_refusal_no_gpu(void **state)
{
	struct kfd_gpus none = KFD_GPUS_INIT;
	struct target_request req = {0};
	struct target_choice c;
	struct strbuf why = STRBUF_INIT;
	assert_int_equal(target_resolve(&req, &none, &c, &why, NULL), -1);
	assert_string_equal(why.buf, "no GPU to retarget gfx1250 code onto: this host has no KFD "
	                             "topology (no amdgpu driver)");
	strbuf_reset(&why);
	none.kfd_present = true;
	assert_int_equal(target_resolve(&req, &none, &c, &why, NULL), -1);
	assert_string_equal(why.buf,
	                    "no GPU to retarget gfx1250 code onto: the KFD topology lists none");
	strbuf_release(&why);
}

/* HotSwap rewrites gfx12.5 code only: another source has no target at all. */
static void test_unsupported_source(void **state)
{
	const char *names[] = {"gfx942"};
	struct kfd_gpus g = make_gpus(names, 1, NULL);
	struct target_request req = {.source_target = "gfx942:64"};
	struct target_choice c;
	struct strbuf fix = STRBUF_INIT;
	assert_int_equal(target_resolve(&req, &g, &c, NULL, &fix), -1);
	assert_non_null(strstr(fix.buf, "HotSwap retargets gfx942 onto none;"));
	assert_false(target_supported("gfx942", gfx_by_name("gfx950")));
	assert_true(target_supported("gfx1250", gfx_by_name("gfx942")));
	/* Routes only (gfx_route.h): gfx12.5 code runs on its own processor, not on a sibling. */
	assert_false(target_supported("gfx1251", gfx_by_name("gfx1250")));
	assert_false(target_supported("gfx1250", gfx_by_name("gfx1251")));
	assert_true(target_supported("gfx1251", gfx_by_name("gfx1251")));
	assert_false(target_supported("gfx1250", gfx_by_name("gfx1100")));
	assert_false(target_supported("gfx1250", gfx_by_name("gfx9-4-generic")));
	assert_false(target_supported("gfx1250", NULL));
	strbuf_release(&fix);
}

static void test_source_gfx(void **state)
{
	char buf[16];
	assert_string_equal(target_source_gfx("gfx1250:32", buf, sizeof(buf)), "gfx1250");
	assert_string_equal(target_source_gfx(NULL, buf, sizeof(buf)), "gfx1250");
	assert_string_equal(
	    target_source_gfx("amdgcn-amd-amdhsa--gfx1251:xnack+", buf, sizeof(buf)), "gfx1251");
	assert_null(target_source_gfx("gfx1250-but-far-too-long-for-the-buffer", buf, sizeof(buf)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_profile_wins),
	    cmocka_unit_test(test_override),
	    cmocka_unit_test(test_first_supported_gpu),
	    cmocka_unit_test(test_same_isa_gpu),
	    cmocka_unit_test(test_hidden_gpu_skipped),
	    cmocka_unit_test(test_refusal_names_detected),
	    cmocka_unit_test(test_refusal_no_gpu),
	    cmocka_unit_test(test_unsupported_source),
	    cmocka_unit_test(test_source_gfx),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
