/*
 * The HotSwap environment contract: what `mirage run` gives a workload.
 * Pure computation, so it is unit-tested and `run --dry-run` prints exactly
 * what a real run would exec with.
 *
 * Layers, in order: the starting environment (inherited, or only a few
 * variables with --clear-env) -> the profile's [env] -> the contract -> --env.
 * Search lists (LD_PRELOAD, LD_LIBRARY_PATH, PYTHONPATH, HSA_TOOLS_LIB) are
 * merged instead of replaced: contract entries first, then --env's, then the
 * profile's and the inherited ones, without duplicates.  Contract inputs
 * (source target, adapter policy) take --env first, then the profile, and
 * every derived variable is computed from those final values.
 */
#ifndef MIRAGE_ENV_CONTRACT_H
#define MIRAGE_ENV_CONTRACT_H

#include "diag.h"
#include "hotswap_tree.h"
#include "profile.h"
#include "strvec.h"

#include <stdbool.h>

/* What one variable went through. */
enum env_change_kind {
	ENV_ADDED,
	ENV_CHANGED,
	ENV_REMOVED,
};

struct env_change {
	enum env_change_kind kind;
	char *name;
	char *value; /* NULL for ENV_REMOVED */
	/* Last layer that set it: "profile", "contract", "--env", "--clear-env", or "inherited"
	 * (an inherited search list that only lost empty or repeated entries). */
	const char *origin;
};

struct env_plan {
	struct strvec env;          /* the final environment, "K=V", sorted by name */
	struct env_change *changes; /* delta against the starting environment, sorted by name */
	size_t nchanges;
};
#define ENV_PLAN_INIT                                                                              \
	{                                                                                          \
		.env = STRVEC_INIT                                                                 \
	}

struct contract_input {
	const struct profile *profile;
	const struct hotswap_tree *tree; /* complete tree; ignored for the native emulator */
	const char *target_gfx;          /* resolved target processor (hotswap only) */
	const struct strvec *cli_env;    /* --env K=V, in command-line order (validated) */
	const char *const *environ;      /* mirage's own environment */
	bool clear_env;                  /* --clear-env */
};

/* Variables --clear-env keeps. */
extern const char *const clear_env_keep[];

/* Names and values of the six adapter policies' adapter sets ("" for none). */
const char *adapter_set_for_policy(const char *policy);

/*
 * The final value of a contract input: --env's, else the profile's.  name is
 * HSA_HOTSWAP_SOURCE_TARGET or HSA_HOTSWAP_BACKEND_ADAPTER_POLICY.
 */
const char *contract_input(const struct contract_input *in, const char *name);

/* Builds the plan; returns 0, or -1 with err filled in.  Release with env_plan_release(). */
int env_plan_build(const struct contract_input *in, struct env_plan *out, struct diag *err);
void env_plan_release(struct env_plan *plan);
/* Value of name in env ("K=V" list), or NULL. */
const char *env_lookup(const struct strvec *env, const char *name);

#endif
