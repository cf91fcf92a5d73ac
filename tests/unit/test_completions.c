/* Every visible command, subcommand, flag spelling and choice of command_table is in each generated
 * completion script. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "command.h"
#include "complete.h"
#include "complete_internal.h"

#include "gfx_table.h"
#include "strbuf.h"
#include "strvec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/* True when needle occurs in hay[0, len) with no word character glued on either side. */
static bool has_token(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle);
	for (size_t i = 0; i + n <= len; i++) {
		if (memcmp(hay + i, needle, n))
			continue;
		if (i > 0 && word_char(hay[i - 1]) && word_char(needle[0]))
			continue;
		if (i + n < len && word_char(hay[i + n]))
			continue;
		return true;
	}
	return false;
}

static bool hidden(const struct cmd_entry *c)
{
	if (c->flags & CMD_HIDDEN)
		return true;
	const struct cmd_entry *p = c->parent ? command_find(NULL, c->parent) : NULL;
	return p && (p->flags & CMD_HIDDEN);
}

/*
 * The part of a script that describes one command path ("" = top level):
 * bash's case arm, zsh's function, fish's lines under that path's condition
 * (copied into sb, since they are not contiguous).
 */
static void section(enum comp_shell shell, const char *text, const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (shell == COMP_BASH) {
		char *head = xstrfmt("\n\t'%s')\n", path);
		const char *s = strstr(text, head), *e;
		free(head);
		if (s && (e = strstr(s, "\n\t\t;;\n")))
			strbuf_add(sb, s, (size_t)(e - s));
	} else if (shell == COMP_ZSH) {
		struct strbuf head = STRBUF_INIT;
		strbuf_addstr(&head, *path ? "\n_mirage_" : "\n_mirage");
		for (const char *p = path; *p; p++)
			strbuf_addch(&head, *p == ' ' ? '_' : *p);
		strbuf_addstr(&head, "()\n{\n");
		const char *s = strstr(text, head.buf), *e;
		if (s && (e = strstr(s + 1, "\n}\n")))
			strbuf_add(sb, s, (size_t)(e - s));
		/* The subcommand list lives in _mirage_<group>_commands. */
		strbuf_setlen(&head, head.len - strlen("()\n{\n"));
		strbuf_addstr(&head, "_commands()\n{\n");
		s = strstr(text, head.buf);
		if (s && (e = strstr(s + 1, "\n}\n")))
			strbuf_add(sb, s, (size_t)(e - s));
		strbuf_release(&head);
	} else {
		char *cond = xstrfmt("\"__fish_mirage_at '%s'\" ", path);
		for (const char *line = text; *line;) {
			const char *nl = strchr(line, '\n');
			size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
			char *l = xstrndup(line, n);
			if (strstr(l, cond))
				strbuf_addstr(sb, l);
			free(l);
			line += n;
		}
		free(cond);
	}
}

/* How an option spelling appears in each shell's text. */
static void expect_flag(enum comp_shell shell, const struct strbuf *sec, const char *path,
                        const char *lng, char shrt)
{
	char needle[160];
	if (lng) {
		if (shell == COMP_FISH)
			snprintf(needle, sizeof(needle), "-l %s", lng);
		else
			snprintf(needle, sizeof(needle), "--%s", lng);
	} else if (shell == COMP_FISH) {
		snprintf(needle, sizeof(needle), "-s %c", shrt);
	} else {
		snprintf(needle, sizeof(needle), "-%c", shrt);
	}
	if (!has_token(sec->buf, sec->len, needle))
		fail_msg("%s script: '%s' lacks %s", comp_shell_names[shell], path, needle);
}

static void expect_word(enum comp_shell shell, const struct strbuf *sec, const char *path,
                        const char *word)
{
	if (!has_token(sec->buf, sec->len, word))
		fail_msg("%s script: '%s' lacks '%s'", comp_shell_names[shell], path, word);
}

/* Whether a section offers name as a (sub)command word, in that shell's notation. */
static bool offers(enum comp_shell shell, const struct strbuf *sec, const char *name)
{
	bool found = false;
	if (shell == COMP_BASH) {
		const char *s = strstr(sec->buf, "_mirage_subs='");
		if (s) {
			const char *e = strchr(s + 14, '\'');
			found = e && has_token(s + 14, (size_t)(e - s - 14), name);
		}
	} else {
		char *needle = xstrfmt(shell == COMP_ZSH ? "'%s:" : " -a %s -d ", name);
		found = strstr(sec->buf, needle) != NULL;
		free(needle);
	}
	return found;
}

/* bash keeps an option's value kind and choices in _mirage_optarg's arm for path/--name. */
static void bash_optarg_section(const char *text, const char *path, const char *name,
                                struct strbuf *sb)
{
	char *head = xstrfmt("\n\t'%s/--%s'", path, name);
	const char *s = strstr(text, head), *e;
	strbuf_reset(sb);
	if (s && (e = strstr(s, "\n\t\t;;\n")))
		strbuf_add(sb, s, (size_t)(e - s));
	free(head);
}

static void check_opts(enum comp_shell shell, const char *text, const struct strbuf *sec,
                       const char *path, const struct opt_spec *opts)
{
	for (size_t i = 0; opts && opts[i].name; i++) {
		const struct opt_spec *o = &opts[i];
		expect_flag(shell, sec, path, o->name, 0);
		if (o->flags & OPT_NEGATABLE) {
			char neg[128];
			snprintf(neg, sizeof(neg), "no-%s", o->name);
			expect_flag(shell, sec, path, neg, 0);
		}
		if (o->short_name)
			expect_flag(shell, sec, path, NULL, o->short_name);
		if (o->type != OPT_ENUM)
			continue;
		struct strbuf arm = STRBUF_INIT;
		if (shell == COMP_BASH)
			bash_optarg_section(text, strcmp(path, "(top)") ? path : "", o->name, &arm);
		for (size_t j = 0; o->choices[j]; j++)
			expect_word(shell, shell == COMP_BASH ? &arm : sec, path, o->choices[j]);
		strbuf_release(&arm);
	}
}

static void check_shell(enum comp_shell shell)
{
	struct strbuf text = STRBUF_INIT, sec = STRBUF_INIT;
	char path[128];
	size_t visible = 0;

	comp_generate(shell, &text);
	assert_true(text.len > 0);

	/* The top level: every visible top-level command and every global option. */
	section(shell, text.buf, "", &sec);
	if (!sec.len)
		fail_msg("%s script: no top-level section", comp_shell_names[shell]);
	check_opts(shell, text.buf, &sec, "(top)", global_options());
	expect_flag(shell, &sec, "(top)", "version", 0);

	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		command_full_name(c, path, sizeof(path));
		if (hidden(c)) {
			section(shell, text.buf, path, &sec);
			if (sec.len)
				fail_msg("%s script completes hidden '%s'", comp_shell_names[shell],
				         path);
			section(shell, text.buf, c->parent ? c->parent : "", &sec);
			if (offers(shell, &sec, c->name))
				fail_msg("%s script offers hidden '%s'", comp_shell_names[shell],
				         path);
			continue;
		}
		visible++;
		/* Offered where it is typed: under its group, or at the top. */
		section(shell, text.buf, c->parent ? c->parent : "", &sec);
		if (!offers(shell, &sec, c->name))
			fail_msg("%s script: '%s' is not offered under '%s'",
			         comp_shell_names[shell], c->name, c->parent ? c->parent : "(top)");

		section(shell, text.buf, path, &sec);
		if (!sec.len)
			fail_msg("%s script has no section for '%s'", comp_shell_names[shell],
			         path);
		if (c->flags & CMD_GROUP) {
			expect_flag(shell, &sec, path, "help", 0);
			continue;
		}
		check_opts(shell, text.buf, &sec, path, c->opts);
		check_opts(shell, text.buf, &sec, path, global_options());
	}
	assert_true(visible > 0);
	strbuf_release(&sec);
	strbuf_release(&text);
}

static void test_bash(void **state)
{
	(void)state;
	check_shell(COMP_BASH);
}

static void test_zsh(void **state)
{
	(void)state;
	check_shell(COMP_ZSH);
}

static void test_fish(void **state)
{
	(void)state;
	check_shell(COMP_FISH);
}

static void fill_x(struct strbuf *out)
{
	strbuf_addstr(out, "X\n");
}

static void fill_nothing(struct strbuf *out)
{
	(void)out;
}

/* Templates: a slot line becomes its text, a note line goes, everything else is copied. */
static void test_template_expand(void **state)
{
	static const struct comp_slot slots[] = {
	    {"x", fill_x}, {"empty", fill_nothing}, {NULL, NULL}};
	struct strbuf out = STRBUF_INIT;
	(void)state;

	comp_expand(&out, "@# a note\na $@ \"$@\"\n@x@\n\tmid @x@\n@empty@\n@#\nlast", slots);
	assert_string_equal(out.buf, "a $@ \"$@\"\nX\n\tmid @x@\nlast");
	strbuf_reset(&out);
	comp_expand(&out, "@x@\n@@\n", NULL);
	assert_string_equal(out.buf, "@x@\n@@\n");
	strbuf_release(&out);
}

/* No template line is left over in a generated script: every @slot@ was filled, no @# note leaked.
 */
static void test_no_template_leftovers(void **state)
{
	(void)state;
	for (int shell = COMP_BASH; shell <= COMP_FISH; shell++) {
		struct strbuf text = STRBUF_INIT;
		comp_generate((enum comp_shell)shell, &text);
		assert_true(text.len > 0);
		if (text.buf[0] == '@' || strstr(text.buf, "\n@"))
			fail_msg("%s script has a template line left: %s", comp_shell_names[shell],
			         text.buf[0] == '@' ? text.buf : strstr(text.buf, "\n@") + 1);
		strbuf_release(&text);
	}
}

static void test_shell_names(void **state)
{
	(void)state;
	assert_int_equal(comp_shell_from_name("bash"), COMP_BASH);
	assert_int_equal(comp_shell_from_name("zsh"), COMP_ZSH);
	assert_int_equal(comp_shell_from_name("fish"), COMP_FISH);
	assert_int_equal(comp_shell_from_name("tcsh"), -1);
	assert_int_equal(comp_shell_from_name(""), -1);
}

/* The hidden command's answers: targets are the retarget rows, sources every processor. */
static void test_candidates(void **state)
{
	struct strvec v = STRVEC_INIT;
	size_t n;
	const struct gfx_info *t = gfx_table(&n);
	(void)state;

	assert_int_equal(comp_candidates("gfx", "targets", &v), 0);
	for (size_t i = 0, k = 0; i < n; i++) {
		if (t[i].retarget == GFX_RETARGET_NONE) {
			assert_int_equal(strvec_find(&v, t[i].name), -1);
			continue;
		}
		assert_true(k < v.nr);
		assert_string_equal(v.v[k++], t[i].name);
	}
	assert_int_not_equal(strvec_find(&v, "gfx942"), -1);
	strvec_clear(&v);

	assert_int_equal(comp_candidates("gfx", "sources", &v), 0);
	assert_int_not_equal(strvec_find(&v, "gfx1250"), -1);
	for (size_t i = 0; i < n; i++)
		if (t[i].is_generic)
			assert_int_equal(strvec_find(&v, t[i].name), -1);
	strvec_clear(&v);

	assert_int_equal(comp_candidates("emulators", NULL, &v), 0);
	assert_int_not_equal(strvec_find(&v, "hotswap"), -1);
	strvec_clear(&v);

	assert_int_equal(comp_candidates("gfx", "nope", &v), -1);
	assert_int_equal(comp_candidates("nope", NULL, &v), -1);
	strvec_clear(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bash),
	    cmocka_unit_test(test_zsh),
	    cmocka_unit_test(test_fish),
	    cmocka_unit_test(test_shell_names),
	    cmocka_unit_test(test_candidates),
	    cmocka_unit_test(test_template_expand),
	    cmocka_unit_test(test_no_template_leftovers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
