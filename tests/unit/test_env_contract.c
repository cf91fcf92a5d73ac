/* The env contract: the tree-path predicate, the fate of inherited HSA_HOTSWAP_*, the plan. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_paths_each_reader),
	    cmocka_unit_test(test_inherited_fate),
	    cmocka_unit_test(test_plan_drops_stale),
	    cmocka_unit_test(test_plan_refuses_unsafe_tree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
