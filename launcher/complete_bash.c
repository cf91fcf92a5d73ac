/* The bash completion script: launcher/complete/bash.in with its case arms from command_table. */
#include "complete_internal.h"

static void bash_cmd_case(struct strbuf *out, const struct cmd_entry *cmd)
{
	char path[128];
	const struct opt_spec *g = global_options(), *top = top_options();
	const struct opt_spec *help = &global_options()[GLOBAL_HELP];

	strbuf_addstr(out, "\t");
	strbuf_add_single_quoted(out, cmd ? command_full_name(cmd, path, sizeof(path)) : "");
	strbuf_addstr(out, ")\n");
	if (!cmd || comp_is_group(cmd)) {
		strbuf_addstr(out, "\t\t_mirage_subs='");
		bool first = true;
		for (size_t i = 0; command_table[i]; i++) {
			const struct cmd_entry *c = command_table[i];
			if (!comp_child_of(c, cmd) || !comp_visible(c))
				continue;
			strbuf_addf(out, "%s%s", first ? "" : " ", c->name);
			first = false;
		}
		strbuf_addstr(out, "'\n\t\t_mirage_opts='");
		struct strbuf opts = STRBUF_INIT;
		if (!cmd) {
			for (size_t i = 0; g[i].name; i++)
				comp_add_spellings(&opts, &g[i]);
			for (size_t i = 0; top[i].name; i++)
				comp_add_spellings(&opts, &top[i]);
		} else if (help) {
			/* main.c reads only -h/--help between a group and its subcommand. */
			comp_add_spellings(&opts, help);
		}
		strbuf_addstr(out, opts.buf + (opts.len ? 1 : 0));
		strbuf_release(&opts);
		strbuf_addstr(out, "'\n\t\t;;\n");
		return;
	}
	struct strbuf opts = STRBUF_INIT;
	for (size_t i = 0; cmd->opts && cmd->opts[i].name; i++)
		comp_add_spellings(&opts, &cmd->opts[i]);
	for (size_t i = 0; g[i].name; i++)
		comp_add_spellings(&opts, &g[i]);
	if (cmd->flags & CMD_PASSTHROUGH)
		strbuf_addstr(&opts, " --");
	strbuf_addf(out, "\t\t_mirage_opts='%s'\n", opts.buf + 1);
	strbuf_release(&opts);
	strbuf_addf(out, "\t\t_mirage_arg=%s _mirage_max=%d", comp_kind_names[comp_arg_kind(cmd)],
	            cmd->max_args);
	if (cmd->flags & CMD_PASSTHROUGH)
		strbuf_addstr(out, " _mirage_pass=1");
	strbuf_addstr(out, "\n\t\t;;\n");
}

static void bash_optarg_case(struct strbuf *out, const char *path, const struct opt_spec *o)
{
	enum comp_kind k = comp_opt_kind(o);
	if (k == CK_NONE)
		return;
	strbuf_addf(out, "\t'%s/--%s'", path, o->name);
	if (o->short_name)
		strbuf_addf(out, " | '%s/-%c'", path, o->short_name);
	strbuf_addf(out, ")\n\t\t_mirage_val=%s", comp_kind_names[k]);
	if (k == CK_ENUM) {
		struct strbuf w = STRBUF_INIT;
		comp_add_words(&w, o->choices);
		strbuf_addstr(out, " _mirage_choices=");
		strbuf_add_single_quoted(out, w.buf);
		strbuf_release(&w);
	}
	if (comp_value_glued(o))
		strbuf_addstr(out, " _mirage_glued=1");
	strbuf_addstr(out, "\n\t\t;;\n");
}

static void bash_shell_values(struct strbuf *out)
{
	strbuf_addstr(out, "\tshell) list='");
	comp_add_words(out, comp_shell_names);
	strbuf_addstr(out, "' ;;\n");
}

static void bash_command_cases(struct strbuf *out)
{
	bash_cmd_case(out, NULL);
	for (size_t i = 0; command_table[i]; i++)
		if (comp_visible(command_table[i]))
			bash_cmd_case(out, command_table[i]);
}

static void bash_option_cases(struct strbuf *out)
{
	const struct opt_spec *g = global_options();
	char path[128];

	/* The global options' values, before the command word and after it. */
	for (size_t j = 0; g[j].name; j++)
		bash_optarg_case(out, "", &g[j]);
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (!comp_visible(c) || comp_is_group(c))
			continue;
		command_full_name(c, path, sizeof(path));
		for (size_t j = 0; c->opts && c->opts[j].name; j++)
			bash_optarg_case(out, path, &c->opts[j]);
		for (size_t j = 0; g[j].name; j++)
			bash_optarg_case(out, path, &g[j]);
	}
}

void comp_gen_bash(struct strbuf *out)
{
	static const struct comp_slot slots[] = {
	    {"shell-values", bash_shell_values},
	    {"command-cases", bash_command_cases},
	    {"option-cases", bash_option_cases},
	    {NULL, NULL},
	};
	comp_expand(out, comp_tmpl_bash, slots);
}
