/* The fish completion script: launcher/complete/fish.in with complete lines from command_table. */
#include "complete_internal.h"

#include <stdlib.h>

/* Appends s inside single quotes for fish: only \ and ' are special there. */
static void add_fish_sq(struct strbuf *out, const char *s)
{
	strbuf_addch(out, '\'');
	for (; *s; s++) {
		if (*s == '\'' || *s == '\\')
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
	strbuf_addch(out, '\'');
}

static void fish_values(struct strbuf *out, enum comp_kind k, const char *const *choices)
{
	switch (k) {
	case CK_NONE:
		break;
	case CK_FILE:
		strbuf_addstr(out, " -F");
		break;
	case CK_DIR:
		strbuf_addstr(out, " -x -a '(__fish_complete_directories (commandline -ct))'");
		break;
	case CK_ANY:
	case CK_COMMAND:
		strbuf_addstr(out, " -x");
		break;
	case CK_PROFILE:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call profiles)'");
		break;
	case CK_TREE:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call trees)'");
		break;
	case CK_PROFILE_KEY:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call profile-keys)'");
		break;
	case CK_SCHEDULE:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call schedules)'");
		break;
	case CK_ENUM:
	case CK_SHELL: {
		struct strbuf w = STRBUF_INIT;
		comp_add_words(&w, k == CK_SHELL ? comp_shell_names : choices);
		strbuf_addstr(out, " -x -a ");
		add_fish_sq(out, w.buf);
		strbuf_release(&w);
		break;
	}
	case CK_GFX_SOURCE:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call gfx sources)'");
		break;
	case CK_GFX_TARGET:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call gfx targets)'");
		break;
	case CK_GFX_TARGET_AUTO:
		strbuf_addstr(out, " -x -a 'auto (__fish_mirage_call gfx targets)'");
		break;
	}
}

/* The complete line of one spelling of option o, under condition cond (a command path). */
static void fish_opt(struct strbuf *out, const char *cond, const struct opt_spec *o, bool negated)
{
	enum comp_kind k = negated ? CK_NONE : comp_opt_kind(o);

	strbuf_addf(out, "complete -c mirage -n %s -l %s%s", cond, negated ? "no-" : "", o->name);
	if (o->short_name && !negated)
		strbuf_addf(out, " -s %c", o->short_name);
	/* -r: the option needs its value (-x, which the other kinds use, says so too). */
	if (k == CK_FILE)
		strbuf_addstr(out, " -r");
	fish_values(out, k, o->choices);
	strbuf_addstr(out, " -d ");
	char *desc = comp_spelling_help(o, negated);
	add_fish_sq(out, desc);
	free(desc);
	strbuf_addch(out, '\n');
}

static void fish_cmd(struct strbuf *out, const struct cmd_entry *cmd)
{
	char path[128];
	const struct opt_spec *g = global_options(), *top = top_options();
	const struct opt_spec *help = &global_options()[GLOBAL_HELP];
	struct strbuf cond = STRBUF_INIT;

	/* Command names are plain words, so the path needs no escaping inside the quotes. */
	if (cmd)
		command_full_name(cmd, path, sizeof(path));
	strbuf_addf(&cond, "\"__fish_mirage_at '%s'\"", cmd ? path : "");

	strbuf_addf(out, "\n# %s\n", cmd ? path : "(top level)");
	if (!cmd || comp_is_group(cmd)) {
		for (size_t i = 0; command_table[i]; i++) {
			const struct cmd_entry *c = command_table[i];
			if (!comp_child_of(c, cmd) || !comp_visible(c))
				continue;
			strbuf_addf(out, "complete -c mirage -n %s -a %s -d ", cond.buf, c->name);
			add_fish_sq(out, c->summary);
			strbuf_addch(out, '\n');
		}
		if (!cmd) {
			for (size_t i = 0; g[i].name; i++)
				fish_opt(out, cond.buf, &g[i], false);
			for (size_t i = 0; top[i].name; i++)
				fish_opt(out, cond.buf, &top[i], false);
		} else if (help) {
			fish_opt(out, cond.buf, help, false);
		}
		strbuf_release(&cond);
		return;
	}
	for (size_t i = 0; cmd->opts && cmd->opts[i].name; i++) {
		fish_opt(out, cond.buf, &cmd->opts[i], false);
		if (cmd->opts[i].flags & OPT_NEGATABLE)
			fish_opt(out, cond.buf, &cmd->opts[i], true);
	}
	for (size_t i = 0; g[i].name; i++)
		fish_opt(out, cond.buf, &g[i], false);

	enum comp_kind ak = comp_arg_kind(cmd);
	if (ak == CK_COMMAND) {
		strbuf_addf(out,
		            "complete -c mirage -n \"__fish_mirage_at '%s --'\" -x -a "
		            "'(__fish_mirage_workload)'\n",
		            path);
	} else if (ak != CK_ANY && cmd->max_args != 0) {
		/* Positionals: a condition that counts them, with the options that eat a word. */
		strbuf_addf(out, "complete -c mirage -n \"__fish_mirage_arg '%s' %d", path,
		            cmd->max_args);
		for (size_t i = 0; cmd->opts && cmd->opts[i].name; i++) {
			const struct opt_spec *o = &cmd->opts[i];
			if (comp_opt_kind(o) == CK_NONE || comp_value_glued(o))
				continue;
			strbuf_addf(out, " --%s", o->name);
			if (o->short_name)
				strbuf_addf(out, " -%c", o->short_name);
		}
		strbuf_addstr(out, "\"");
		fish_values(out, ak, NULL);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&cond);
}

static void fish_lists(struct strbuf *out)
{
	strbuf_addstr(out, "set -g __fish_mirage_groups");
	for (size_t i = 0; command_table[i]; i++)
		if (comp_visible(command_table[i]) && comp_is_group(command_table[i]) &&
		    !command_table[i]->parent)
			strbuf_addf(out, " %s", command_table[i]->name);
	strbuf_addstr(out, "\nset -g __fish_mirage_passthrough");
	for (size_t i = 0; command_table[i]; i++) {
		char path[128];
		if (comp_visible(command_table[i]) && (command_table[i]->flags & CMD_PASSTHROUGH))
			strbuf_addf(out, " '%s'",
			            command_full_name(command_table[i], path, sizeof(path)));
	}
	strbuf_addch(out, '\n');
}

static void fish_commands(struct strbuf *out)
{
	fish_cmd(out, NULL);
	for (size_t i = 0; command_table[i]; i++)
		if (comp_visible(command_table[i]))
			fish_cmd(out, command_table[i]);
}

void comp_gen_fish(struct strbuf *out)
{
	static const struct comp_slot slots[] = {
	    {"lists", fish_lists},
	    {"commands", fish_commands},
	    {NULL, NULL},
	};
	comp_expand(out, comp_tmpl_fish, slots);
}
