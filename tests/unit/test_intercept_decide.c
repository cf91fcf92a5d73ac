/* The intercept's route table (docs/intercept.md), row by row, and its switches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <hotswap/rewrite.h>

#include "decide.h"
#include "hotswap_contract.h"

struct row {
	const char *agent;
	int asic_rev; /* -1: the runtime does not answer */
	const char *obj_isa;
	struct hsi_config cfg;
	bool rewrite;
	bool required;
	const char *src; /* expected source_isa (NULL = the object's) */
	uint64_t flags;
	const char *translate_to; /* a translation to this target (NULL: not a translation) */
};

#define B0OBJ     "amdgcn-amd-amdhsa--gfx1250"
#define A0OBJ     "amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific-"
#define STEP_NONE .stepping = HSI_STEP_UNKNOWN

static const struct row rows[] = {
    /* A0 gfx1250 + B0 object: B0->A0 by default, plus trampolines when asked. */
    {"gfx1250", 0, B0OBJ, {STEP_NONE}, true, false, HSI_ISA_GFX1250_B0, 0, NULL},
    {"gfx1250",
     0,
     B0OBJ,
     {.trampolines = true, STEP_NONE},
     true,
     false,
     HSI_ISA_GFX1250_B0,
     HS_REWRITE_ENTRY_DEFAULT,
     NULL},
    {"gfx1250",
     0,
     B0OBJ,
     {.strict = true, STEP_NONE},
     true,
     true,
     HSI_ISA_GFX1250_B0,
     HS_REWRITE_STRICT,
     NULL},
    /* An object already built for A0 needs no stepping pass. */
    {"gfx1250", 0, A0OBJ, {STEP_NONE}, false, false, NULL, 0, NULL},
    /* B0 gfx1250: nothing by default; trampolines B0->B0; strict B0 rewrite. */
    {"gfx1250", 1, B0OBJ, {STEP_NONE}, false, false, NULL, 0, NULL},
    {"gfx1250",
     1,
     B0OBJ,
     {.trampolines = true, STEP_NONE},
     true,
     false,
     NULL,
     HS_REWRITE_ENTRY_DEFAULT,
     NULL},
    {"gfx1250", 1, B0OBJ, {.strict = true, STEP_NONE}, true, true, NULL, HS_REWRITE_STRICT, NULL},
    /* A later revision is B0 silicon too (doctor says so through the same gfx_stepping). */
    {"gfx1250", 2, B0OBJ, {STEP_NONE}, false, false, NULL, 0, NULL},
    /* Any gfx125x with trampolines keeps its processor. */
    {"gfx1251",
     0,
     "amdgcn-amd-amdhsa--gfx1251",
     {.trampolines = true, STEP_NONE},
     true,
     false,
     NULL,
     HS_REWRITE_ENTRY_DEFAULT,
     NULL},
    {"gfx1251", 0, "amdgcn-amd-amdhsa--gfx1251", {STEP_NONE}, false, false, NULL, 0, NULL},
    /* Everything else passes through, whatever the switches say. */
    {"gfx942",
     0,
     "amdgcn-amd-amdhsa--gfx942",
     {.trampolines = true, .strict = true, STEP_NONE},
     false,
     false,
     NULL,
     0,
     NULL},
    /* gfx1250 code on gfx942/gfx950: the translator, always required (it cannot run there),
     * no trampolines (a gfx12.5 fix), strict passed on. */
    {"gfx942", 0, B0OBJ, {.trampolines = true, STEP_NONE}, true, true, NULL, 0, "gfx942"},
    {"gfx950", -1, A0OBJ, {STEP_NONE}, true, true, NULL, 0, "gfx950"},
    {"gfx942",
     0,
     B0OBJ,
     {.strict = true, STEP_NONE},
     true,
     true,
     NULL,
     HS_REWRITE_STRICT,
     "gfx942"},
    /* HSA_HOTSWAP_ISA_OVERRIDE naming gfx942/gfx950 picks the translation's target. */
    {"gfx1250", 0, B0OBJ, {.isa_override = "gfx950", STEP_NONE}, true, true, NULL, 0, "gfx950"},
    {"gfx942", 0, B0OBJ, {.isa_override = "gfx950", STEP_NONE}, true, true, NULL, 0, "gfx950"},
    /* An override that is no cross-family target leaves the agent's. */
    {"gfx942", 0, B0OBJ, {.isa_override = "gfx1250", STEP_NONE}, true, true, NULL, 0, "gfx942"},
    {"gfx1250",
     0,
     B0OBJ,
     {.isa_override = "gfx1250", STEP_NONE},
     true,
     false,
     HSI_ISA_GFX1250_B0,
     0,
     NULL},
    /* The translator reads gfx1250 only; other objects on gfx942 pass, and so does DISABLE. */
    {"gfx942", 0, "amdgcn-amd-amdhsa--gfx1251", {STEP_NONE}, false, false, NULL, 0, NULL},
    {"gfx942", 0, B0OBJ, {.disable = true, STEP_NONE}, false, false, NULL, 0, NULL},
    {"gfx1100", 0, B0OBJ, {STEP_NONE}, false, false, NULL, 0, NULL},
    {"gfx1250",
     0,
     "amdgcn-amd-amdhsa--gfx942",
     {.trampolines = true, STEP_NONE},
     false,
     false,
     NULL,
     0,
     NULL},
    {"gfx1250",
     0,
     B0OBJ,
     {.disable = true, .trampolines = true, STEP_NONE},
     false,
     false,
     NULL,
     0,
     NULL},
    /* HSA_HOTSWAP_STEPPING overrides what the runtime reports. */
    {"gfx1250", 1, B0OBJ, {.stepping = HSI_STEP_A0}, true, false, HSI_ISA_GFX1250_B0, 0, NULL},
    {"gfx1250", 0, B0OBJ, {.stepping = HSI_STEP_B0}, false, false, NULL, 0, NULL},
    /* No ASIC revision from the runtime: no stepping pass, trampolines still work. */
    {"gfx1250", -1, B0OBJ, {STEP_NONE}, false, false, NULL, 0, NULL},
    {"gfx1250",
     -1,
     B0OBJ,
     {.trampolines = true, STEP_NONE},
     true,
     false,
     NULL,
     HS_REWRITE_ENTRY_DEFAULT,
     NULL},
};

static void proc_of(const char *isa, char *out, size_t n)
{
	const char *p = strstr(isa, "--") + 2;
	size_t len = strcspn(p, ":");
	assert_true(len < n);
	memcpy(out, p, len);
	out[len] = '\0';
}

static void test_rows(void **state)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		struct hsi_agent_facts af = {.have_asic_rev = r->asic_rev >= 0,
		                             .asic_rev =
		                                 (uint32_t)(r->asic_rev < 0 ? 0 : r->asic_rev)};
		struct hsi_object_facts obj;
		struct hsi_decision d;

		strcpy(af.gfx, r->agent);
		strcpy(obj.isa, r->obj_isa);
		proc_of(r->obj_isa, obj.proc, sizeof(obj.proc));
		hsi_decide(&r->cfg, &af, &obj, &d);
		if (d.rewrite != r->rewrite || d.required != r->required || d.flags != r->flags)
			fail_msg(
			    "row %zu (%s rev %d, %s): rewrite %d required %d flags 0x%llx (%s)", i,
			    r->agent, r->asic_rev, r->obj_isa, d.rewrite, d.required,
			    (unsigned long long)d.flags, d.why);
		if (d.translate != (r->translate_to != NULL))
			fail_msg("row %zu: translate %d (%s)", i, d.translate, d.why);
		if (r->src)
			assert_string_equal(d.source_isa, r->src);
		else
			assert_null(d.source_isa);
		if (r->translate_to)
			assert_string_equal(d.target_isa, r->translate_to);
		else if (r->src)
			assert_string_equal(d.target_isa, HSI_ISA_GFX1250_A0);
		else
			assert_null(d.target_isa);
		assert_non_null(d.why);
	}
}

/* A gfx12.5 object for another processor with no route is refused, never passed on. */
static void test_no_route_refuses(void **state)
{
	static const struct {
		const char *agent, *obj_isa;
		bool disable, refuse;
	} cases[] = {
	    {"gfx1251", B0OBJ, false, true},                       /* gfx1250 code, no route */
	    {"gfx1100", B0OBJ, false, true},                       /* a gfx11 agent */
	    {"gfx942", "amdgcn-amd-amdhsa--gfx1251", false, true}, /* not a translation source */
	    {"gfx1250", "amdgcn-amd-amdhsa--gfx1251", false, true},
	    {"gfx1251", B0OBJ, true, false}, /* HSA_HOTSWAP_DISABLE: the user's choice */
	    {"gfx1251", "amdgcn-amd-amdhsa--gfx1251", false, false}, /* its own processor */
	    {"gfx1250", A0OBJ, false, false},
	    {"gfx942", B0OBJ, false, false},                        /* translated */
	    {"gfx1250", "amdgcn-amd-amdhsa--gfx942", false, false}, /* not gfx12.5: not ours */
	    {"gfx1251", "amdgcn-amd-amdhsa--gfx12-5-generic", false,
	     false}, /* the runtime's rule */
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct hsi_config cfg = {.disable = cases[i].disable, STEP_NONE};
		struct hsi_agent_facts af = {.have_asic_rev = true};
		struct hsi_object_facts obj;
		struct hsi_decision d;

		strcpy(af.gfx, cases[i].agent);
		strcpy(obj.isa, cases[i].obj_isa);
		proc_of(obj.isa, obj.proc, sizeof(obj.proc));
		hsi_decide(&cfg, &af, &obj, &d);
		if (d.refuse != cases[i].refuse || (d.refuse && d.rewrite))
			fail_msg("case %zu (%s on %s): refuse %d rewrite %d (%s)", i, obj.proc,
			         af.gfx, d.refuse, d.rewrite, d.why);
	}
}

static void test_config_from_env(void **state)
{
	struct hsi_config c;

	setenv(HOTSWAP_ENV_DISABLE, "off", 1);
	setenv(HOTSWAP_ENV_STRICT, "yes", 1);
	setenv(HOTSWAP_ENV_ENTRY_TRAMPOLINES, "0", 1);
	setenv(HOTSWAP_ENV_STEPPING, "B0", 1);
	hsi_config_from_env(&c);
	assert_false(c.disable);
	assert_true(c.strict);
	assert_false(c.trampolines);
	assert_int_equal(c.stepping, HSI_STEP_B0);
	assert_false(c.stepping_invalid);

	setenv(HOTSWAP_ENV_STEPPING, "c0", 1);
	setenv(HOTSWAP_ENV_ENTRY_TRAMPOLINES, "TRUE", 1);
	hsi_config_from_env(&c);
	assert_int_equal(c.stepping, HSI_STEP_UNKNOWN);
	assert_true(c.stepping_invalid);
	assert_true(c.trampolines);

	unsetenv(HOTSWAP_ENV_STEPPING);
	setenv(HOTSWAP_ENV_DISABLE, "1", 1);
	setenv(HOTSWAP_ENV_ISA_OVERRIDE, "gfx950", 1);
	hsi_config_from_env(&c);
	assert_true(c.disable);
	assert_false(c.stepping_invalid);
	assert_string_equal(c.isa_override, "gfx950");
	unsetenv(HOTSWAP_ENV_ISA_OVERRIDE);
	hsi_config_from_env(&c);
	assert_string_equal(c.isa_override, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows),
	    cmocka_unit_test(test_no_route_refuses),
	    cmocka_unit_test(test_config_from_env),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
