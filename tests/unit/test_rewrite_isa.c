/* Target-id parsing of libhotswap_rewrite: bare names, full ids, features, stepping, bad strings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "gfx_table.h"
#include "hs_internal.h"

static void test_parse_good(void **state)
{
	static const struct {
		const char *s, *proc;
		enum hs_feature sramecc, xnack;
		enum hs_stepping step;
	} cases[] = {
	    {"gfx1250", "gfx1250", HS_FEAT_DEFAULT, HS_FEAT_DEFAULT, HS_STEP_DEFAULT},
	    {"amdgcn-amd-amdhsa--gfx1250", "gfx1250", 0, 0, HS_STEP_DEFAULT},
	    {"amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+", "gfx1250", 0, 0, HS_STEP_B0},
	    {"amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific-", "gfx1250", 0, 0, HS_STEP_A0},
	    {"gfx1250:xnack+:gfx1250-b0-specific-", "gfx1250", 0, HS_FEAT_ON, HS_STEP_A0},
	    {"amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-", "gfx90a", HS_FEAT_ON, HS_FEAT_OFF, 0},
	    {"gfx942:sramecc-", "gfx942", HS_FEAT_OFF, 0, 0},
	    {"gfx1251", "gfx1251", 0, 0, 0},
	    {"amdgcn-amd-amdhsa--gfx950", "gfx950", 0, 0, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hs_isa isa;
		char err[128] = "";
		if (hs_isa_parse(cases[i].s, &isa, err, sizeof(err)))
			fail_msg("'%s': %s", cases[i].s, err);
		assert_string_equal(isa.gfx->name, cases[i].proc);
		assert_int_equal(isa.sramecc, cases[i].sramecc);
		assert_int_equal(isa.xnack, cases[i].xnack);
		assert_int_equal(isa.stepping, cases[i].step);
	}
}

static void test_parse_bad(void **state)
{
	static const struct {
		const char *s, *msg;
	} cases[] = {
	    {"", "empty"},
	    {"gfx", "unknown processor"},
	    {"gfx9999", "unknown processor"},
	    {"GFX1250", "unknown processor"},
	    {"amdgcn-amd-amdpal--gfx1250", "unknown processor"},
	    {"amdgcn-amd-amdhsa--", "malformed"},
	    {"amdgcn-amd-amdhsa-gfx1250", "unknown processor"},
	    {"gfx12-5-generic", "unknown processor"}, /* LLVM 22 does not know it */
	    {"gfx12-generic", "unknown processor"},   /* generic: not a processor */
	    {"gfx1250:", "malformed feature"},
	    {"gfx1250::xnack+", "malformed feature"},
	    {"gfx1250:xnack", "must end with"},
	    {"gfx1250:xnack*", "must end with"},
	    {"gfx1250:xnack+:xnack-", "given twice"},
	    {"gfx1250:sramecc+:sramecc+", "given twice"},
	    {"gfx1250:gfx1250-b0-specific+:gfx1250-b0-specific-", "given twice"},
	    {"gfx1251:gfx1250-b0-specific+", "only valid on gfx1250"},
	    {"gfx942:gfx1250-b0-specific-", "only valid on gfx1250"},
	    {"gfx1250:wavefrontsize64+", "unknown feature"},
	    {"gfx1250:+", "malformed feature"},
	    {"gfx1250 ", "unknown processor"},
	    {"amdgcn-amd-amdhsa--gfx1250-b0-specific+", "unknown processor"},
	    {"gfx1250:xnack+"
	     "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa+",
	     "malformed feature"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hs_isa isa;
		char err[256] = "";
		if (!hs_isa_parse(cases[i].s, &isa, err, sizeof(err)))
			fail_msg("'%s' parsed", cases[i].s);
		if (!strstr(err, cases[i].msg))
			fail_msg("'%s': message '%s' lacks '%s'", cases[i].s, err, cases[i].msg);
	}
	assert_int_equal(hs_isa_parse(NULL, &(struct hs_isa){0}, NULL, 0), -1);
}

static void test_from_elf_and_format(void **state)
{
	struct hs_isa isa;
	char buf[128];

	/* V4+: xnack any / sramecc any print nothing (what clang-22 emits for gfx1250). */
	assert_int_equal(hs_isa_from_elf(0x549, 4, &isa), 0);
	assert_true(hs_isa_format(&isa, buf, sizeof(buf)));
	assert_string_equal(buf, "amdgcn-amd-amdhsa--gfx1250");
	assert_true(hs_isa_is_gfx1250(&isa) && hs_isa_is_gfx125x(&isa));
	assert_int_equal(hs_isa_from_elf(0x34f | 0xc00, 4, &isa), 0);
	assert_true(hs_isa_format(&isa, buf, sizeof(buf)));
	assert_string_equal(buf, "amdgcn-amd-amdhsa--gfx950:sramecc+:xnack+");
	assert_int_equal(hs_isa_from_elf(0x23f | 0x800, 4, &isa), 0);
	assert_true(hs_isa_format(&isa, buf, sizeof(buf)));
	assert_string_equal(buf, "amdgcn-amd-amdhsa--gfx90a:sramecc-:xnack-");
	/* V3 bits */
	assert_int_equal(hs_isa_from_elf(0x13f, 1, &isa), 0);
	assert_int_equal(isa.xnack, HS_FEAT_ON);
	assert_int_equal(hs_isa_from_elf(0x5a, 4, &isa), 0);
	assert_true(hs_isa_is_gfx125x(&isa));
	assert_false(hs_isa_is_gfx1250(&isa));
	assert_false(hs_isa_format(&isa, buf, 8));
	assert_int_equal(hs_isa_from_elf(0x00, 4, &isa), -1);
	assert_int_equal(hs_isa_from_elf(0xfe, 4, &isa), -1);
}

/* Every processor of the gfx table round-trips through the parser. */
static void test_table_round_trip(void **state)
{
	size_t n;
	const struct gfx_info *t = gfx_table(&n);
	for (size_t i = 0; i < n; i++) {
		struct hs_isa isa;
		char id[128];
		if (t[i].is_generic || !t[i].llvm22_known)
			continue;
		snprintf(id, sizeof(id), "amdgcn-amd-amdhsa--%s", t[i].name);
		assert_int_equal(hs_isa_parse(id, &isa, NULL, 0), 0);
		assert_ptr_equal(isa.gfx, &t[i]);
		assert_int_equal(hs_isa_from_elf(t[i].mach, 4, &isa), 0);
		assert_ptr_equal(isa.gfx, &t[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_good),
	    cmocka_unit_test(test_parse_bad),
	    cmocka_unit_test(test_from_elf_and_format),
	    cmocka_unit_test(test_table_round_trip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
