/* Computes the workload's environment from the profile, the tree, the target and --env. */
#include "env_contract.h"

#include <stdlib.h>
#include <string.h>

const char *const clear_env_keep[] = {"PATH", "HOME",   "USER",  "LANG", "LC_ALL",
                                      "TERM", "TMPDIR", "SHELL", NULL};

/* The search lists the contract heads, and what their readers make of the characters in them. */
enum {
	SL_PRELOAD,
	SL_LIBRARY_PATH,
	SL_PYTHONPATH,
	SL_TOOLS_LIB,
	SL_COUNT
};
static const struct search_list {
	const char *name;
	const char *seps;    /* where mirage splits a value to merge it: where the reader does */
	const char *join;    /* what mirage joins the merged entries with */
	const char *special; /* what an entry the contract injects must not contain */
	const char *reader;  /* why, for the refusal */
} search_lists[SL_COUNT] = {
    [SL_PRELOAD] = {HOTSWAP_ENV_PRELOAD, ": ", ":", " :$",
                    "ld.so splits " HOTSWAP_ENV_PRELOAD
                    " at spaces and colons and expands '$' tokens"},
    [SL_LIBRARY_PATH] = {HOTSWAP_ENV_LIBRARY_PATH, ":;", ":", ":;$",
                         "ld.so splits " HOTSWAP_ENV_LIBRARY_PATH
                         " at ':' and ';' and expands '$' tokens"},
    [SL_PYTHONPATH] = {HOTSWAP_ENV_PYTHONPATH, ":", ":", ":",
                       "python splits " HOTSWAP_ENV_PYTHONPATH " at ':'"},
    /* ROCr splits at spaces and unquotes '"' and '\\'; older runtimes and ours split at ':' too. */
    [SL_TOOLS_LIB] = {HOTSWAP_ENV_TOOLS_LIB, ": ", " ", " :\"\\",
                      "the HSA runtime splits " HOTSWAP_ENV_TOOLS_LIB
                      " at spaces and colons and reads '\"' "
                      "and '\\' as quoting"},
};

/* Inherited HSA_HOTSWAP_* variables that change what the intercept prints or how many threads
 * it translates on, never what it loads: a job script's HSA_HOTSWAP_JOBS reaches every rank. */
static const char *const inherited_passed[] = {HOTSWAP_ENV_VERBOSE, HOTSWAP_ENV_CACHE_DEBUG,
                                               HOTSWAP_ENV_JOBS, NULL};
/* Inherited HSA_HOTSWAP_* variables mirage reads itself (the target; resolve in cmd_run.c). */
static const char *const inherited_inputs[] = {HOTSWAP_ENV_ISA_OVERRIDE, NULL};

/* Contract defaults that the profile's [env] may turn off ("1 unless the profile says otherwise").
 */
static const char *const soft_defaults[] = {HOTSWAP_ENV_IR_RAISER, HOTSWAP_ENV_CACHE_DEBUG, NULL};

static const struct {
	const char *policy;
	const char *adapters;
} policy_adapters[] = {
    {"none", ""},
    {"env", "extension_jit"},
    {"native_build", "extension_jit,native_build"},
    {"triton", "extension_jit,triton"},
    {"compile", "extension_jit,triton,inductor"},
    {"full", "extension_jit,native_build,triton,inductor"},
};

const char *adapter_set_for_policy(const char *policy)
{
	for (size_t i = 0; i < sizeof(policy_adapters) / sizeof(policy_adapters[0]); i++)
		if (!strcmp(policy, policy_adapters[i].policy))
			return policy_adapters[i].adapters;
	/* Unknown policies get the default policy's set, as the reference mirage gives them
	 * (docs/HACKING.md). */
	if (strcmp(policy, profile_keys[PK_ADAPTER_POLICY].def))
		return adapter_set_for_policy(profile_keys[PK_ADAPTER_POLICY].def);
	return "";
}

static bool in_list(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

enum inherited_fate contract_inherited_fate(const char *name)
{
	if (strncmp(name, HOTSWAP_ENV_PREFIX, strlen(HOTSWAP_ENV_PREFIX)))
		return INHERITED_NOT_OURS;
	if (in_list(inherited_passed, name))
		return INHERITED_PASSED;
	return in_list(inherited_inputs, name) ? INHERITED_INPUT : INHERITED_DROPPED;
}

/* Why the starting environment loses an inherited variable, or NULL when it keeps it. */
static const char *start_drop_origin(const struct contract_input *in, const char *name)
{
	if (in->clear_env && !in_list(clear_env_keep, name))
		return "--clear-env";
	/* The contract owns HSA_HOTSWAP_*: an input is read from mirage's environment, then set. */
	enum inherited_fate fate = contract_inherited_fate(name);
	if (profile_is_hotswap(in->profile) &&
	    (fate == INHERITED_DROPPED || fate == INHERITED_INPUT))
		return "contract";
	return NULL;
}

const char *env_lookup(const struct strvec *env, const char *name)
{
	long i = strvec_find_key(env, name);
	return i < 0 ? NULL : env->v[i] + strlen(name) + 1;
}

/* The environment under construction, and who set each variable last. */
struct builder {
	struct strvec env; /* "K=V" */
	/* origin[i]: the layer that set env.v[i] last; NULL while inherited as is. */
	const char **origin;
	size_t origin_alloc;
};

static void set_var(struct builder *b, const char *name, const char *value, const char *origin)
{
	long i = strvec_find_key(&b->env, name);
	char *kv = xstrfmt("%s=%s", name, value);
	if (i >= 0) {
		strvec_replace(&b->env, (size_t)i, kv);
		free(kv);
	} else {
		i = (long)b->env.nr;
		strvec_push_nodup(&b->env, kv);
	}
	if (b->origin_alloc < b->env.alloc) { /* one slot per env slot */
		b->origin = xrealloc(b->origin, b->env.alloc * sizeof(*b->origin));
		memset(b->origin + b->origin_alloc, 0,
		       (b->env.alloc - b->origin_alloc) * sizeof(*b->origin));
		b->origin_alloc = b->env.alloc;
	}
	b->origin[i] = origin;
}

/* Joins entries of a ':' (or ' ' for HSA_TOOLS_LIB) list in order, dropping empties and repeats. */
static void merge_list(struct strvec *out, const char *value, const char *seps)
{
	struct strvec parts = STRVEC_INIT;
	if (!value)
		return;
	strvec_split(&parts, value, seps);
	for (size_t i = 0; i < parts.nr; i++)
		if (strvec_find(out, parts.v[i]) < 0)
			strvec_push(out, parts.v[i]);
	strvec_clear(&parts);
}

const char *contract_input(const struct contract_input *in, const char *name)
{
	const char *v = in->cli_env ? env_lookup(in->cli_env, name) : NULL;
	if (v && *v)
		return v;
	if (!strcmp(name, HOTSWAP_ENV_SOURCE_TARGET))
		return profile_get(in->profile, PK_SOURCE_TARGET);
	if (!strcmp(name, HOTSWAP_ENV_BACKEND_ADAPTER_POLICY))
		return profile_get(in->profile, PK_ADAPTER_POLICY);
	return NULL;
}

static const char *tree_part_path(const struct hotswap_tree *tree, enum hotswap_part_id id)
{
	for (size_t i = 0; i < tree->nparts; i++)
		if (tree->parts[i].id == id && tree->parts[i].path)
			return tree->parts[i].path;
	return NULL;
}

/* The entries the contract puts first in each search list. */
static int contract_heads(const struct hotswap_tree *t, struct strvec heads[SL_COUNT],
                          struct diag *err)
{
	const char *intercept = tree_part_path(t, HOTSWAP_PART_INTERCEPT);
	if (!intercept)
		return diag_set(err, "the HotSwap tree at '%s' has no intercept", t->root);
	if (t->flavour == HOTSWAP_FLAVOUR_REFERENCE &&
	    tree_part_path(t, HOTSWAP_PART_REF_HSA_RUNTIME))
		strvec_push(&heads[SL_PRELOAD], tree_part_path(t, HOTSWAP_PART_REF_HSA_RUNTIME));
	strvec_push(&heads[SL_PRELOAD], intercept);
	strvec_push(&heads[SL_LIBRARY_PATH], t->lib_dir);
	strvec_pushf(&heads[SL_PYTHONPATH], "%s/" HOTSWAP_TREE_PY_DIR, t->root);
	if (t->flavour == HOTSWAP_FLAVOUR_NATIVE)
		strvec_push(&heads[SL_TOOLS_LIB], intercept);
	return 0;
}

/* One empty list per search list, whatever SL_COUNT is. */
static void init_lists(struct strvec lists[SL_COUNT])
{
	for (size_t i = 0; i < SL_COUNT; i++)
		strvec_init(&lists[i]);
}

static void clear_lists(struct strvec lists[SL_COUNT])
{
	for (size_t i = 0; i < SL_COUNT; i++)
		strvec_clear(&lists[i]);
}

/* "a space", or the character quoted. */
static void add_char_name(struct strbuf *sb, char c)
{
	if (c == ' ')
		strbuf_addstr(sb, "a space");
	else
		strbuf_addf(sb, "'%c'", c);
}

static int refuse_path(const struct hotswap_tree *t, const struct search_list *list,
                       const char *entry, char bad, struct diag *err)
{
	struct strbuf what = STRBUF_INIT, all = STRBUF_INIT;
	add_char_name(&what, bad);
	/* Every character any reader objects to, in table order, once each. */
	for (size_t i = 0; i < SL_COUNT; i++)
		for (const char *c = search_lists[i].special; *c; c++)
			if (*c != ' ' && !strchr(all.buf, *c))
				strbuf_addch(&all, *c);
	diag_set(err,
	         "the HotSwap tree at '%s' cannot be handed to a workload: %s would carry '%s', "
	         "which has %s, and %s",
	         t->root, list->name, entry, what.buf, list->reader);
	strbuf_reset(&what);
	for (const char *c = all.buf; *c; c++) {
		strbuf_addstr(&what, c == all.buf ? "" : c[1] ? ", " : " or ");
		add_char_name(&what, *c);
	}
	diag_hint(err,
	          "move or copy the tree to a path without spaces, %s and set " HOTSWAP_ENV_HOME
	          " to it "
	          "(a symlink does not help: mirage uses the tree's canonical path)",
	          what.buf);
	strbuf_release(&what);
	strbuf_release(&all);
	return -1;
}

int contract_check_paths(const struct hotswap_tree *tree, struct diag *err)
{
	struct strvec heads[SL_COUNT];
	int ret;
	init_lists(heads);
	ret = contract_heads(tree, heads, err);
	for (size_t i = 0; !ret && i < SL_COUNT; i++)
		for (size_t j = 0; !ret && j < heads[i].nr; j++) {
			const char *entry = heads[i].v[j];
			size_t at = strcspn(entry, search_lists[i].special);
			if (entry[at])
				ret = refuse_path(tree, &search_lists[i], entry, entry[at], err);
		}
	clear_lists(heads);
	return ret;
}

/* The contract proper: every variable of docs/env-contract.md's table. */
static int add_contract(struct builder *b, const struct contract_input *in,
                        struct strvec *lists_head, struct diag *err)
{
	const struct profile *p = in->profile;
	const struct hotswap_tree *t = in->tree;
	const char *source = contract_input(in, HOTSWAP_ENV_SOURCE_TARGET);
	const char *policy = contract_input(in, HOTSWAP_ENV_BACKEND_ADAPTER_POLICY);
	const char *adapters = adapter_set_for_policy(policy);
	char *arch;
	struct strvec adapter_list = STRVEC_INIT;

	/* Search lists: these entries go first; merged with the rest later. */
	if (contract_heads(t, lists_head, err) < 0 || contract_check_paths(t, err) < 0)
		return -1;
	arch = xstrndup(source, strcspn(source, ":"));
	strvec_split(&adapter_list, adapters, ",");

	set_var(b, HOTSWAP_ENV_HOME, t->root, "contract");
	set_var(b, HOTSWAP_ENV_SOURCE_TARGET, source, "contract");
	set_var(b, HOTSWAP_ENV_ISA_OVERRIDE, in->target_gfx, "contract");
	for (size_t i = 0; soft_defaults[i]; i++) {
		const char *v = env_lookup(&b->env, soft_defaults[i]);
		if (!v || !*v)
			set_var(b, soft_defaults[i], "1", "contract");
	}
	set_var(b, HOTSWAP_ENV_STRICT, profile_get_bool(p, PK_STRICT) ? "1" : "0", "contract");
	set_var(b, HOTSWAP_ENV_ALL_KERNELS, profile_get_bool(p, PK_ALL_KERNELS) ? "1" : "0",
	        "contract");
	set_var(b, HOTSWAP_ENV_ENTRY_TRAMPOLINES,
	        profile_get_bool(p, PK_ENTRY_TRAMPOLINES) ? "1" : "0", "contract");
	if (strcmp(profile_get(p, PK_STEPPING), "auto"))
		set_var(b, HOTSWAP_ENV_STEPPING, profile_get(p, PK_STEPPING), "contract");
	if (*profile_get(p, PK_CACHE_DIR))
		set_var(b, HOTSWAP_ENV_CACHE_DIR, profile_get(p, PK_CACHE_DIR), "contract");
	set_var(b, HOTSWAP_ENV_BACKEND_ADAPTER_POLICY, policy, "contract");
	set_var(b, HOTSWAP_ENV_BACKEND_ADAPTERS, adapters, "contract");
	set_var(b, "TRITON_ALWAYS_COMPILE", "1", "contract");
	if (strcmp(policy, "none")) {
		static const char *const arch_vars[] = {
		    "PYTORCH_ROCM_ARCH", "PYTORCH_ROCM_ARCH_OVERRIDE", "GPU_ARCHS",
		    "AITER_GPU_ARCHS",   "TRITON_OVERRIDE_ARCH",       NULL};
		for (size_t i = 0; arch_vars[i]; i++)
			set_var(b, arch_vars[i], arch, "contract");
	}
	if (strvec_find(&adapter_list, "native_build") >= 0) {
		static const char *const build_vars[] = {
		    "HIP_ARCHITECTURES", "CMAKE_HIP_ARCHITECTURES",
		    "AMDGPU_TARGETS",    "HCC_AMDGPU_TARGET",
		    "ROCM_TARGETS",      NULL};
		for (size_t i = 0; build_vars[i]; i++)
			set_var(b, build_vars[i], arch, "contract");
	}
	if (strvec_find(&adapter_list, "triton") >= 0)
		set_var(b, "TRITON_CORPUS_FORCE_TARGET", source, "contract");
	strvec_clear(&adapter_list);
	free(arch);
	return 0;
}

static int cmp_kv(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t lx = strcspn(x, "="), ly = strcspn(y, "=");
	int c = strncmp(x, y, lx < ly ? lx : ly);
	return c ? c : (lx > ly) - (lx < ly);
}

static void compute_changes(const struct contract_input *in, const struct strvec *start,
                            const struct builder *b, struct env_plan *out)
{
	out->changes = xcalloc(start->nr + b->env.nr + 1, sizeof(*out->changes));
	for (size_t i = 0; i < b->env.nr; i++) {
		const char *kv = b->env.v[i];
		size_t nl = strcspn(kv, "=");
		char *name = xstrndup(kv, nl);
		const char *before = env_lookup(start, name);
		if (before && !strcmp(before, kv + nl + 1)) {
			free(name);
			continue;
		}
		struct env_change *c = &out->changes[out->nchanges++];
		c->kind = before ? ENV_CHANGED : ENV_ADDED;
		c->name = name;
		c->value = xstrdup(kv + nl + 1);
		/* Only set_var() changes a value, so every change has its origin recorded. */
		c->origin = i < b->origin_alloc && b->origin[i] ? b->origin[i] : "inherited";
	}
	for (size_t i = 0; i < start->nr; i++) {
		size_t nl = strcspn(start->v[i], "=");
		char *name = xstrndup(start->v[i], nl);
		if (env_lookup(&b->env, name)) {
			free(name);
			continue;
		}
		struct env_change *c = &out->changes[out->nchanges++];
		c->kind = ENV_REMOVED;
		c->name = name;
		c->value = NULL;
		c->origin = start_drop_origin(in, name); /* the only way a variable goes */
	}
}

static int cmp_change(const void *a, const void *b)
{
	return strcmp(((const struct env_change *)a)->name, ((const struct env_change *)b)->name);
}

int env_plan_build(const struct contract_input *in, struct env_plan *out, struct diag *err)
{
	struct builder b = {STRVEC_INIT, NULL, 0};
	struct strvec start = STRVEC_INIT;
	struct strvec heads[SL_COUNT], inherited_lists[SL_COUNT];
	bool hotswap = profile_is_hotswap(in->profile);
	int ret = -1;

	init_lists(heads);
	init_lists(inherited_lists);
	for (const char *const *e = in->environ; e && *e; e++) {
		size_t nl = strcspn(*e, "=");
		char *name = xstrndup(*e, nl);
		if ((*e)[nl] == '=' && strvec_find_key(&start, name) < 0)
			strvec_push(&start, *e);
		if ((*e)[nl] == '=' && !start_drop_origin(in, name) &&
		    strvec_find_key(&b.env, name) < 0)
			strvec_push(&b.env, *e);
		free(name);
	}
	/* The inherited search lists, before any layer touches them. */
	for (size_t i = 0; i < SL_COUNT; i++)
		merge_list(&inherited_lists[i], env_lookup(&b.env, search_lists[i].name),
		           search_lists[i].seps);

	for (size_t i = 0; i < in->profile->env.nr; i++) {
		const char *kv = in->profile->env.v[i];
		char *name = xstrndup(kv, strcspn(kv, "="));
		set_var(&b, name, kv + strlen(name) + 1, "profile");
		free(name);
	}
	if (hotswap && add_contract(&b, in, heads, err) < 0)
		goto out;
	for (size_t i = 0; in->cli_env && i < in->cli_env->nr; i++) {
		const char *kv = in->cli_env->v[i];
		char *name = xstrndup(kv, strcspn(kv, "="));
		set_var(&b, name, kv + strlen(name) + 1, "--env");
		free(name);
	}
	/* Merge the search lists: contract, then --env, then the profile's, then inherited. */
	for (size_t i = 0; i < SL_COUNT; i++) {
		const char *seps = search_lists[i].seps;
		struct strvec merged = STRVEC_INIT;
		const char *cli =
		    in->cli_env ? env_lookup(in->cli_env, search_lists[i].name) : NULL;
		const char *prof = env_lookup(&in->profile->env, search_lists[i].name);
		for (size_t j = 0; j < heads[i].nr; j++)
			merge_list(&merged, heads[i].v[j], seps);
		merge_list(&merged, cli, seps);
		merge_list(&merged, prof, seps);
		for (size_t j = 0; j < inherited_lists[i].nr; j++)
			merge_list(&merged, inherited_lists[i].v[j], seps);
		if (merged.nr) {
			char *joined = strvec_join(&merged, search_lists[i].join);
			const char *origin = heads[i].nr ? "contract"
			                     : cli       ? "--env"
			                     : prof      ? "profile"
			                                 : "inherited";
			set_var(&b, search_lists[i].name, joined, origin);
			free(joined);
		}
		strvec_clear(&merged);
	}
	compute_changes(in, &start, &b, out); /* before sorting: origin[] follows env's order */
	qsort(b.env.v, b.env.nr, sizeof(*b.env.v), cmp_kv);
	qsort(out->changes, out->nchanges, sizeof(*out->changes), cmp_change);
	out->env = b.env;
	strvec_init(&b.env);
	ret = 0;
out:
	clear_lists(heads);
	clear_lists(inherited_lists);
	strvec_clear(&b.env);
	free(b.origin);
	strvec_clear(&start);
	return ret;
}

void env_plan_release(struct env_plan *plan)
{
	for (size_t i = 0; i < plan->nchanges; i++) {
		free(plan->changes[i].name);
		free(plan->changes[i].value);
	}
	free(plan->changes);
	strvec_clear(&plan->env);
	plan->changes = NULL;
	plan->nchanges = 0;
}
