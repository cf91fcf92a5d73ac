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
 *
 * Under a hotswap profile the contract owns the HSA_HOTSWAP_* namespace: an
 * inherited HSA_HOTSWAP_* variable is dropped (a stale HSA_HOTSWAP_DISABLE=1
 * in the shell must not turn the intercept off), except the two that only
 * change what the intercept prints.  The profile's [env] and --env may set
 * any of them.
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

/* What `mirage run` does with an HSA_HOTSWAP_* variable in mirage's own environment. */
enum inherited_fate {
	INHERITED_PASSED, /* diagnostics only (VERBOSE, CACHE_DEBUG): reaches the workload */
	INHERITED_INPUT, /* read by mirage (ISA_OVERRIDE picks the target), then set by the contract
	                  */
	INHERITED_DROPPED,  /* every other HSA_HOTSWAP_* knob: the profile decides, --env overrides
	                     */
	INHERITED_NOT_OURS, /* not an HSA_HOTSWAP_* variable: the layers treat it as usual */
};
enum inherited_fate contract_inherited_fate(const char *name);

/*
 * The one predicate for "can this tree's paths be handed to a workload", for
 * `run`, `doctor` and `profile create`: every path the contract puts into a
 * search list must survive its reader (ld.so splits LD_PRELOAD at spaces and
 * colons and LD_LIBRARY_PATH at ':' and ';' and expands '$' tokens in both;
 * python splits PYTHONPATH at ':'; the HSA runtime splits HSA_TOOLS_LIB at
 * spaces and reads '"' and '\').  None of them has an escape that covers all
 * of this, so such a tree is refused, never injected split.  Returns 0, or -1
 * with the path, the variable and the fix in err.
 */
int contract_check_paths(const struct hotswap_tree *tree, struct diag *err);

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
