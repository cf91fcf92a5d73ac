/*
 * `mirage help [COMMAND [SUBCOMMAND]]` (and `mirage --help COMMAND ...`): a command's help, as
 * `mirage COMMAND --help` prints it; and the hidden `mirage __man DIR`, which writes the man
 * pages from the command table: mirage(1) and one mirage-COMMAND(1) per top-level command
 * (a group's subcommands are sections of its page), as git and curl ship theirs.
 */
#include "command.h"
#include "msg.h"

#include "atomic_file.h"
#include "hotswap_contract.h"
#include "strbuf.h"

#include <hotswap/version.h>

#include <stdio.h>
#include <string.h>

int help_for_words(int argc, const char *const *argv)
{
	const struct cmd_entry *cmd;

	if (argc < 1) {
		print_command_help(stdout, NULL);
		return EXIT_OK;
	}
	if (!(cmd = command_find(NULL, argv[0])) || (cmd->flags & CMD_HIDDEN))
		return unknown_command(NULL, argv[0]);
	if (argc > 1 && (cmd->flags & CMD_GROUP)) {
		const struct cmd_entry *sub = command_find(cmd->name, argv[1]);
		if (!sub || (sub->flags & CMD_HIDDEN))
			return unknown_command(cmd->name, argv[1]);
		cmd = sub;
	} else if (argc > 1) {
		return usage_error("'%s' has no subcommands", cmd->name);
	}
	print_command_help(stdout, cmd);
	return EXIT_OK;
}

static int help_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	(void)ctx;
	return help_for_words((int)a->positional.nr, (const char *const *)a->positional.v);
}

const struct cmd_entry cmd_help_entry = {
    .name = "help",
    .summary = "describe mirage, or a command (as 'mirage COMMAND --help' does)",
    .usage = "[COMMAND [SUBCOMMAND]]",
    .min_args = 0,
    .max_args = 2,
    .arg_kind = ARG_WORD,
    .exec = help_exec,
};

/* ---- man pages ---- */

/* Text for roff: a leading '.' or '\'' escaped, backslashes doubled, '-' as a minus. */
static void roff_text(struct strbuf *out, const char *s)
{
	if (*s == '.' || *s == '\'')
		strbuf_addstr(out, "\\&");
	for (; *s; s++) {
		if (*s == '\\')
			strbuf_addstr(out, "\\e");
		else if (*s == '-')
			strbuf_addstr(out, "\\-");
		else
			strbuf_addch(out, *s);
	}
}

static void roff_line(struct strbuf *out, const char *macro, const char *text)
{
	strbuf_addf(out, "%s ", macro);
	roff_text(out, text);
	strbuf_addch(out, '\n');
}

static void opt_synopsis(struct strbuf *out, const struct opt_spec *o)
{
	strbuf_addstr(out, ".TP\n\\fB");
	if (o->short_name)
		strbuf_addf(out, "\\-%c\\fR, \\fB", o->short_name);
	strbuf_addstr(out, "\\-\\-");
	if (o->flags & OPT_NEGATABLE)
		strbuf_addstr(out, "[no\\-]");
	roff_text(out, o->name);
	strbuf_addstr(out, "\\fR");
	if (o->type != OPT_BOOL) {
		strbuf_addstr(out, " \\fI");
		roff_text(out, o->arg_name              ? o->arg_name
		               : o->type == OPT_PROFILE ? "PROFILE"
		                                        : "VALUE");
		strbuf_addstr(out, "\\fR");
	}
	strbuf_addch(out, '\n');
	roff_text(out, o->help);
	if (o->def)
		strbuf_addf(out, " (default %s)", o->def);
	strbuf_addch(out, '\n');
}

/* One command's usage, options and examples. */
static void command_section(struct strbuf *out, const struct cmd_entry *c, bool subsection)
{
	char name[128], line[512];
	size_t n;
	const struct cmd_example *e;

	command_full_name(c, name, sizeof(name));
	if (subsection)
		roff_line(out, ".SS", name);
	snprintf(line, sizeof(line), "mirage %s%s%s%s", name,
	         c->opts && c->opts[0].name ? " [options]" : "", c->usage && *c->usage ? " " : "",
	         c->usage ? c->usage : "");
	strbuf_addstr(out, ".PP\n\\fB");
	roff_text(out, line);
	strbuf_addstr(out, "\\fR\n.PP\n");
	roff_text(out, c->summary);
	strbuf_addstr(out, ".\n");
	if (c->opts && c->opts[0].name) {
		strbuf_addstr(out, ".PP\nOptions:\n");
		for (const struct opt_spec *o = c->opts; o->name; o++)
			opt_synopsis(out, o);
	}
	e = cmd_examples(name, &n);
	if (n)
		strbuf_addstr(out, ".PP\nExamples:\n");
	for (size_t i = 0; i < n; i++) {
		strbuf_addstr(out, ".TP\n.B ");
		roff_text(out, e[i].line);
		strbuf_addch(out, '\n');
		roff_text(out, e[i].what);
		strbuf_addch(out, '\n');
	}
}

static void page_head(struct strbuf *out, const char *title, const char *what)
{
	strbuf_addf(out, ".TH \"%s\" 1 \"\" \"mirage %s\" \"mirage manual\"\n.SH NAME\n", title,
	            HS_REWRITE_VERSION_STRING);
	roff_text(out, title);
	strbuf_addstr(out, " \\- ");
	roff_text(out, what);
	strbuf_addch(out, '\n');
}

static int write_page(const char *dir, const char *file, const struct strbuf *page)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (atomic_write_file(path, page->buf, page->len, 0666, ATOMIC_REPLACE) < 0)
		return error_errno("cannot write '%s'", path);
	return 0;
}

/* The contract's variables for mirage(1); the README's table has the full story. */
static const struct {
	const char *name, *meaning;
} env_vars[] = {
    {HOTSWAP_ENV_SOURCE_TARGET, "what the workload was built for (the profile's source_target)"},
    {HOTSWAP_ENV_ISA_OVERRIDE, "the GPU to run on: gfx1250 objects are translated for gfx942 or "
                               "gfx950 whatever the agent says (the profile's target)"},
    {HOTSWAP_ENV_STRICT, "1: a required rewrite that fails refuses the load"},
    {HOTSWAP_ENV_ENTRY_TRAMPOLINES, "1: add entry trampolines (the erratum fix) on gfx125x"},
    {HOTSWAP_ENV_ALL_KERNELS, "1: refuse a translated object whole when one kernel is refused"},
    {HOTSWAP_ENV_STEPPING, "a0 or b0: what the physical gfx1250 is"},
    {HOTSWAP_ENV_CACHE_DIR, "the translation cache root; empty turns the cache off"},
    {HOTSWAP_ENV_CACHE_DISABLE, "1: no disk cache"},
    {HOTSWAP_ENV_CACHE_LOCK_TIMEOUT, "seconds to wait for another process's translation of the "
                                     "same object (default 600)"},
    {HOTSWAP_ENV_CACHE_DEBUG, "1: one hotswap_cache line per load"},
    {HOTSWAP_ENV_JOBS, "threads one translation may use, 1 to 256 (default: the CPUs the process "
                       "may run on); the output is the same bytes whatever the number"},
    {HOTSWAP_ENV_IR_RAISER, "1: raise machine code to IR for translation"},
    {HOTSWAP_ENV_BACKEND_ADAPTER_POLICY, "which framework adapters retarget JIT compilers"},
    {HOTSWAP_ENV_BACKEND_ADAPTERS, "the adapters the policy enables"},
    {HOTSWAP_ENV_VERBOSE, "1: the intercept's decisions and reports on stderr"},
    {HOTSWAP_ENV_DISABLE, "1: pass every code object through untouched"},
    {NULL, NULL},
};

/* mirage(1): the commands, the global options, the exit status, the environment, the files. */
static void main_page(struct strbuf *out)
{
	page_head(out, "mirage", "run AMD GPU workloads on GPUs they were not built for");
	strbuf_addstr(out,
	              ".SH SYNOPSIS\n\\fBmirage\\fR [\\-\\-json] [\\-v] [\\-\\-color=\\fIWHEN\\fR] "
	              "[\\-\\-help] [\\-\\-version] \\fICOMMAND\\fR [\\fIARGS\\fR]\n");
	strbuf_addstr(out,
	              ".SH DESCRIPTION\nmirage runs gfx1250 code where it was not built to run: "
	              "translated for MI300/MI350 (gfx942/gfx950), patched for gfx1250 A0 "
	              "boards, with the entry-prologue erratum fix, or on the CPU.\n"
	              "\\fBmirage help\\fR \\fICOMMAND\\fR (or \\fBmirage\\fR \\fICOMMAND\\fR "
	              "\\fB\\-\\-help\\fR) describes a command.\n.SH COMMANDS\n");
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (c->parent || (c->flags & CMD_HIDDEN))
			continue;
		strbuf_addf(out, ".TP\n.BR mirage\\-%s (1)\n", c->name);
		roff_text(out, c->summary);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, ".SH EXIT STATUS\n");
	for (size_t i = 0; exit_statuses[i].meaning; i++) {
		strbuf_addf(out, ".TP\n.B %d\n", exit_statuses[i].code);
		roff_text(out, exit_statuses[i].meaning);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, ".PP\n");
	roff_text(out, exit_status_run);
	strbuf_addstr(out, ".\n.SH ENVIRONMENT\nWhat \\fBmirage run\\fR hands the workload (the "
	                   "HotSwap environment contract; the intercept reads them):\n");
	for (size_t i = 0; env_vars[i].name; i++) {
		strbuf_addf(out, ".TP\n.B %s\n", env_vars[i].name);
		roff_text(out, env_vars[i].meaning);
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(
	    out, ".PP\nWhat mirage itself reads: \\fBXDG_CONFIG_HOME\\fR, \\fBXDG_CACHE_HOME\\fR "
	         "and \\fBXDG_DATA_HOME\\fR (where its files are), \\fBHOTSWAP_HOME\\fR (a "
	         "HotSwap tree to use), \\fBNO_COLOR\\fR.\n"
	         ".SH FILES\n"
	         ".TP\n.I $XDG_CONFIG_HOME/mirage/profiles/NAME.ini\nthe profiles\n"
	         ".TP\n.I $XDG_CACHE_HOME/mirage/hotswap\nthe translation cache (a profile's "
	         "\\fBcache_dir\\fR moves it)\n"
	         ".TP\n.I $XDG_DATA_HOME/mirage/hotswap\ninstalled HotSwap trees\n"
	         ".PP\n\\fBmirage paths\\fR prints them all for this user.\n"
	         ".SH SEE ALSO\nThe design notes in the documentation directory "
	         "(emulate.md, hip.md, parallel.md, intercept.md, ...).\n");
}

static int man_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *dir = a->positional.v[0];
	struct strbuf page = STRBUF_INIT;
	char file[160];
	int rc = 0;

	(void)ctx;
	main_page(&page);
	rc |= write_page(dir, "mirage.1", &page);
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		if (c->parent || (c->flags & CMD_HIDDEN))
			continue;
		strbuf_reset(&page);
		snprintf(file, sizeof(file), "mirage-%s", c->name);
		page_head(&page, file, c->summary);
		strbuf_addstr(&page, ".SH DESCRIPTION\n");
		if (c->flags & CMD_GROUP) {
			strbuf_addstr(&page, ".PP\n");
			roff_text(&page, c->summary);
			strbuf_addstr(&page, ".\n.SH COMMANDS\n");
			for (size_t j = 0; command_table[j]; j++) {
				const struct cmd_entry *s = command_table[j];
				if (s->parent && !strcmp(s->parent, c->name) &&
				    !(s->flags & CMD_HIDDEN))
					command_section(&page, s, true);
			}
		} else {
			command_section(&page, c, false);
		}
		strbuf_addstr(&page, ".SH SEE ALSO\n.BR mirage (1)\n");
		snprintf(file, sizeof(file), "mirage-%s.1", c->name);
		rc |= write_page(dir, file, &page);
	}
	strbuf_release(&page);
	return rc ? EXIT_ERROR : EXIT_OK;
}

const struct cmd_entry cmd_man_entry = {
    .name = "__man",
    .summary = "write the man pages into DIR (used by the build)",
    .usage = "DIR",
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_FILE,
    .flags = CMD_HIDDEN,
    .exec = man_exec,
};
