/* Writes bash, zsh and fish completion scripts by walking command_table, and the candidates they
 * ask for. */
#include "complete.h"

#include "command.h"

#include "gfx_table.h"
#include "profile.h"
#include "profile_store.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *const comp_shell_names[] = {"bash", "zsh", "fish", NULL};

/* --version is handled by main.c before any table lookup, so it has no opt_spec to walk. */
static const char version_help[] = "print the version";

int comp_shell_from_name(const char *name)
{
	for (int i = 0; comp_shell_names[i]; i++)
		if (!strcmp(comp_shell_names[i], name))
			return i;
	return -1;
}

/* What a value (of an option or a positional) completes to; the names are what the scripts switch
 * on. */
enum comp_kind {
	CK_NONE,            /* the option takes no value */
	CK_ANY,             /* free text: nothing to offer */
	CK_FILE,            /* files */
	CK_DIR,             /* directories */
	CK_PROFILE,         /* stored profile names (mirage __complete profiles) */
	CK_ENUM,            /* the option's .choices */
	CK_GFX_SOURCE,      /* processors of the gfx table */
	CK_GFX_TARGET,      /* HotSwap targets of the gfx table */
	CK_GFX_TARGET_AUTO, /* the same plus "auto" */
	CK_GFX_ANY,         /* every gfx name */
	CK_EMULATOR,        /* registered backends */
	CK_SHELL,           /* bash zsh fish */
	CK_COMMAND,         /* the workload after `--` */
};

static const char *const kind_names[] = {
    [CK_NONE] = "",
    [CK_ANY] = "any",
    [CK_FILE] = "file",
    [CK_DIR] = "dir",
    [CK_PROFILE] = "profile",
    [CK_ENUM] = "enum",
    [CK_GFX_SOURCE] = "gfx-sources",
    [CK_GFX_TARGET] = "gfx-targets",
    [CK_GFX_TARGET_AUTO] = "gfx-targets-auto",
    [CK_GFX_ANY] = "gfx",
    [CK_EMULATOR] = "emulator",
    [CK_SHELL] = "shell",
    [CK_COMMAND] = "command",
};

static enum comp_kind opt_kind(const struct opt_spec *o)
{
	switch (o->type) {
	case OPT_BOOL:
	case OPT_COUNT:
		return CK_NONE;
	case OPT_PATH:
		return CK_FILE;
	case OPT_DIR:
		return CK_DIR;
	case OPT_PROFILE:
		return CK_PROFILE;
	case OPT_ENUM:
		return CK_ENUM;
	case OPT_GFX:
		/*
		 * The gfx type does not say which side of the rewrite a flag is, so
		 * the name does: --source* is what code was built for, --target* is
		 * what HotSwap can run it on; "auto" only where the flag admits it.
		 */
		if (strstr(o->name, "source"))
			return CK_GFX_SOURCE;
		if (strstr(o->name, "target"))
			return o->arg_name && strstr(o->arg_name, "auto") ? CK_GFX_TARGET_AUTO
			                                                  : CK_GFX_TARGET;
		return CK_GFX_ANY;
	case OPT_STRING:
		return strcmp(o->name, "emulator") ? CK_ANY : CK_EMULATOR;
	case OPT_INT:
		return CK_ANY;
	}
	return CK_ANY;
}

static enum comp_kind arg_kind(const struct cmd_entry *c)
{
	switch (c->arg_kind) {
	case ARG_FILE:
	case ARG_URL_OR_FILE:
		return CK_FILE;
	case ARG_PROFILE:
		return CK_PROFILE;
	case ARG_SHELL:
		return CK_SHELL;
	case ARG_COMMAND:
		return CK_COMMAND;
	case ARG_NONE:
	case ARG_WORD:
		return CK_ANY;
	}
	return CK_ANY;
}

/* An option whose value must be glued on (--x=VALUE), so the next word is never its value. */
static bool value_glued(const struct opt_spec *o)
{
	return (o->flags & OPT_ARG_OPTIONAL) != 0;
}

static bool is_group(const struct cmd_entry *c)
{
	return (c->flags & CMD_GROUP) != 0;
}

/* Hidden commands, and everything under a hidden or missing group, are never completed. */
static bool visible(const struct cmd_entry *c)
{
	if (c->flags & CMD_HIDDEN)
		return false;
	if (!c->parent)
		return true;
	const struct cmd_entry *p = command_find(NULL, c->parent);
	return p && !(p->flags & CMD_HIDDEN);
}

static bool child_of(const struct cmd_entry *c, const struct cmd_entry *group)
{
	return group ? c->parent && !strcmp(c->parent, group->name) : !c->parent;
}

/* The global option called name (help), or NULL. */
static const struct opt_spec *global_named(const char *name)
{
	const struct opt_spec *g = global_options();
	for (size_t i = 0; g[i].name; i++)
		if (!strcmp(g[i].name, name))
			return &g[i];
	return NULL;
}

/*
 * The description of one spelling, in a buffer the caller frees: the table has
 * one help line per flag, written for the positive form, so --no-x gets its own.
 */
static char *spelling_help(const struct opt_spec *o, bool negated)
{
	return negated ? xstrfmt("turn --%s off", o->name) : xstrdup(o->help);
}

/* Appends the space-separated words of a NULL-terminated list. */
static void add_words(struct strbuf *out, const char *const *words)
{
	for (size_t i = 0; words && words[i]; i++)
		strbuf_addf(out, "%s%s", i ? " " : "", words[i]);
}

/* Every spelling of an option: --name, --no-name, -c. */
static void add_spellings(struct strbuf *out, const struct opt_spec *o)
{
	strbuf_addf(out, " --%s", o->name);
	if (o->flags & OPT_NEGATABLE)
		strbuf_addf(out, " --no-%s", o->name);
	if (o->short_name)
		strbuf_addf(out, " -%c", o->short_name);
}

/* ---------------------------------------------------------------- bash */

static const char bash_head[] =
    "# bash completion for mirage                              -*- shell-script -*-\n"
    "# Generated by `mirage completions bash` from mirage's command table; do not edit.\n"
    "\n"
    "# Runs the mirage being completed (it may not be the one on PATH) for dynamic\n"
    "# candidates, one per line; a failure just means no candidates.\n"
    "_mirage_call()\n"
    "{\n"
    "\tlocal bin=${COMP_WORDS[0]}\n"
    "\t[[ $bin == '~/'* ]] && bin=$HOME/${bin#'~/'}\n"
    "\t\"$bin\" __complete \"$@\" 2>/dev/null\n"
    "}\n"
    "\n"
    "# Fills COMPREPLY with the values of kind $1 that start with $2.\n"
    "_mirage_values()\n"
    "{\n"
    "\tlocal cur=$2 list=\n"
    "\tcase $1 in\n"
    "\tfile | dir)\n"
    "\t\t# _filedir (bash-completion) quotes, expands ~ and marks directories.\n"
    "\t\tif declare -F _filedir >/dev/null; then\n"
    "\t\t\tif [[ $1 == dir ]]; then _filedir -d; else _filedir; fi\n"
    "\t\telse\n"
    "\t\t\tcompopt -o filenames 2>/dev/null\n"
    "\t\t\tif [[ $1 == dir ]]; then\n"
    "\t\t\t\tmapfile -t COMPREPLY < <(compgen -d -- \"$cur\")\n"
    "\t\t\telse\n"
    "\t\t\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n"
    "\t\t\tfi\n"
    "\t\tfi\n"
    "\t\treturn ;;\n"
    "\tenum) list=$_mirage_choices ;;\n"
    "\tprofile) list=$(_mirage_call profiles) ;;\n"
    "\temulator) list=$(_mirage_call emulators) ;;\n"
    "\tshell) list='bash zsh fish' ;;\n"
    "\tgfx-sources) list=$(_mirage_call gfx sources) ;;\n"
    "\tgfx-targets) list=$(_mirage_call gfx targets) ;;\n"
    "\tgfx-targets-auto) list=\"auto $(_mirage_call gfx targets)\" ;;\n"
    "\tgfx) list=$(_mirage_call gfx) ;;\n"
    "\t*) return ;;\n"
    "\tesac\n"
    "\tmapfile -t COMPREPLY < <(compgen -W \"$list\" -- \"$cur\")\n"
    "}\n"
    "\n";

static const char bash_main[] =
    "_mirage()\n"
    "{\n"
    "\tCOMPREPLY=()\n"
    "\t# Rejoin what COMP_WORDBREAKS split off ('--target=gfx942', 'gfx1250:32')\n"
    "\t# when nothing separated the pieces on the line; at[k] keeps where word k\n"
    "\t# starts in COMP_WORDS, which _command_offset counts in.\n"
    "\tlocal -a words=() at=()\n"
    "\tlocal j w rest trimmed gap pos=0\n"
    "\tfor ((j = 0; j <= COMP_CWORD; j++)); do\n"
    "\t\tw=${COMP_WORDS[j]}\n"
    "\t\trest=${COMP_LINE:pos}\n"
    "\t\ttrimmed=${rest#\"${rest%%[![:space:]]*}\"}\n"
    "\t\tgap=$((${#rest} - ${#trimmed}))\n"
    "\t\tpos=$((pos + gap + ${#w}))\n"
    "\t\tif ((j > 1 && gap == 0)) && [[ $w == [=:]* || ${words[-1]} == *[=:] ]]; then\n"
    "\t\t\twords[-1]+=$w\n"
    "\t\telse\n"
    "\t\t\twords+=(\"$w\")\n"
    "\t\t\tat+=(\"$j\")\n"
    "\t\tfi\n"
    "\tdone\n"
    "\tlocal cword=$((${#words[@]} - 1))\n"
    "\tlocal cur=${words[cword]} path= i=1 npos=0 dashdash= list\n"
    "\n"
    "\t# The command path, as main.c reads it: global flags, the command, and\n"
    "\t# right after a group its subcommand.\n"
    "\twhile ((i < cword)) && [[ ${words[i]} == -* ]]; do ((i++)); done\n"
    "\t_mirage_cmd ''\n"
    "\tif ((i < cword)); then\n"
    "\t\tpath=${words[i]}\n"
    "\t\t((i++))\n"
    "\t\t_mirage_cmd \"$path\" || return 0\n"
    "\t\tif [[ $_mirage_subs ]] && ((i < cword)); then\n"
    "\t\t\tpath+=\" ${words[i]}\"\n"
    "\t\t\t((i++))\n"
    "\t\t\t_mirage_cmd \"$path\" || return 0\n"
    "\t\tfi\n"
    "\tfi\n"
    "\tif [[ $_mirage_subs ]]; then\n"
    "\t\tif [[ $cur == -* ]]; then list=$_mirage_opts; else list=$_mirage_subs; fi\n"
    "\t\tmapfile -t COMPREPLY < <(compgen -W \"$list\" -- \"$cur\")\n"
    "\t\treturn 0\n"
    "\tfi\n"
    "\n"
    "\t# The command's own words, as parse_options.c reads them.\n"
    "\twhile ((i < cword)); do\n"
    "\t\tw=${words[i]}\n"
    "\t\t((i++))\n"
    "\t\tif [[ ! $dashdash && $w == -- ]]; then\n"
    "\t\t\tif [[ $_mirage_pass ]]; then\n"
    "\t\t\t\t# The workload: complete it as a command line of its own.\n"
    "\t\t\t\tif declare -F _command_offset >/dev/null; then\n"
    "\t\t\t\t\t_command_offset \"${at[i]}\"\n"
    "\t\t\t\telif ((i == cword)); then\n"
    "\t\t\t\t\tmapfile -t COMPREPLY < <(compgen -c -- \"$cur\")\n"
    "\t\t\t\telse\n"
    "\t\t\t\t\tcompopt -o default 2>/dev/null\n"
    "\t\t\t\tfi\n"
    "\t\t\t\treturn 0\n"
    "\t\t\tfi\n"
    "\t\t\tdashdash=1\n"
    "\t\t\tcontinue\n"
    "\t\tfi\n"
    "\t\tif [[ ! $dashdash && $w == -?* ]]; then\n"
    "\t\t\t[[ $w == *=* ]] && continue\n"
    "\t\t\t_mirage_optarg \"$path\" \"$w\"\n"
    "\t\t\tif [[ $_mirage_val && ! $_mirage_glued ]]; then\n"
    "\t\t\t\tif ((i == cword)); then\n"
    "\t\t\t\t\t_mirage_values \"$_mirage_val\" \"$cur\"\n"
    "\t\t\t\t\treturn 0\n"
    "\t\t\t\tfi\n"
    "\t\t\t\t((i++))\n"
    "\t\t\tfi\n"
    "\t\t\tcontinue\n"
    "\t\tfi\n"
    "\t\t((npos++))\n"
    "\tdone\n"
    "\n"
    "\tif [[ ! $dashdash && $cur == -* ]]; then\n"
    "\t\tif [[ $cur == --*=* ]]; then\n"
    "\t\t\t# Readline completes only the part after '=' (a word break).\n"
    "\t\t\t_mirage_optarg \"$path\" \"${cur%%=*}\"\n"
    "\t\t\t[[ $_mirage_val ]] && _mirage_values \"$_mirage_val\" \"${cur#*=}\"\n"
    "\t\t\t[[ $COMP_WORDBREAKS == *=* ]] || COMPREPLY=(\"${COMPREPLY[@]/#/${cur%%=*}=}\")\n"
    "\t\t\treturn 0\n"
    "\t\tfi\n"
    "\t\tmapfile -t COMPREPLY < <(compgen -W \"$_mirage_opts\" -- \"$cur\")\n"
    "\t\treturn 0\n"
    "\tfi\n"
    "\tif ((_mirage_max < 0 || npos < _mirage_max)); then\n"
    "\t\t_mirage_values \"$_mirage_arg\" \"$cur\"\n"
    "\tfi\n"
    "\treturn 0\n"
    "}\n"
    "\n"
    "complete -F _mirage mirage\n";

static void bash_cmd_case(struct strbuf *out, const struct cmd_entry *cmd)
{
	char path[128];
	const struct opt_spec *g = global_options();
	const struct opt_spec *help = global_named("help");

	strbuf_addstr(out, "\t");
	strbuf_add_single_quoted(out, cmd ? command_full_name(cmd, path, sizeof(path)) : "");
	strbuf_addstr(out, ")\n");
	if (!cmd || is_group(cmd)) {
		strbuf_addstr(out, "\t\t_mirage_subs='");
		bool first = true;
		for (size_t i = 0; command_table[i]; i++) {
			const struct cmd_entry *c = command_table[i];
			if (!child_of(c, cmd) || !visible(c))
				continue;
			strbuf_addf(out, "%s%s", first ? "" : " ", c->name);
			first = false;
		}
		strbuf_addstr(out, "'\n\t\t_mirage_opts='");
		struct strbuf opts = STRBUF_INIT;
		if (!cmd) {
			for (size_t i = 0; g[i].name; i++)
				add_spellings(&opts, &g[i]);
			strbuf_addstr(&opts, " --version");
		} else if (help) {
			/* main.c reads only -h/--help between a group and its subcommand. */
			add_spellings(&opts, help);
		}
		strbuf_addstr(out, opts.buf + (opts.len ? 1 : 0));
		strbuf_release(&opts);
		strbuf_addstr(out, "'\n\t\t;;\n");
		return;
	}
	struct strbuf opts = STRBUF_INIT;
	for (size_t i = 0; cmd->opts && cmd->opts[i].name; i++)
		add_spellings(&opts, &cmd->opts[i]);
	for (size_t i = 0; g[i].name; i++)
		add_spellings(&opts, &g[i]);
	if (cmd->flags & CMD_PASSTHROUGH)
		strbuf_addstr(&opts, " --");
	strbuf_addf(out, "\t\t_mirage_opts='%s'\n", opts.buf + 1);
	strbuf_release(&opts);
	strbuf_addf(out, "\t\t_mirage_arg=%s _mirage_max=%d", kind_names[arg_kind(cmd)],
	            cmd->max_args);
	if (cmd->flags & CMD_PASSTHROUGH)
		strbuf_addstr(out, " _mirage_pass=1");
	strbuf_addstr(out, "\n\t\t;;\n");
}

static void bash_optarg_case(struct strbuf *out, const char *path, const struct opt_spec *o)
{
	enum comp_kind k = opt_kind(o);
	if (k == CK_NONE)
		return;
	strbuf_addf(out, "\t'%s/--%s'", path, o->name);
	if (o->short_name)
		strbuf_addf(out, " | '%s/-%c'", path, o->short_name);
	strbuf_addf(out, ")\n\t\t_mirage_val=%s", kind_names[k]);
	if (k == CK_ENUM) {
		struct strbuf w = STRBUF_INIT;
		add_words(&w, o->choices);
		strbuf_addstr(out, " _mirage_choices=");
		strbuf_add_single_quoted(out, w.buf);
		strbuf_release(&w);
	}
	if (value_glued(o))
		strbuf_addstr(out, " _mirage_glued=1");
	strbuf_addstr(out, "\n\t\t;;\n");
}

static void gen_bash(struct strbuf *out)
{
	char path[128];

	strbuf_addstr(out, bash_head);
	strbuf_addstr(
	    out, "# Sets what command path $1 ('' is the top level) accepts; fails if unknown.\n"
	         "_mirage_cmd()\n{\n"
	         "\t_mirage_subs= _mirage_opts= _mirage_arg=any _mirage_max=0 _mirage_pass=\n"
	         "\tcase $1 in\n");
	bash_cmd_case(out, NULL);
	for (size_t i = 0; command_table[i]; i++)
		if (visible(command_table[i]))
			bash_cmd_case(out, command_table[i]);
	strbuf_addstr(out, "\t*) return 1 ;;\n\tesac\n}\n\n");

	strbuf_addstr(out,
	              "# Sets _mirage_val to the kind of value option $2 of command path $1 takes\n"
	              "# (empty: none); _mirage_glued when only --x=VALUE gives one.\n"
	              "_mirage_optarg()\n{\n"
	              "\t_mirage_val= _mirage_choices= _mirage_glued=\n"
	              "\tcase $1/$2 in\n");
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (!visible(c) || is_group(c))
			continue;
		command_full_name(c, path, sizeof(path));
		for (size_t j = 0; c->opts && c->opts[j].name; j++)
			bash_optarg_case(out, path, &c->opts[j]);
	}
	strbuf_addstr(out, "\tesac\n}\n\n");
	strbuf_addstr(out, bash_main);
}

/* ---------------------------------------------------------------- zsh */

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
	case CK_EMULATOR:
		strbuf_addstr(out, "{_mirage_dynamic emulators}");
		break;
	case CK_ENUM:
		strbuf_addch(out, '(');
		for (size_t i = 0; choices[i]; i++) {
			strbuf_addstr(out, i ? " " : "");
			add_zsh_desc(out, choices[i]);
		}
		strbuf_addch(out, ')');
		break;
	case CK_SHELL:
		strbuf_addstr(out, "(bash zsh fish)");
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
	case CK_GFX_ANY:
		strbuf_addstr(out, "{_mirage_dynamic gfx}");
		break;
	case CK_NONE:
	case CK_ANY:
	case CK_COMMAND:
		strbuf_addstr(out, " ");
		break;
	}
}

static const char *opt_placeholder(const struct opt_spec *o)
{
	if (o->arg_name)
		return o->arg_name;
	switch (o->type) {
	case OPT_PATH:
		return "file";
	case OPT_DIR:
		return "dir";
	case OPT_PROFILE:
		return "profile";
	case OPT_GFX:
		return "gfx";
	case OPT_INT:
		return "number";
	default:
		return o->name;
	}
}

/* One _arguments spec word (or a brace pair for -c/--name) for option o. */
static void zsh_opt_spec(struct strbuf *out, const struct opt_spec *o, bool negated)
{
	enum comp_kind k = negated ? CK_NONE : opt_kind(o);
	bool rep = (o->flags & OPT_REPEAT) || o->type == OPT_COUNT;
	bool help = !strcmp(o->name, "help");
	const char *suffix = k == CK_NONE ? "" : value_glued(o) ? "=-" : "=";

	strbuf_addstr(out, " \\\n\t\t");
	/* Exclusions: a flag and its other spellings (or its --no- form) are one choice. */
	if (help) {
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
	char *desc = spelling_help(o, negated);
	add_zsh_desc(out, desc);
	free(desc);
	strbuf_addch(out, ']');
	if (k != CK_NONE) {
		strbuf_addstr(out, value_glued(o) ? "::" : ":");
		add_zsh_message(out, opt_placeholder(o));
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
		if (!child_of(c, group) || !visible(c))
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
	const struct opt_spec *g = global_options();
	const struct opt_spec *help = global_named("help");

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
		strbuf_addf(out, " \\\n\t\t'(- *)--version[%s]'", version_help);
	} else if (help) {
		zsh_opt_spec(out, help, false);
	}
	strbuf_addstr(out, " \\\n\t\t'1:command:");
	zsh_fn_name(out, group);
	strbuf_addstr(out, "_commands' \\\n\t\t'*::arg:->args' && return 0\n");
	strbuf_addstr(out, "\t[[ $state == args ]] || return 1\n\tcase $line[1] in\n");
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (!child_of(c, group) || !visible(c))
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
	enum comp_kind ak = arg_kind(c);

	strbuf_addstr(out, "\n");
	zsh_fn_name(out, c);
	strbuf_addstr(out, "()\n{\n");
	if (c->flags & CMD_PASSTHROUGH)
		strbuf_addstr(out, "\t# After `--` the words are the workload's own command line.\n"
		                   "\tlocal i=${words[(i)--]}\n"
		                   "\tif ((i < CURRENT)); then\n"
		                   "\t\twords=(\"${(@)words[i+1,-1]}\")\n"
		                   "\t\t((CURRENT -= i))\n"
		                   "\t\t_normal\n"
		                   "\t\treturn\n"
		                   "\tfi\n");
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

static const char zsh_head[] =
    "#compdef mirage\n"
    "# zsh completion for mirage.\n"
    "# Generated by `mirage completions zsh` from mirage's command table; do not edit.\n"
    "\n"
    "# Offers what `mirage __complete $@` prints, one per line (+auto first adds \"auto\").\n"
    "_mirage_dynamic()\n"
    "{\n"
    "\tlocal expl\n"
    "\tlocal -a vals\n"
    "\tif [[ $1 == +auto ]]; then\n"
    "\t\tvals=(auto)\n"
    "\t\tshift\n"
    "\tfi\n"
    "\t# The binary being completed answers, since it may not be the one on PATH.\n"
    "\tvals+=(${(f)\"$(_call_program $1 ${_mirage_bin:-mirage} __complete $@ 2>/dev/null)\"})\n"
    "\t_wanted $1 expl $1 compadd -a vals\n"
    "}\n";

static const char zsh_tail[] =
    "\n"
    "# Loaded from fpath (autoload) this file is _mirage's body; sourced, it registers.\n"
    "if [[ $funcstack[1] == _mirage ]]; then\n"
    "\t_mirage \"$@\"\n"
    "else\n"
    "\tcompdef _mirage mirage\n"
    "fi\n";

static void gen_zsh(struct strbuf *out)
{
	strbuf_addstr(out, zsh_head);
	zsh_group_fn(out, NULL);
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (!visible(c))
			continue;
		if (is_group(c))
			zsh_group_fn(out, c);
		else
			zsh_leaf_fn(out, c);
	}
	strbuf_addstr(out, zsh_tail);
}

/* ---------------------------------------------------------------- fish */

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

static const char fish_head[] =
    "# fish completion for mirage.\n"
    "# Generated by `mirage completions fish` from mirage's command table; do not edit.\n"
    "\n"
    "# Prints the command path before the cursor as main.c reads it (global flags,\n"
    "# the command, right after a group its subcommand): '', 'profile', 'profile create'.\n"
    "# A passthrough command whose `--` has been typed prints 'run --'.\n"
    "function __fish_mirage_path\n"
    "\tset -l toks (commandline -opc)\n"
    "\tset -l n (count $toks)\n"
    "\tset -l i 2\n"
    "\twhile test $i -le $n; and string match -q -- '-*' $toks[$i]\n"
    "\t\tset i (math $i + 1)\n"
    "\tend\n"
    "\ttest $i -le $n; or return 0\n"
    "\tset -l path $toks[$i]\n"
    "\tset i (math $i + 1)\n"
    "\tif contains -- $path $__fish_mirage_groups; and test $i -le $n\n"
    "\t\tset path \"$path $toks[$i]\"\n"
    "\t\tset i (math $i + 1)\n"
    "\tend\n"
    "\tif contains -- $path $__fish_mirage_passthrough\n"
    "\t\twhile test $i -le $n\n"
    "\t\t\tif test \"$toks[$i]\" = --\n"
    "\t\t\t\tset path \"$path --\"\n"
    "\t\t\t\tbreak\n"
    "\t\t\tend\n"
    "\t\t\tset i (math $i + 1)\n"
    "\t\tend\n"
    "\tend\n"
    "\techo $path\n"
    "end\n"
    "\n"
    "function __fish_mirage_at\n"
    "\tset -l path (__fish_mirage_path)\n"
    "\ttest \"$path\" = \"$argv[1]\"\n"
    "end\n"
    "\n"
    "# True when the word at the cursor is a positional of command path $argv[1] with\n"
    "# room left: $argv[2] is the most it takes (-1: any), the rest its options that\n"
    "# take the next word as their value.\n"
    "function __fish_mirage_arg\n"
    "\t__fish_mirage_at $argv[1]; or return 1\n"
    "\tset -l max $argv[2]\n"
    "\ttest $max -lt 0; and return 0\n"
    "\tset -l valopts $argv[3..-1]\n"
    "\tset -l toks (commandline -opc)\n"
    "\tset -l n (count $toks)\n"
    "\tset -l i 2\n"
    "\twhile test $i -le $n; and string match -q -- '-*' $toks[$i]\n"
    "\t\tset i (math $i + 1)\n"
    "\tend\n"
    "\tset i (math $i + (count (string split ' ' -- $argv[1])))\n"
    "\tset -l npos 0\n"
    "\tset -l dashdash 0\n"
    "\twhile test $i -le $n\n"
    "\t\tset -l t $toks[$i]\n"
    "\t\tset i (math $i + 1)\n"
    "\t\tif test $dashdash = 0; and test \"$t\" = --\n"
    "\t\t\tset dashdash 1\n"
    "\t\telse if test $dashdash = 0; and string match -qr -- '^-.' $t\n"
    "\t\t\tcontains -- $t $valopts; and set i (math $i + 1)\n"
    "\t\telse\n"
    "\t\t\tset npos (math $npos + 1)\n"
    "\t\tend\n"
    "\tend\n"
    "\ttest $npos -lt $max\n"
    "end\n"
    "\n"
    "# Runs the mirage being completed (it may not be the one on PATH); prints one candidate a "
    "line.\n"
    "function __fish_mirage_call\n"
    "\tset -l bin (commandline -opc)[1]\n"
    "\tset bin (string replace -r '^~/' \"$HOME/\" -- $bin)\n"
    "\tcommand $bin __complete $argv 2>/dev/null\n"
    "end\n"
    "\n"
    "# Completes the workload after `--` as a command line of its own.\n"
    "function __fish_mirage_workload\n"
    "\tset -l toks (commandline -opc)\n"
    "\tset -l i (contains -i -- -- $toks)\n"
    "\tset -l rest\n"
    "\ttest $i -lt (count $toks); and set rest (string escape -- $toks[(math $i + 1)..-1])\n"
    "\tcomplete -C \"$rest \"(commandline -ct)\n"
    "end\n"
    "\n"
    "complete -c mirage -e\n"
    "complete -c mirage -f\n";

/* The "-n ... -l name -s c" head of a fish complete line for option o of path. */
static void fish_opt(struct strbuf *out, const char *cond, const struct opt_spec *o, bool negated)
{
	enum comp_kind k = negated ? CK_NONE : opt_kind(o);

	strbuf_addf(out, "complete -c mirage -n %s -l %s%s", cond, negated ? "no-" : "", o->name);
	if (o->short_name && !negated)
		strbuf_addf(out, " -s %c", o->short_name);
	switch (k) {
	case CK_NONE:
		break;
	case CK_FILE:
		strbuf_addstr(out, " -r -F");
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
	case CK_EMULATOR:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call emulators)'");
		break;
	case CK_ENUM: {
		struct strbuf w = STRBUF_INIT;
		add_words(&w, o->choices);
		strbuf_addstr(out, " -x -a ");
		add_fish_sq(out, w.buf);
		strbuf_release(&w);
		break;
	}
	case CK_SHELL:
		strbuf_addstr(out, " -x -a 'bash zsh fish'");
		break;
	case CK_GFX_SOURCE:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call gfx sources)'");
		break;
	case CK_GFX_TARGET:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call gfx targets)'");
		break;
	case CK_GFX_TARGET_AUTO:
		strbuf_addstr(out, " -x -a 'auto (__fish_mirage_call gfx targets)'");
		break;
	case CK_GFX_ANY:
		strbuf_addstr(out, " -x -a '(__fish_mirage_call gfx)'");
		break;
	}
	strbuf_addstr(out, " -d ");
	char *desc = spelling_help(o, negated);
	add_fish_sq(out, desc);
	free(desc);
	strbuf_addch(out, '\n');
}

static void fish_cmd(struct strbuf *out, const struct cmd_entry *cmd)
{
	char path[128];
	const struct opt_spec *g = global_options();
	const struct opt_spec *help = global_named("help");
	struct strbuf cond = STRBUF_INIT;

	/* Command names are plain words, so the path needs no escaping inside the quotes. */
	if (cmd)
		command_full_name(cmd, path, sizeof(path));
	strbuf_addf(&cond, "\"__fish_mirage_at '%s'\"", cmd ? path : "");

	strbuf_addf(out, "\n# %s\n", cmd ? path : "(top level)");
	if (!cmd || is_group(cmd)) {
		for (size_t i = 0; command_table[i]; i++) {
			const struct cmd_entry *c = command_table[i];
			if (!child_of(c, cmd) || !visible(c))
				continue;
			strbuf_addf(out, "complete -c mirage -n %s -a %s -d ", cond.buf, c->name);
			add_fish_sq(out, c->summary);
			strbuf_addch(out, '\n');
		}
		if (!cmd) {
			for (size_t i = 0; g[i].name; i++)
				fish_opt(out, cond.buf, &g[i], false);
			strbuf_addf(out, "complete -c mirage -n %s -l version -d '%s'\n", cond.buf,
			            version_help);
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

	enum comp_kind ak = arg_kind(cmd);
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
			if (opt_kind(o) == CK_NONE || value_glued(o))
				continue;
			strbuf_addf(out, " --%s", o->name);
			if (o->short_name)
				strbuf_addf(out, " -%c", o->short_name);
		}
		strbuf_addstr(out, "\"");
		switch (ak) {
		case CK_FILE:
			strbuf_addstr(out, " -F\n");
			break;
		case CK_PROFILE:
			strbuf_addstr(out, " -x -a '(__fish_mirage_call profiles)'\n");
			break;
		case CK_SHELL:
			strbuf_addstr(out, " -x -a 'bash zsh fish'\n");
			break;
		default:
			strbuf_addstr(out, " -x\n");
			break;
		}
	}
	strbuf_release(&cond);
}

static void gen_fish(struct strbuf *out)
{
	strbuf_addstr(out, fish_head);
	strbuf_addstr(out, "\n# Groups (the next word is a subcommand) and passthrough commands "
	                   "(`--` starts the workload).\nset -g __fish_mirage_groups");
	for (size_t i = 0; command_table[i]; i++)
		if (visible(command_table[i]) && is_group(command_table[i]) &&
		    !command_table[i]->parent)
			strbuf_addf(out, " %s", command_table[i]->name);
	strbuf_addstr(out, "\nset -g __fish_mirage_passthrough");
	for (size_t i = 0; command_table[i]; i++) {
		char path[128];
		if (visible(command_table[i]) && (command_table[i]->flags & CMD_PASSTHROUGH))
			strbuf_addf(out, " '%s'",
			            command_full_name(command_table[i], path, sizeof(path)));
	}
	strbuf_addch(out, '\n');
	fish_cmd(out, NULL);
	for (size_t i = 0; command_table[i]; i++)
		if (visible(command_table[i]))
			fish_cmd(out, command_table[i]);
}

void comp_generate(enum comp_shell shell, struct strbuf *out)
{
	switch (shell) {
	case COMP_BASH:
		gen_bash(out);
		break;
	case COMP_ZSH:
		gen_zsh(out);
		break;
	case COMP_FISH:
		gen_fish(out);
		break;
	}
}

/* ---------------------------------------------------------------- candidates */

int comp_candidates(const char *kind, const char *which, struct strvec *out)
{
	if (!strcmp(kind, "profiles")) {
		struct diag err = DIAG_INIT;
		/* A missing or unreadable store has no names to offer; that is not worth a message
		 * here. */
		profile_list(out, &err);
		diag_release(&err);
		return 0;
	}
	if (!strcmp(kind, "emulators")) {
		strvec_pushv(out, profile_emulators);
		return 0;
	}
	if (!strcmp(kind, "shells")) {
		strvec_pushv(out, comp_shell_names);
		return 0;
	}
	if (!strcmp(kind, "gfx")) {
		size_t n;
		const struct gfx_info *t = gfx_table(&n);
		bool targets = which && !strcmp(which, "targets");
		bool sources = which && !strcmp(which, "sources");
		if (which && !targets && !sources)
			return -1;
		for (size_t i = 0; i < n; i++) {
			if (targets && t[i].retarget == GFX_RETARGET_NONE)
				continue;
			if (sources && t[i].is_generic)
				continue;
			strvec_push(out, t[i].name);
		}
		return 0;
	}
	return -1;
}
