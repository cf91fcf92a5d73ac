/* The command table: every entry and option is well formed, names unique, help present. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "command.h"
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct opt_spec *find_opt(const struct cmd_entry *c, const char *name)
{
	for (size_t i = 0; c->opts && c->opts[i].name; i++)
		if (!strcmp(c->opts[i].name, name))
			return &c->opts[i];
	return NULL;
}

/* The index of c's option name, for the accessors (the commands use their enums). */
static size_t opt_index(const struct cmd_entry *c, const char *name)
{
	const struct opt_spec *o = find_opt(c, name);
	if (!o)
		fail_msg("%s has no --%s", c->name, name);
	return (size_t)(o - c->opts);
}

static void test_table_well_formed(void **state)
{
	const struct opt_spec *globals = global_options();
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		assert_non_null(c->name);
		assert_non_null(c->summary);
		assert_true(c->exec || (c->flags & CMD_GROUP));
		if (c->parent) {
			const struct cmd_entry *parent = command_find(NULL, c->parent);
			assert_non_null(parent);
			assert_true(parent->flags & CMD_GROUP);
		}
		assert_ptr_equal(command_find(c->parent, c->name), c);
		assert_true(c->max_args < 0 || c->max_args >= c->min_args);
		for (size_t j = 0; c->opts && c->opts[j].name; j++) {
			const struct opt_spec *o = &c->opts[j];
			if (!o->help || !*o->help)
				fail_msg("%s --%s has no help", c->name, o->name);
			assert_true(o->type != OPT_ENUM || o->choices);
			for (size_t k = j + 1; c->opts[k].name; k++) {
				assert_string_not_equal(o->name, c->opts[k].name);
				if (o->short_name)
					assert_int_not_equal(o->short_name, c->opts[k].short_name);
			}
			for (size_t g = 0; globals[g].name; g++) {
				if (!strcmp(o->name, globals[g].name))
					fail_msg("%s --%s shadows a global option", c->name,
					         o->name);
				if (o->short_name && o->short_name == globals[g].short_name)
					fail_msg("%s -%c shadows a global option", c->name,
					         o->short_name);
			}
		}
	}
}

/*
 * Every profile key can be set at creation: create's option at the key's index is the key's
 * row (flag, help, choices, default), and its --help shows each key's default.
 */
static void test_create_has_every_key(void **state)
{
	const struct cmd_entry *create = command_find("profile", "create");
	char *help = NULL;
	size_t help_len = 0;
	FILE *out = open_memstream(&help, &help_len);
	assert_non_null(create);
	assert_non_null(out);
	print_command_help(out, create);
	fclose(out);
	for (size_t i = 0; i < PK_COUNT; i++) {
		const struct profile_key *k = &profile_keys[i];
		const struct opt_spec *o = &create->opts[i];
		assert_non_null(o->name);
		assert_string_equal(o->name, k->flag);
		assert_string_equal(o->help, k->help);
		assert_string_equal(o->def, k->def);
		assert_int_equal(opt_index(create, k->flag), i);
		if (k->type == PKEY_BOOL)
			assert_true(o->flags & OPT_NEGATABLE);
		if (k->type == PKEY_ENUM)
			assert_ptr_equal(o->choices, k->choices);
		char *line = opt_help_line(o);
		if (!strstr(help, line))
			fail_msg("profile create --help lacks '%s'", line);
		if (*k->def && !strstr(line, "(default "))
			fail_msg("--%s's help shows no default: '%s'", k->flag, line);
		free(line);
	}
	assert_non_null(strstr(help, "refuse a load whose required rewrite fails (default on)"));
	assert_non_null(strstr(help, "(default gfx1250:32)"));
	free(help);
}

/* A bool's default is its row's .def: on when "true", off when absent or "false". */
static void test_bool_default_from_row(void **state)
{
	const struct cmd_entry *rewrite = command_find(NULL, "rewrite");
	struct cmd_ctx ctx = {0};
	struct cmd_args a;
	const char *argv[] = {"in", "--no-b0a0"};
	assert_int_equal(parse_command_args(rewrite, 2, argv, &ctx, &a), 0);
	assert_true(args_bool(&a, opt_index(rewrite, "stub-symbols")));
	assert_false(args_bool(&a, opt_index(rewrite, "b0a0")));
	assert_false(args_bool(&a, opt_index(rewrite, "strict")));
	args_release(&a);
}

static void test_parse(void **state)
{
	const struct cmd_entry *create = command_find("profile", "create");
	struct cmd_ctx ctx = {0};
	struct cmd_args a;
	const char *argv[] = {"x",         "--no-strict",     "--env",  "A=1",
	                      "--env=B=2", "--target=gfx942", "--json", "-v"};
	assert_int_equal(parse_command_args(create, 8, argv, &ctx, &a), 0);
	assert_string_equal(a.positional.v[0], "x");
	assert_int_equal(args_tristate(&a, PK_STRICT), 0);
	assert_int_equal(args_tristate(&a, PK_ENTRY_TRAMPOLINES), -1);
	assert_int_equal(args_list(&a, opt_index(create, "env"))->nr, 2);
	assert_string_equal(args_list(&a, opt_index(create, "env"))->v[1], "B=2");
	assert_string_equal(args_str(&a, PK_TARGET), "gfx942");
	assert_true(ctx.json);
	assert_int_equal(ctx.verbose, 1);
	args_release(&a);

	const char *bad1[] = {"x", "--policy", "fast"};
	assert_int_equal(parse_command_args(create, 3, bad1, &ctx, &a), -1);
	args_release(&a);
	const char *bad2[] = {"x", "--strict=yes"};
	assert_int_equal(parse_command_args(create, 2, bad2, &ctx, &a), -1);
	args_release(&a);
	const char *bad3[] = {"x", "--target"};
	assert_int_equal(parse_command_args(create, 2, bad3, &ctx, &a), -1);
	args_release(&a);
	const char *bad4[] = {"x", "y"};
	assert_int_equal(parse_command_args(create, 2, bad4, &ctx, &a), -1);
	args_release(&a);
	const char *bad5[] = {"--no-strict"};
	assert_int_equal(parse_command_args(create, 1, bad5, &ctx, &a), -1);
	args_release(&a);
}

/* Global options go before or after the command; short flags combine (-vv, -lv, -vp NAME). */
static void test_global_and_bundled(void **state)
{
	const struct cmd_entry *emulators = command_find(NULL, "emulators");
	const struct cmd_entry *run = command_find(NULL, "run");
	struct cmd_ctx ctx = {0};
	struct cmd_args a;
	int next = -1;

	const char *top[] = {"-vv", "--json", "emulators", "-l"};
	assert_int_equal(parse_global_args(4, top, &ctx, &next), 0);
	assert_int_equal(next, 2);
	assert_int_equal(ctx.verbose, 2);
	assert_true(ctx.json);

	memset(&ctx, 0, sizeof(ctx));
	const char *bundle[] = {"-lv", "-vv"};
	assert_int_equal(parse_command_args(emulators, 2, bundle, &ctx, &a), 0);
	assert_true(args_has(&a, opt_index(emulators, "long")));
	assert_int_equal(ctx.verbose, 3);
	args_release(&a);

	memset(&ctx, 0, sizeof(ctx));
	const char *value_last[] = {"-vp", "prof", "--", "true"};
	assert_int_equal(parse_command_args(run, 4, value_last, &ctx, &a), 0);
	assert_string_equal(args_str(&a, opt_index(run, "profile")), "prof");
	assert_int_equal(ctx.verbose, 1);
	assert_int_equal(a.passthrough.nr, 1);
	args_release(&a);

	/* A short option that takes a value must end its bundle. */
	const char *value_inside[] = {"-pv", "prof"};
	assert_int_equal(parse_command_args(run, 2, value_inside, &ctx, &a), -1);
	args_release(&a);
	/* Command options are not global: before the command word they are unknown. */
	const char *cmd_opt_first[] = {"-l", "emulators"};
	assert_int_equal(parse_global_args(2, cmd_opt_first, &ctx, &next), -1);
	const char *takes_none[] = {"--json=yes", "paths"};
	assert_int_equal(parse_global_args(2, takes_none, &ctx, &next), -1);
	/* A lone "-" is the (unknown) command word, not an option. */
	const char *dash[] = {"-"};
	assert_int_equal(parse_global_args(1, dash, &ctx, &next), 0);
	assert_int_equal(next, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_well_formed),
	    cmocka_unit_test(test_create_has_every_key),
	    cmocka_unit_test(test_bool_default_from_row),
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_global_and_bundled),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
