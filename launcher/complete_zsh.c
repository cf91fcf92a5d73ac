/* The zsh completion script: launcher/complete/zsh.in with one function per command of
 * command_table. */
#include "complete_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Appends text for inside an _arguments "[...]" description in a single-quoted word. */
static void add_zsh_desc(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(out, "'\\''");
		else if (*s == '[' || *s == ']' || *s == '\\' || *s == ':')
			strbuf_addf(out, "\\%c", *s);
		else
			strbuf_addch(out, *s);
	}
}

/* Appends a short lowercase message ("gfx", "file") with no character _arguments treats specially.
 */
static void add_zsh_message(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (isalnum(ch) || ch == '-' || ch == '_' || ch == '|' || ch == '=' || ch == ' ')
			strbuf_addch(out, (char)tolower(ch));
		else if (ch == ':')
			strbuf_addch(out, ' ');
	}
}

static void add_zsh_action(struct strbuf *out, enum comp_kind k, const char *const *choices)
{
	switch (k) {
	case CK_FILE:
		strbuf_addstr(out, "_files");
		break;
	case CK_DIR:
		strbuf_addstr(out, "_files -/");
		break;
	case CK_PROFILE:
		strbuf_addstr(out, "{_mirage_dynamic profiles}");
		break;
	case CK_TREE:
		strbuf_addstr(out, "{_mirage_dynamic trees}");
		break;
	case CK_PROFILE_KEY:
		strbuf_addstr(out, "{_mirage_dynamic +nospace profile-keys}");
		break;
	case CK_SCHEDULE:
		strbuf_addstr(out, "{_mirage_dynamic +nospace schedules}");
		break;
	case CK_ENUM:
	case CK_SHELL:
		if (k == CK_SHELL)
			choices = comp_shell_names;
		strbuf_addch(out, '(');
		for (size_t i = 0; choices[i]; i++) {
			strbuf_addstr(out, i ? " " : "");
			add_zsh_desc(out, choices[i]);
		}
		strbuf_addch(out, ')');
		break;
	case CK_GFX_SOURCE:
		strbuf_addstr(out, "{_mirage_dynamic gfx sources}");
		break;
	case CK_GFX_TARGET:
		strbuf_addstr(out, "{_mirage_dynamic gfx targets}");
		break;
	case CK_GFX_TARGET_AUTO:
		strbuf_addstr(out, "{_mirage_dynamic +auto gfx targets}");
		break;
	case CK_NONE:
	case CK_ANY:
	case CK_COMMAND:
		strbuf_addstr(out, " ");
		break;
	}
}

/* One _arguments spec word (or a brace pair for -c/--name) for option o. */
static void zsh_opt_spec(struct strbuf *out, const struct opt_spec *o, bool negated)
{
	enum comp_kind k = negated ? CK_NONE : comp_opt_kind(o);
	bool rep = (o->flags & OPT_REPEAT) || o->type == OPT_COUNT;
	bool alone = comp_answers_alone(o);
	const char *suffix = k == CK_NONE ? "" : comp_value_glued(o) ? "=-" : "=";

	strbuf_addstr(out, " \\\n\t\t");
	/* Exclusions: a flag and its other spellings (or its --no- form) are one choice. */
	if (alone) {
		strbuf_addstr(out, "'(- *)'");
	} else if (!rep) {
		strbuf_addstr(out, "'(");
		if (o->short_name)
			strbuf_addf(out, "-%c ", o->short_name);
		strbuf_addf(out, "--%s", o->name);
		if (o->flags & OPT_NEGATABLE)
			strbuf_addf(out, " --no-%s", o->name);
		strbuf_addstr(out, ")'");
	} else {
		strbuf_addstr(out, "'*'");
	}
	if (negated)
		strbuf_addf(out, "'--no-%s[", o->name);
	else if (o->short_name)
		strbuf_addf(out, "{-%c,--%s%s}'[", o->short_name, o->name, suffix);
	else
		strbuf_addf(out, "'--%s%s[", o->name, suffix);
	char *desc = comp_spelling_help(o, negated);
	add_zsh_desc(out, desc);
	free(desc);
	strbuf_addch(out, ']');
	if (k != CK_NONE) {
		strbuf_addstr(out, comp_value_glued(o) ? "::" : ":");
		add_zsh_message(out, opt_placeholder(o, o->name));
		strbuf_addch(out, ':');
		add_zsh_action(out, k, o->choices);
	}
	strbuf_addch(out, '\'');
}

static void zsh_fn_name(struct strbuf *out, const struct cmd_entry *c)
{
	strbuf_addstr(out, "_mirage");
	if (c && c->parent)
		strbuf_addf(out, "_%s", c->parent);
	if (c)
		strbuf_addf(out, "_%s", c->name);
}

/* A group's (or the top level's) subcommand list for _describe. */
static void zsh_commands_fn(struct strbuf *out, const struct cmd_entry *group)
{
	strbuf_addstr(out, "\n");
	zsh_fn_name(out, group);
	strbuf_addstr(out, "_commands()\n{\n\tlocal -a cmds=(");
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (!comp_child_of(c, group) || !comp_visible(c))
			continue;
		struct strbuf item = STRBUF_INIT;
		strbuf_addf(&item, "%s:%s", c->name, c->summary);
		strbuf_addstr(out, "\n\t\t");
		strbuf_add_single_quoted(out, item.buf);
		strbuf_release(&item);
	}
	strbuf_addf(out, "\n\t)\n\t_describe -t commands '%s command' cmds\n}\n",
	            group ? group->name : "mirage");
}

static void zsh_group_fn(struct strbuf *out, const struct cmd_entry *group)
{
	const struct opt_spec *g = global_options(), *top = top_options();
	const struct opt_spec *help = &global_options()[GLOBAL_HELP];

	zsh_commands_fn(out, group);
	strbuf_addstr(out, "\n");
	zsh_fn_name(out, group);
	strbuf_addstr(out, "()\n{\n");
	if (!group)
		strbuf_addstr(
		    out,
		    "\t# The binary being completed answers `__complete`; it may not be on PATH.\n"
		    "\tlocal _mirage_bin=$words[1]\n");
	strbuf_addstr(out, "\tlocal curcontext=\"$curcontext\" state line\n\t_arguments -C");
	if (!group) {
		for (size_t i = 0; g[i].name; i++)
			zsh_opt_spec(out, &g[i], false);
		for (size_t i = 0; top[i].name; i++)
			zsh_opt_spec(out, &top[i], false);
	} else if (help) {
		zsh_opt_spec(out, help, false);
	}
	strbuf_addstr(out, " \\\n\t\t'1:command:");
	zsh_fn_name(out, group);
	strbuf_addstr(out, "_commands' \\\n\t\t'*::arg:->args' && return 0\n");
	strbuf_addstr(out, "\t[[ $state == args ]] || return 1\n\tcase $line[1] in\n");
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (!comp_child_of(c, group) || !comp_visible(c))
			continue;
		strbuf_addf(out, "\t%s) ", c->name);
		zsh_fn_name(out, c);
		strbuf_addstr(out, " ;;\n");
	}
	strbuf_addstr(out, "\t*) return 1 ;;\n\tesac\n}\n");
}

static void zsh_leaf_fn(struct strbuf *out, const struct cmd_entry *c)
{
	const struct opt_spec *g = global_options();
	enum comp_kind ak = comp_arg_kind(c);

	strbuf_addstr(out, "\n");
	zsh_fn_name(out, c);
	strbuf_addstr(out, "()\n{\n");
	if (c->flags & CMD_PASSTHROUGH)
		comp_expand(out, comp_tmpl_zsh_workload, NULL);
	strbuf_addstr(out, "\t_arguments -S");
	for (size_t i = 0; c->opts && c->opts[i].name; i++) {
		zsh_opt_spec(out, &c->opts[i], false);
		if (c->opts[i].flags & OPT_NEGATABLE)
			zsh_opt_spec(out, &c->opts[i], true);
	}
	for (size_t i = 0; g[i].name; i++)
		zsh_opt_spec(out, &g[i], false);
	if (ak != CK_COMMAND) {
		int n = c->max_args < 0 ? (c->min_args > 0 ? c->min_args : 0) : c->max_args;
		struct strbuf msg = STRBUF_INIT;
		/* The first word of the usage names the positional ("NAME", "IN -o OUT" -> "in").
		 */
		char *first = xstrndup(c->usage && *c->usage ? c->usage : "argument",
		                       c->usage && *c->usage ? strcspn(c->usage, " ") : 8);
		add_zsh_message(&msg, first);
		free(first);
		for (int i = 1; i <= n + (c->max_args < 0); i++) {
			strbuf_addstr(out, " \\\n\t\t'");
			if (c->max_args < 0 && i == n + 1)
				strbuf_addstr(out, "*:");
			else
				strbuf_addf(out, "%d:%s", i, i > c->min_args ? ":" : "");
			strbuf_addf(out, "%s:", msg.buf);
			add_zsh_action(out, ak, NULL);
			strbuf_addch(out, '\'');
		}
		strbuf_release(&msg);
	}
	strbuf_addstr(out, "\n}\n");
}

static void zsh_functions(struct strbuf *out)
{
	zsh_group_fn(out, NULL);
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (!comp_visible(c))
			continue;
		if (comp_is_group(c))
			zsh_group_fn(out, c);
		else
			zsh_leaf_fn(out, c);
	}
}

void comp_gen_zsh(struct strbuf *out)
{
	static const struct comp_slot slots[] = {
	    {"functions", zsh_functions},
	    {NULL, NULL},
	};
	comp_expand(out, comp_tmpl_zsh, slots);
}
