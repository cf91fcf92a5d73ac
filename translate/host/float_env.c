/* Whether the CPU runner's float environment is the one a kernel's descriptor asks for. */
#include "float_env.h"

#include "mirage/isa.h"

#include <stdio.h>
#include <string.h>

/* One RSRC1 field, the value the runner computes with, and what each value means. */
struct float_field {
	const char *name; /* kd.h's name */
	uint32_t want;
	bool gfx9_only; /* a GFX6-GFX11 field: its bits mean something else on gfx12 */
	const char *runner;
	const char *value[4];
};

static const struct float_field fields[] = {
#define ROUND                                                                                      \
	{                                                                                          \
		"nearest even", "toward +inf", "toward -inf", "toward zero"                        \
	}
#define DENORM                                                                                     \
	{                                                                                          \
		"flush in and out", "flush out", "flush in", "keep"                                \
	}
    {"float_round_mode_32", 0, false, "rounds to nearest even", ROUND},
    {"float_round_mode_16_64", 0, false, "rounds to nearest even", ROUND},
    {"float_denorm_mode_32", 3, false, "keeps denormals (build without -cl-denorms-are-zero)",
     DENORM},
    {"float_denorm_mode_16_64", 3, false, "keeps denormals", DENORM},
    {"enable_ieee_mode", 1, true, "computes in IEEE mode, LLVM's default", {"off", "on"}},
    {"enable_dx10_clamp", 1, true, "clamps NaN to 0, LLVM's default", {"off", "on"}},
#undef ROUND
#undef DENORM
};

int host_float_env_check(const struct code_object *co, const struct co_kernel *k,
                         const struct raise_result *res, struct raise_refusal *why)
{
	bool gfx9 = isa_arch_of_e_flags(co->mach) != ISA_ARCH_GFX1250;

	if (!res->has_float)
		return 0;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct float_field *f = &fields[i];
		uint32_t v;
		if (f->gfx9_only && !gfx9)
			continue;
		v = co_kd(k, f->name);
		if (v == f->want)
			continue;
		memset(why, 0, sizeof(*why));
		snprintf(why->kernel, sizeof(why->kernel), "%s", k->name);
		why->offset = res->first_float.offset;
		snprintf(why->mnemonic, sizeof(why->mnemonic), "%s", res->first_float.mnemonic);
		why->reason = RAISE_FLOAT_MODE;
		snprintf(why->detail, sizeof(why->detail), "RSRC1 %s is %u (%s); the CPU runner %s",
		         f->name, v, v < 4 && f->value[v] ? f->value[v] : "?", f->runner);
		return -1;
	}
	return 0;
}
