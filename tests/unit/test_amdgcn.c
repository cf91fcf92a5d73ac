/* The translator's pieces that need no GPU and no LLVM run: the descriptor checks (every way a
 * descriptor can be refused, bad-descriptor), the target table and the proofs' value map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "amdgcn.h"
#include "gfx_table.h"
#include "mirage/isa.h"
#include "valmap.h"

static void put32(uint8_t *kd, unsigned off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		kd[off + i] = (uint8_t)(v >> (8 * i));
}

/* A gfx942 kernel as LLVM gives it: 24 VGPRs, accum 24, no AGPRs, 1 KiB LDS, 24-byte kernarg. */
static void good(struct co_kernel *out, struct co_kernel *src)
{
	memset(out, 0, sizeof(*out));
	memset(src, 0, sizeof(*src));
	put32(out->kd, 0, 1024);              /* group segment */
	put32(out->kd, 8, 24);                /* kernarg */
	put32(out->kd, 44, 24 / 4 - 1);       /* RSRC3 ACCUM_OFFSET */
	put32(out->kd, 48, (24 + 7) / 8 - 1); /* RSRC1 VGPR granules */
	out->vgpr_count = 24;
	out->kernarg_size = 24;
	out->max_flat_wg = 256;
	out->wavefront_size = 64;
	src->kernarg_size = 24;
	src->group_fixed = 1024;
	src->max_flat_wg = 256;
}

/* amdgcn_validate of out's descriptor bytes, decoded as the code-object reader decodes them. */
static int validate(struct co_kernel *out, const struct co_kernel *src, const char *target,
                    char *msg, size_t size)
{
	kd_decode(out->kd, &out->desc);
	out->layout = kd_layout_of(gfx_by_name(target));
	return amdgcn_validate(out, src, amdgcn_target_find(target), 0, msg, size);
}

static void expect_bad(struct co_kernel *out, const struct co_kernel *src, const char *target,
                       const char *detail)
{
	char msg[160];
	assert_int_equal(validate(out, src, target, msg, sizeof(msg)), -1);
	if (!strstr(msg, detail))
		fail_msg("detail '%s' does not say '%s'", msg, detail);
}

static void test_good_descriptor(void **state)
{
	struct co_kernel out, src;
	char msg[160] = "";
	(void)state;
	good(&out, &src);
	assert_int_equal(validate(&out, &src, "gfx942", msg, sizeof(msg)), 0);
	/* AGPRs after the accumulation offset, inside the granules. */
	out.agpr_count = 8;
	put32(out.kd, 48, (24 + 8 + 7) / 8 - 1);
	assert_int_equal(validate(&out, &src, "gfx950", msg, sizeof(msg)), 0);
}

static void test_bad_descriptors(void **state)
{
	struct co_kernel out, src;
	(void)state;
	good(&out, &src);
	put32(out.kd, 44,
	      16 / 4 - 1); /* accum 16 below 24 VGPRs: the layout bug the check exists for */
	expect_bad(&out, &src, "gfx942", "ACCUM_OFFSET 16 does not cover the 24 architected VGPRs");
	good(&out, &src);
	out.agpr_count = 16; /* 24 + 16 AGPRs do not fit 3 granules (24 VGPRs) */
	expect_bad(&out, &src, "gfx942", "RSRC1 allocates 24 VGPRs, the kernel needs 40");
	good(&out, &src);
	put32(out.kd, 4, 64); /* a private size without the segment enabled */
	expect_bad(&out, &src, "gfx942", "the private segment is disabled but the kernel uses");
	good(&out, &src);
	put32(out.kd, 52, 1); /* enabled without a private size */
	expect_bad(&out, &src, "gfx942", "the private segment is enabled but the kernel uses no");
	good(&out, &src);
	put32(out.kd, 0, 96 * 1024);
	src.group_fixed = 96 * 1024;
	expect_bad(&out, &src, "gfx942", "98304 bytes of LDS exceed gfx942's 65536");
	good(&out, &src);
	put32(out.kd, 0, 0);
	expect_bad(&out, &src, "gfx942", "0 bytes of LDS, the source needs 1024");
	good(&out, &src);
	src.kernarg_size = 288;
	expect_bad(&out, &src, "gfx942",
	           "kernarg segment of 24 bytes (metadata 24), the source's is 288");
	good(&out, &src);
	src.max_flat_wg = 1024;
	expect_bad(&out, &src, "gfx942", "max_flat_workgroup_size 256 is below the source's 1024");
	good(&out, &src);
	out.wavefront_size = 32;
	expect_bad(&out, &src, "gfx942", "wavefront size 32, not 64");
	good(&out, &src);
	out.kd[57] = 1 << 2; /* kernel code properties bit 10: wave32 */
	expect_bad(&out, &src, "gfx942", "not 64");
}

static void test_targets(void **state)
{
	(void)state;
	assert_int_equal(isa_arch_lds_limit(amdgcn_target_find("gfx942")->arch), 64 * 1024);
	assert_int_equal(isa_arch_lds_limit(amdgcn_target_find("gfx950")->arch), 160 * 1024);
	assert_null(amdgcn_target_find("gfx1250"));
	assert_null(amdgcn_target_find(NULL));
	assert_string_equal(amdgcn_target_list(), "gfx942, gfx950");
}

static void test_valmap(void **state)
{
	struct valmap m = {0};
	static int keys[1000];
	(void)state;
	assert_int_equal(valmap_get(&m, &keys[0]), -1);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(valmap_put(&m, &keys[i], i), 0);
	assert_int_equal(valmap_put(&m, &keys[7], 70), 0);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(valmap_get(&m, &keys[i]), i == 7 ? 70 : i);
	assert_int_equal(m.n, 1000);
	valmap_free(&m);
	assert_int_equal(valmap_get(&m, &keys[1]), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_good_descriptor),
	    cmocka_unit_test(test_bad_descriptors),
	    cmocka_unit_test(test_targets),
	    cmocka_unit_test(test_valmap),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
