/* The env contract: the tree-path predicate, the fate of inherited HSA_HOTSWAP_*, the plan's
 * layering, inputs and search-list merging. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "env_contract.h"

#include <stdlib.h>
#include <string.h>

/* A complete tree at root, as discovery would describe it (only what the contract reads). */
struct fake_tree {
	struct hotswap_tree tree;
	struct hotswap_part parts[2];
};

static void fake_tree(struct fake_tree *f, const char *root, enum hotswap_flavour flavour)
{
	memset(f, 0, sizeof(*f));
	f->tree.found = f->tree.complete = true;
	f->tree.flavour = flavour;
	f->tree.root = xstrdup(root);
	f->tree.lib_dir = xstrfmt("%s/" HOTSWAP_TREE_LIB_DIR, root);
	f->parts[0].id = HOTSWAP_PART_INTERCEPT;
	f->parts[0].name = hotswap_tree_parts[HOTSWAP_PART_INTERCEPT].label;
	f->parts[0].path = xstrfmt("%s/" HOTSWAP_INTERCEPT_PATH, root);
	/* The versioned name, as a tree may hold it: the contract takes the path found. */
	f->parts[1].id = HOTSWAP_PART_REF_HSA_RUNTIME;
	f->parts[1].name = hotswap_tree_parts[HOTSWAP_PART_REF_HSA_RUNTIME].label;
	f->parts[1].path =
	    xstrfmt("%s/" HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_REF_HSA_RUNTIME_ALT, root);
	f->tree.parts = f->parts;
	f->tree.nparts = flavour == HOTSWAP_FLAVOUR_REFERENCE ? 2 : 1;
}

static void fake_tree_release(struct fake_tree *f)
{
	free(f->tree.root);
	free(f->tree.lib_dir);
	free(f->parts[0].path);
	free(f->parts[1].path);
}

/* contract_check_paths on root: 0, or -1 with the variable named in the message. */
static int check_root(const char *root, enum hotswap_flavour flavour, const char *want_var)
{
	struct fake_tree f;
	struct diag err = DIAG_INIT;
	fake_tree(&f, root, flavour);
	int ret = contract_check_paths(&f.tree, &err);
	if (want_var) {
		char *needle = xstrfmt("%s would carry", want_var);
		if (!strstr(err.msg.buf, needle))
			fail_msg("'%s': expected %s, got: %s", root, want_var, err.msg.buf);
		free(needle);
		assert_non_null(strstr(err.hint.buf, "set " HOTSWAP_ENV_HOME));
	}
	diag_release(&err);
	fake_tree_release(&f);
	return ret;
}

static void test_paths_each_reader(void **state)
{
	(void)state;
	assert_int_equal(check_root("/opt/hotswap-1.0_x+y@z,=%", HOTSWAP_FLAVOUR_NATIVE, NULL), 0);
	assert_int_equal(check_root("/a b", HOTSWAP_FLAVOUR_NATIVE, HOTSWAP_ENV_PRELOAD), -1);
	assert_int_equal(check_root("/a:b", HOTSWAP_FLAVOUR_NATIVE, HOTSWAP_ENV_PRELOAD), -1);
	assert_int_equal(check_root("/a$LIB", HOTSWAP_FLAVOUR_NATIVE, HOTSWAP_ENV_PRELOAD), -1);
	/* ld.so splits LD_LIBRARY_PATH at ';' too, but not LD_PRELOAD. */
	assert_int_equal(check_root("/a;b", HOTSWAP_FLAVOUR_NATIVE, HOTSWAP_ENV_LIBRARY_PATH), -1);
	/* ROCr unquotes HSA_TOOLS_LIB; a reference tree puts nothing there. */
	assert_int_equal(check_root("/a\"b", HOTSWAP_FLAVOUR_NATIVE, HOTSWAP_ENV_TOOLS_LIB), -1);
	assert_int_equal(check_root("/a\\b", HOTSWAP_FLAVOUR_NATIVE, HOTSWAP_ENV_TOOLS_LIB), -1);
	assert_int_equal(check_root("/a\"b", HOTSWAP_FLAVOUR_REFERENCE, NULL), 0);
	assert_int_equal(check_root("/a b", HOTSWAP_FLAVOUR_REFERENCE, HOTSWAP_ENV_PRELOAD), -1);
	/* Characters no reader cares about stay allowed. */
	assert_int_equal(check_root("/a'b#c", HOTSWAP_FLAVOUR_NATIVE, NULL), 0);
}

static void test_inherited_fate(void **state)
{
	(void)state;
	assert_int_equal(contract_inherited_fate(HOTSWAP_ENV_DISABLE), INHERITED_DROPPED);
	assert_int_equal(contract_inherited_fate(HOTSWAP_ENV_STEPPING), INHERITED_DROPPED);
	assert_int_equal(contract_inherited_fate("HSA_HOTSWAP_SOMETHING_NEW"), INHERITED_DROPPED);
	assert_int_equal(contract_inherited_fate(HOTSWAP_ENV_VERBOSE), INHERITED_PASSED);
	assert_int_equal(contract_inherited_fate(HOTSWAP_ENV_CACHE_DEBUG), INHERITED_PASSED);
	assert_int_equal(contract_inherited_fate(HOTSWAP_ENV_ISA_OVERRIDE), INHERITED_INPUT);
	assert_int_equal(contract_inherited_fate(HOTSWAP_ENV_TOOLS_LIB), INHERITED_NOT_OURS);
	assert_int_equal(contract_inherited_fate("HSA_HOTSWAP"), INHERITED_NOT_OURS);
}

static const struct env_change *change_of(const struct env_plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->nchanges; i++)
		if (!strcmp(plan->changes[i].name, name))
			return &plan->changes[i];
	return NULL;
}

static void build(const char *emulator, const char *const *environ, const struct strvec *cli,
                  const char *root, struct env_plan *plan)
{
	struct profile p;
	struct fake_tree f;
	struct diag err = DIAG_INIT;
	profile_init(&p, "t");
	assert_int_equal(profile_set(&p, profile_key_find("emulator"), emulator, &err), 0);
	fake_tree(&f, root, HOTSWAP_FLAVOUR_NATIVE);
	struct contract_input in = {.profile = &p,
	                            .tree = &f.tree,
	                            .target_gfx = "gfx942",
	                            .cli_env = cli,
	                            .environ = environ};
	int ret = env_plan_build(&in, plan, &err);
	if (ret)
		fail_msg("env_plan_build: %s", err.msg.buf);
	diag_release(&err);
	fake_tree_release(&f);
	profile_release(&p);
}

static void test_plan_drops_stale(void **state)
{
	(void)state;
	static const char *const environ[] = {HOTSWAP_ENV_DISABLE "=1", HOTSWAP_ENV_VERBOSE "=1",
	                                      HOTSWAP_ENV_IR_RAISER "=0", "KEEP=me", NULL};
	struct env_plan plan = ENV_PLAN_INIT;
	build("hotswap", environ, NULL, "/t", &plan);
	assert_null(env_lookup(&plan.env, HOTSWAP_ENV_DISABLE));
	assert_string_equal(env_lookup(&plan.env, HOTSWAP_ENV_VERBOSE), "1");
	assert_string_equal(env_lookup(&plan.env, HOTSWAP_ENV_IR_RAISER), "1");
	assert_string_equal(env_lookup(&plan.env, "KEEP"), "me");
	const struct env_change *c = change_of(&plan, HOTSWAP_ENV_DISABLE);
	assert_non_null(c);
	assert_int_equal(c->kind, ENV_REMOVED);
	assert_string_equal(c->origin, "contract");
	assert_null(change_of(&plan, HOTSWAP_ENV_VERBOSE));
	env_plan_release(&plan);

	/* --env overrides; a native profile leaves the namespace alone. */
	struct strvec cli = STRVEC_INIT;
	strvec_push(&cli, HOTSWAP_ENV_DISABLE "=1");
	build("hotswap", environ + 1, &cli, "/t", &plan);
	assert_string_equal(env_lookup(&plan.env, HOTSWAP_ENV_DISABLE), "1");
	assert_string_equal(change_of(&plan, HOTSWAP_ENV_DISABLE)->origin, "--env");
	env_plan_release(&plan);
	strvec_clear(&cli);
	build("native", environ, NULL, "/t", &plan);
	assert_string_equal(env_lookup(&plan.env, HOTSWAP_ENV_DISABLE), "1");
	env_plan_release(&plan);
}

static void test_plan_refuses_unsafe_tree(void **state)
{
	(void)state;
	static const char *const environ[] = {NULL};
	struct profile p;
	struct fake_tree f;
	struct diag err = DIAG_INIT;
	struct env_plan plan = ENV_PLAN_INIT;
	profile_init(&p, "t");
	fake_tree(&f, "/with space", HOTSWAP_FLAVOUR_NATIVE);
	struct contract_input in = {
	    .profile = &p, .tree = &f.tree, .target_gfx = "gfx942", .environ = environ};
	assert_int_equal(env_plan_build(&in, &plan, &err), -1);
	assert_non_null(strstr(err.msg.buf, HOTSWAP_ENV_PRELOAD " would carry '/with space/lib/"));
	env_plan_release(&plan);
	diag_release(&err);
	fake_tree_release(&f);
	profile_release(&p);
}

/* One plan from a profile with [env] entries, --env, mirage's environment and --clear-env. */
struct plan_case {
	const char *emulator;
	const char *const *profile_env; /* "K=V", NULL-terminated, or NULL */
	const char *const *cli_env;     /* the same */
	const char *const *environ;
	bool clear_env;
};

static void build_case(const struct plan_case *c, struct env_plan *plan)
{
	struct profile p;
	struct fake_tree f;
	struct strvec cli = STRVEC_INIT;
	struct diag err = DIAG_INIT;
	profile_init(&p, "t");
	assert_int_equal(profile_set(&p, profile_key_find("emulator"), c->emulator, &err), 0);
	for (const char *const *e = c->profile_env; e && *e; e++)
		assert_int_equal(profile_set_env_assignment(&p, *e, &err), 0);
	for (const char *const *e = c->cli_env; e && *e; e++)
		strvec_push(&cli, *e);
	fake_tree(&f, "/t", HOTSWAP_FLAVOUR_NATIVE);
	struct contract_input in = {.profile = &p,
	                            .tree = &f.tree,
	                            .target_gfx = "gfx942",
	                            .cli_env = &cli,
	                            .environ = c->environ,
	                            .clear_env = c->clear_env};
	if (env_plan_build(&in, plan, &err))
		fail_msg("env_plan_build: %s", err.msg.buf);
	diag_release(&err);
	strvec_clear(&cli);
	fake_tree_release(&f);
	profile_release(&p);
}

static void assert_var(const struct env_plan *plan, const char *name, const char *value,
                       const char *origin)
{
	const char *v = env_lookup(&plan->env, name);
	if (!v || strcmp(v, value))
		fail_msg("%s: expected '%s', got '%s'", name, value, v ? v : "(unset)");
	if (origin) {
		const struct env_change *c = change_of(plan, name);
		if (!c || strcmp(c->origin, origin))
			fail_msg("%s: expected origin %s, got %s", name, origin,
			         c ? c->origin : "(no change)");
	}
}

/* Layers in order: inherited, the profile's [env], the contract, --env; the last one wins. */
static void test_plan_layers(void **state)
{
	(void)state;
	static const char *const environ[] = {"A=inherited", "B=inherited", "C=inherited",
	                                      "PATH=/bin", NULL};
	static const char *const profile_env[] = {"B=profile", "C=profile", "HSA_HOTSWAP_STRICT=7",
	                                          "TRITON_ALWAYS_COMPILE=0", NULL};
	static const char *const cli_env[] = {"C=cli", "HSA_HOTSWAP_STRICT=0", NULL};
	struct env_plan plan = ENV_PLAN_INIT;
	build_case(&(struct plan_case){"hotswap", profile_env, cli_env, environ, false}, &plan);
	assert_var(&plan, "A", "inherited", NULL);
	assert_null(change_of(&plan, "A"));
	assert_var(&plan, "B", "profile", "profile");
	assert_var(&plan, "C", "cli", "--env");
	/* The contract comes after the profile's [env], --env after the contract. */
	assert_var(&plan, "TRITON_ALWAYS_COMPILE", "1", "contract");
	assert_var(&plan, "HSA_HOTSWAP_STRICT", "0", "--env");
	assert_var(&plan, "HOTSWAP_HOME", "/t", "contract");
	assert_var(&plan, "HSA_HOTSWAP_ISA_OVERRIDE", "gfx942", "contract");
	assert_var(&plan, "HSA_HOTSWAP_SOURCE_TARGET", "gfx1250:32", "contract");
	env_plan_release(&plan);

	/* A native profile gets no contract: only the profile's [env] and --env. */
	build_case(&(struct plan_case){"native", profile_env, cli_env, environ, false}, &plan);
	assert_null(env_lookup(&plan.env, "HOTSWAP_HOME"));
	assert_var(&plan, "TRITON_ALWAYS_COMPILE", "0", "profile");
	assert_var(&plan, "C", "cli", "--env");
	env_plan_release(&plan);

	/* --clear-env keeps only its list of the inherited variables. */
	build_case(&(struct plan_case){"native", NULL, NULL, environ, true}, &plan);
	assert_var(&plan, "PATH", "/bin", NULL);
	assert_null(env_lookup(&plan.env, "A"));
	assert_int_equal(change_of(&plan, "A")->kind, ENV_REMOVED);
	assert_string_equal(change_of(&plan, "A")->origin, "--clear-env");
	env_plan_release(&plan);
}

/* Contract inputs come from --env first, then the profile; derived variables follow them. */
static void test_plan_inputs(void **state)
{
	(void)state;
	static const char *const environ[] = {NULL};
	static const char *const cli_env[] = {"HSA_HOTSWAP_SOURCE_TARGET=gfx950:64",
	                                      "HSA_HOTSWAP_BACKEND_ADAPTER_POLICY=native_build",
	                                      NULL};
	struct env_plan plan = ENV_PLAN_INIT;
	build_case(&(struct plan_case){"hotswap", NULL, cli_env, environ, false}, &plan);
	assert_var(&plan, "HSA_HOTSWAP_SOURCE_TARGET", "gfx950:64", "--env");
	assert_var(&plan, "HSA_HOTSWAP_BACKEND_ADAPTERS", "extension_jit,native_build", "contract");
	assert_var(&plan, "PYTORCH_ROCM_ARCH", "gfx950", "contract");
	assert_var(&plan, "HIP_ARCHITECTURES", "gfx950", "contract");
	assert_null(env_lookup(&plan.env, "TRITON_CORPUS_FORCE_TARGET"));
	env_plan_release(&plan);

	/* The profile's defaults: policy compile (triton, no native_build). */
	build_case(&(struct plan_case){"hotswap", NULL, NULL, environ, false}, &plan);
	assert_var(&plan, "HSA_HOTSWAP_BACKEND_ADAPTERS", "extension_jit,triton,inductor", NULL);
	assert_var(&plan, "TRITON_CORPUS_FORCE_TARGET", "gfx1250:32", "contract");
	assert_null(env_lookup(&plan.env, "HIP_ARCHITECTURES"));
	env_plan_release(&plan);

	/* An unknown policy gets the default policy's set; "none" sets no arch variables. */
	assert_string_equal(adapter_set_for_policy("bogus"), adapter_set_for_policy("compile"));
	assert_string_equal(adapter_set_for_policy("none"), "");
}

/*
 * Search lists merge: contract entries first, then --env's, the profile's, the inherited
 * ones; split where each reader splits, empties and repeats dropped, joined as the reader
 * wants (HSA_TOOLS_LIB with spaces).
 */
static void test_plan_merges_lists(void **state)
{
	(void)state;
	static const char *const environ[] = {
	    "LD_PRELOAD=/inh/a.so /x.so::/t/lib/libhotswap_intercept.so",
	    "LD_LIBRARY_PATH=/inh;/t/lib::/inh", "HSA_TOOLS_LIB=/other.so", "PYTHONPATH=/py", NULL};
	static const char *const profile_env[] = {"LD_PRELOAD=/prof.so:/x.so", NULL};
	static const char *const cli_env[] = {"LD_PRELOAD=/cli.so /inh/a.so", NULL};
	struct env_plan plan = ENV_PLAN_INIT;
	build_case(&(struct plan_case){"hotswap", profile_env, cli_env, environ, false}, &plan);
	assert_var(&plan, "LD_PRELOAD",
	           "/t/lib/libhotswap_intercept.so:/cli.so:/inh/a.so:/prof.so:/x.so", "contract");
	assert_var(&plan, "LD_LIBRARY_PATH", "/t/lib:/inh", "contract");
	assert_var(&plan, "HSA_TOOLS_LIB", "/t/lib/libhotswap_intercept.so /other.so", "contract");
	assert_var(&plan, "PYTHONPATH", "/t/runtime/hotswap_py:/py", "contract");
	env_plan_release(&plan);

	/* Without a contract an inherited list only loses its empty and repeated entries. */
	static const char *const messy[] = {"LD_PRELOAD=/a.so::/a.so", NULL};
	build_case(&(struct plan_case){"native", NULL, NULL, messy, false}, &plan);
	assert_var(&plan, "LD_PRELOAD", "/a.so", "inherited");
	env_plan_release(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_paths_each_reader),
	    cmocka_unit_test(test_inherited_fate),
	    cmocka_unit_test(test_plan_drops_stale),
	    cmocka_unit_test(test_plan_refuses_unsafe_tree),
	    cmocka_unit_test(test_plan_layers),
	    cmocka_unit_test(test_plan_inputs),
	    cmocka_unit_test(test_plan_merges_lists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
