/* The one command-line parser: flags, values, choices and arity are checked here, from the tables.
 */
#include "command.h"
#include "msg.h"
#include "output.h"

#include "strbuf.h"
#include "suggest.h"

#include <hotswap/version.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const color_choices[] = {"auto", "always", "never", NULL};

/* Options every command accepts (handled here, never by a command). */
static const struct opt_spec global_opts[GLOBAL_NOPTS + 1] = {
    [GLOBAL_JSON] = {.name = "json",
                     .type = OPT_BOOL,
                     .help = "print one JSON document instead of text"},
    [GLOBAL_VERBOSE] = {.name = "verbose",
                        .short_name = 'v',
                        .type = OPT_COUNT,
                        .help = "say more (repeat for more)"},
    [GLOBAL_HELP] = {.name = "help", .short_name = 'h', .type = OPT_BOOL, .help = "show this help"},
    [GLOBAL_COLOR] = {.name = "color",
                      .type = OPT_ENUM,
                      .choices = color_choices,
                      .arg_name = "WHEN",
                      .help = "colour the output (auto: on a terminal, unless NO_COLOR is "
                              "set or TERM=dumb)"},
};

/* Options only the top level takes, before the command word. */
enum top_opt {
	TOP_VERSION,
	TOP_NOPTS
};
static const struct opt_spec top_opts[TOP_NOPTS + 1] = {
    [TOP_VERSION] = {.name = "version", .type = OPT_BOOL, .help = "print the version"},
};

const struct opt_spec *global_options(void)
{
	return global_opts;
}

const struct opt_spec *top_options(void)
{
	return top_opts;
}

const char *command_full_name(const struct cmd_entry *cmd, char *buf, size_t size)
{
	if (cmd->parent)
		snprintf(buf, size, "%s %s", cmd->parent, cmd->name);
	else
		snprintf(buf, size, "%s", cmd->name);
	return buf;
}

int unknown_command(const char *parent, const char *word)
{
	struct suggestion s = SUGGESTION_INIT;
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		bool same_level = parent ? (c->parent && !strcmp(c->parent, parent)) : !c->parent;
		if (same_level && !(c->flags & CMD_HIDDEN))
			suggest_add(&s, word, c->name);
	}
	if (parent)
		usage_error("unknown subcommand '%.48s' for '%s'", word, parent);
	else
		usage_error("unknown command '%.48s'", word);
	if (suggest_best(&s))
		hint("did you mean '%s'?", suggest_best(&s));
	else if (parent)
		hint("'mirage %s --help' lists the subcommands", parent);
	else
		hint("'mirage --help' lists the commands");
	return EXIT_USAGE;
}

static size_t count_opts(const struct opt_spec *opts)
{
	size_t n = 0;
	while (opts && opts[n].name)
		n++;
	return n;
}

static const struct opt_spec *find_long(const struct opt_spec *opts, const char *name, size_t len,
                                        bool *negated)
{
	for (size_t i = 0; opts && opts[i].name; i++) {
		if (strlen(opts[i].name) == len && !strncmp(opts[i].name, name, len)) {
			*negated = false;
			return &opts[i];
		}
		if ((opts[i].flags & OPT_NEGATABLE) && len == strlen(opts[i].name) + 3 &&
		    !strncmp(name, "no-", 3) && !strncmp(name + 3, opts[i].name, len - 3)) {
			*negated = true;
			return &opts[i];
		}
	}
	return NULL;
}

static const struct opt_spec *find_short(const struct opt_spec *opts, char c)
{
	for (size_t i = 0; opts && opts[i].name; i++)
		if (opts[i].short_name == c)
			return &opts[i];
	return NULL;
}

static bool is_global(const struct opt_spec *o)
{
	for (size_t i = 0; global_opts[i].name; i++)
		if (o == &global_opts[i])
			return true;
	return false;
}

static bool takes_value(const struct opt_spec *o)
{
	return o->type != OPT_BOOL && o->type != OPT_COUNT;
}

const char *opt_placeholder(const struct opt_spec *o, const char *fallback)
{
	if (o->arg_name)
		return o->arg_name;
	switch (o->type) {
	case OPT_PATH:
		return "FILE";
	case OPT_DIR:
		return "DIR";
	case OPT_PROFILE:
		return "PROFILE";
	case OPT_GFX_SOURCE:
	case OPT_GFX_TARGET:
		return "GFX";
	default:
		return fallback;
	}
}

/* One parse: the top level (cmd NULL: the words before the command) or a command's words. */
struct parse_state {
	const struct cmd_entry *cmd;
	struct cmd_ctx *ctx;
	struct cmd_args *args; /* NULL at the top level */
	bool help, version;
};

/* The options a parse looks up before the global ones: the command's, or at the top level
 * --version. */
static const struct opt_spec *own_opts(const struct parse_state *ps)
{
	return ps->cmd ? ps->cmd->opts : top_opts;
}

static int unknown_option(const struct cmd_entry *cmd, const char *word)
{
	char name[128];
	struct suggestion s = SUGGESTION_INIT;
	const struct opt_spec *own = cmd ? cmd->opts : top_opts;
	const char *typed = word + strspn(word, "-");
	int wlen = (int)strcspn(word, "=");
	char *t = xstrndup(typed, strcspn(typed, "="));
	/* the "no-" spellings live as long as the suggestion that may point at one */
	char neg[32][96];
	size_t nneg = 0;
	for (size_t i = 0; own && own[i].name; i++) {
		suggest_add(&s, t, own[i].name);
		if ((own[i].flags & OPT_NEGATABLE) && nneg < sizeof(neg) / sizeof(neg[0])) {
			snprintf(neg[nneg], sizeof(neg[nneg]), "no-%s", own[i].name);
			suggest_add(&s, t, neg[nneg++]);
		}
	}
	for (size_t i = 0; global_opts[i].name; i++)
		suggest_add(&s, t, global_opts[i].name);
	if (cmd)
		usage_error("unknown option '%.*s' for '%s'", wlen, word,
		            command_full_name(cmd, name, sizeof(name)));
	else
		usage_error("unknown option '%.*s'", wlen < 48 ? wlen : 48, word);
	if (suggest_best(&s))
		hint("did you mean '--%s'?", suggest_best(&s));
	else if (cmd)
		hint("see 'mirage %s --help'", name);
	else
		hint("global options are --json, -v, --color, --help and --version; command "
		     "options go after "
		     "the command");
	free(t);
	return -1;
}

static int check_value(const struct opt_spec *o, const char *v)
{
	if (o->type == OPT_ENUM) {
		struct strbuf list = STRBUF_INIT;
		for (size_t i = 0; o->choices[i]; i++) {
			if (!strcmp(o->choices[i], v)) {
				strbuf_release(&list);
				return 0;
			}
			strbuf_addf(&list, "%s%s", i ? ", " : "", o->choices[i]);
		}
		usage_error("invalid value '%.48s' for '--%s': expected one of %s", v, o->name,
		            list.buf);
		strbuf_release(&list);
		return -1;
	}
	if (!*v && o->type != OPT_STRING)
		return usage_error("option '--%s' needs a non-empty value", o->name), -1;
	return 0;
}

static void record(struct cmd_args *a, size_t idx, const struct opt_spec *o, const char *value,
                   bool negated)
{
	struct opt_value *v = &a->vals[idx];
	v->given = true;
	v->negated = negated;
	if (value) {
		v->value = value;
		strvec_push(&v->values, value);
	} else if (o->flags & OPT_ARG_OPTIONAL) {
		v->value = NULL;
	}
}

/*
 * Takes option o of word argv[i], with value (what followed '=') or NULL.
 * Returns how many words it consumed (1 or 2), or -1 after a usage error.
 */
static int take(struct parse_state *ps, const struct opt_spec *o, bool negated, const char *value,
                int argc, const char **argv, int i)
{
	int consumed = 1;
	if (!takes_value(o) || negated) {
		if (value)
			return usage_error("option '--%s%s' takes no value", negated ? "no-" : "",
			                   o->name),
			       -1;
	} else if (!value) {
		bool next_ok = i + 1 < argc && strcmp(argv[i + 1], "--") != 0;
		if (o->flags & OPT_ARG_OPTIONAL) {
			/* Take a following bare word only once the required positionals are there.
			 */
			if (next_ok && argv[i + 1][0] != '-' && ps->args &&
			    (int)ps->args->positional.nr >= ps->cmd->min_args) {
				value = argv[i + 1];
				consumed = 2;
			}
		} else if (!next_ok) {
			return usage_error("option '--%s' needs a value (%s)", o->name,
			                   opt_placeholder(o, "VALUE")),
			       -1;
		} else {
			value = argv[i + 1];
			consumed = 2;
		}
	}
	if (value && check_value(o, value) < 0)
		return -1;

	if (!ps->cmd || is_global(o)) {
		if (o == &global_opts[GLOBAL_JSON]) {
			ps->ctx->json = !negated;
			/* Mistakes from here on are reported in the JSON document too. */
			msg_setup(ps->ctx->json, ps->ctx->color);
		} else if (o == &global_opts[GLOBAL_VERBOSE]) {
			ps->ctx->verbose++;
		} else if (o == &global_opts[GLOBAL_HELP]) {
			ps->help = true;
		} else if (o == &global_opts[GLOBAL_COLOR]) {
			ps->ctx->color = value;
			msg_setup(ps->ctx->json, ps->ctx->color);
		} else if (o == &top_opts[TOP_VERSION]) {
			ps->version = true;
		}
		return consumed;
	}
	/* Last one wins, like most tools; every value is kept only for OPT_REPEAT. */
	size_t idx = (size_t)(o - ps->cmd->opts);
	if (!(o->flags & OPT_REPEAT))
		strvec_clear(&ps->args->vals[idx].values);
	record(ps->args, idx, o, value, negated);
	return consumed;
}

/*
 * Handles one option word: --name[=VALUE], --no-name, or a bundle of short
 * options (-vv, -ln) of which only the last may take a value, from the next
 * word.  Returns how many words it consumed (1 or 2), or -1 after a usage error.
 */
static int parse_one(struct parse_state *ps, int argc, const char **argv, int i)
{
	const char *w = argv[i];
	const struct opt_spec *o;
	bool negated = false;

	if (w[1] == '-') {
		const char *name = w + 2;
		size_t len = strcspn(name, "=");
		o = find_long(own_opts(ps), name, len, &negated);
		if (!o)
			o = find_long(global_opts, name, len, &negated);
		if (!o)
			return unknown_option(ps->cmd, w);
		return take(ps, o, negated, name[len] == '=' ? name + len + 1 : NULL, argc, argv,
		            i);
	}
	for (const char *c = w + 1;; c++) {
		o = find_short(own_opts(ps), *c);
		if (!o)
			o = find_short(global_opts, *c);
		if (!o || (c[1] && takes_value(o)))
			return unknown_option(ps->cmd, w);
		int used = take(ps, o, false, NULL, argc, argv, i);
		if (used < 0 || !c[1])
			return used;
	}
}

int parse_global_args(int argc, const char **argv, struct cmd_ctx *ctx, int *next)
{
	struct parse_state ps = {.ctx = ctx};
	int i = 0;

	/* A lone "-" is a word, not an option (and no command). */
	while (i < argc && argv[i][0] == '-' && argv[i][1]) {
		int used = parse_one(&ps, argc, argv, i);
		if (used < 0)
			return -1;
		i += used;
		/* The first of --version and --help answers, whatever follows. */
		if (ps.version) {
			if (ctx->json) {
				cJSON *doc = cJSON_CreateObject();
				cJSON_AddStringToObject(doc, "name", "mirage");
				cJSON_AddStringToObject(doc, "version", HS_REWRITE_VERSION_STRING);
				output_json(doc);
			} else {
				printf("mirage %s\n", HS_REWRITE_VERSION_STRING);
			}
			return 1;
		}
		if (ps.help) {
			/* `mirage --help run` is `mirage help run`. */
			if (i < argc && argv[i][0] != '-')
				return help_for_words(argc - i, argv + i) == EXIT_OK ? 1 : -1;
			print_command_help(stdout, NULL);
			return 1;
		}
	}
	*next = i;
	return 0;
}

int parse_command_args(const struct cmd_entry *cmd, int argc, const char **argv,
                       struct cmd_ctx *ctx, struct cmd_args *out)
{
	char name[128];
	struct parse_state ps = {.cmd = cmd, .ctx = ctx, .args = out};
	bool options_done = false;
	size_t n = count_opts(cmd->opts);

	memset(out, 0, sizeof(*out));
	out->cmd = cmd;
	strvec_init(&out->positional);
	strvec_init(&out->passthrough);
	out->nopts = n;
	out->vals = xcalloc(n ? n : 1, sizeof(*out->vals));
	for (size_t i = 0; i < n; i++)
		strvec_init(&out->vals[i].values);
	command_full_name(cmd, name, sizeof(name));

	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		if (!options_done && !strcmp(w, "--")) {
			out->dashdash = true;
			if (cmd->flags & CMD_PASSTHROUGH) {
				for (int j = i + 1; j < argc; j++)
					strvec_push(&out->passthrough, argv[j]);
				break;
			}
			options_done = true;
			continue;
		}
		if (!options_done && w[0] == '-' && w[1]) {
			int used = parse_one(&ps, argc, argv, i);
			if (used < 0)
				return -1;
			i += used - 1;
			continue;
		}
		strvec_push(&out->positional, w);
	}

	if (ps.help) {
		print_command_help(stdout, cmd);
		return 1;
	}
	if (cmd->flags & CMD_GROUP)
		return 0;
	if (cmd->max_args >= 0 && (int)out->positional.nr > cmd->max_args) {
		const char *extra = out->positional.v[cmd->max_args];
		if (cmd->flags & CMD_PASSTHROUGH) {
			usage_error("unexpected argument '%s' before '--' for '%s'", extra, name);
			hint("put the command to run after '--': mirage %s [options] -- %s ...",
			     name, extra);
		} else {
			usage_error("too many arguments for '%s' (expected at most %d): '%s'", name,
			            cmd->max_args, extra);
			hint("usage: mirage %s %s", name, cmd->usage ? cmd->usage : "");
		}
		return -1;
	}
	if ((int)out->positional.nr < cmd->min_args) {
		usage_error("'%s' needs %s", name, cmd->usage ? cmd->usage : "more arguments");
		hint("usage: mirage %s %s", name, cmd->usage ? cmd->usage : "");
		return -1;
	}
	return 0;
}

void args_release(struct cmd_args *a)
{
	for (size_t i = 0; i < a->nopts; i++)
		strvec_clear(&a->vals[i].values);
	free(a->vals);
	strvec_clear(&a->positional);
	strvec_clear(&a->passthrough);
	memset(a, 0, sizeof(*a));
}

static const struct opt_value *lookup(const struct cmd_args *a, size_t opt)
{
	if (opt < a->nopts)
		return &a->vals[opt];
	fprintf(stderr, "mirage: BUG: command '%s' has no option #%zu\n", a->cmd->name, opt);
	abort();
}

bool args_has(const struct cmd_args *a, size_t opt)
{
	return lookup(a, opt)->given;
}

const char *args_str(const struct cmd_args *a, size_t opt)
{
	return lookup(a, opt)->value;
}

bool args_bool(const struct cmd_args *a, size_t opt)
{
	const struct opt_value *v = lookup(a, opt);
	const char *def = a->cmd->opts[opt].def;
	return v->given ? !v->negated : def && !strcmp(def, "true");
}

int args_tristate(const struct cmd_args *a, size_t opt)
{
	const struct opt_value *v = lookup(a, opt);
	return v->given ? !v->negated : -1;
}

const struct strvec *args_list(const struct cmd_args *a, size_t opt)
{
	return &lookup(a, opt)->values;
}

char *opt_help_line(const struct opt_spec *o)
{
	const char *def = o->def;
	if (!def || !*def)
		return xstrdup(o->help);
	if (o->type == OPT_BOOL)
		def = strcmp(def, "true") ? "off" : "on";
	return xstrfmt("%s (default %s)", o->help, def);
}

static void print_opts(FILE *out, const struct opt_spec *opts)
{
	for (size_t i = 0; opts && opts[i].name; i++) {
		const struct opt_spec *o = &opts[i];
		struct strbuf left = STRBUF_INIT;
		if (o->short_name)
			strbuf_addf(&left, "-%c, ", o->short_name);
		else
			strbuf_addstr(&left, "    ");
		strbuf_addf(&left, "--%s%s", (o->flags & OPT_NEGATABLE) ? "[no-]" : "", o->name);
		if (takes_value(o)) {
			if (o->flags & OPT_ARG_OPTIONAL)
				strbuf_addf(&left, " [%s]", opt_placeholder(o, "VALUE"));
			else
				strbuf_addf(&left, " %s", opt_placeholder(o, "VALUE"));
		}
		char *help = opt_help_line(o);
		fprintf(out, "  %-34s %s", left.buf, help);
		free(help);
		if (o->type == OPT_ENUM) {
			fprintf(out, " (");
			for (size_t j = 0; o->choices[j]; j++)
				fprintf(out, "%s%s", j ? "|" : "", o->choices[j]);
			fprintf(out, ")");
		}
		if (o->flags & OPT_REPEAT)
			fprintf(out, " (repeatable)");
		fprintf(out, "\n");
		strbuf_release(&left);
	}
}

/* Prints text as lines of at most ~90 columns, the ones after the first indented by indent (the
 * caller has printed the first line's indent). */
static void print_wrapped(FILE *out, int indent, const char *text)
{
	int col = indent;
	while (*text) {
		size_t word = strcspn(text, " ");
		if (col > indent && col + 1 + (int)word > 90) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)word, text);
		col += (int)word;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

void print_command_help(FILE *out, const struct cmd_entry *cmd)
{
	char name[128];
	if (!cmd) {
		fprintf(out, "usage: mirage [--json] [-v] [--color=WHEN] [--help] [--version] "
		             "<command> [<args>]\n\n");
		fprintf(out, "Run AMD GPU workloads on GPUs they were not built for "
		             "(HotSwap).\n\ncommands:\n");
		for (size_t i = 0; command_table[i]; i++) {
			const struct cmd_entry *c = command_table[i];
			if (c->parent || (c->flags & CMD_HIDDEN))
				continue;
			fprintf(out, "  %-14s %s\n", c->name, c->summary);
		}
		fprintf(out, "\nglobal options:\n");
		print_opts(out, global_opts);
		print_opts(out, top_opts);
		fprintf(out, "\nexit status:\n");
		for (size_t i = 0; exit_statuses[i].meaning; i++) {
			fprintf(out, "  %d  ", exit_statuses[i].code);
			print_wrapped(out, 5, exit_statuses[i].meaning);
		}
		fprintf(out, "  ");
		print_wrapped(out, 2, exit_status_run);
		fprintf(out, "\n'mirage <command> --help' describes a command.\n");
		return;
	}
	command_full_name(cmd, name, sizeof(name));
	if (cmd->flags & CMD_GROUP) {
		fprintf(out, "usage: mirage %s <subcommand> [<args>]\n\n%s\n\nsubcommands:\n", name,
		        cmd->summary);
		for (size_t i = 0; command_table[i]; i++) {
			const struct cmd_entry *c = command_table[i];
			if (c->parent && !strcmp(c->parent, cmd->name) && !(c->flags & CMD_HIDDEN))
				fprintf(out, "  %-14s %s\n", c->name, c->summary);
		}
		return;
	}
	fprintf(out, "usage: mirage %s%s%s%s\n\n%s\n", name,
	        cmd->opts && cmd->opts[0].name ? " [options]" : "",
	        cmd->usage && *cmd->usage ? " " : "", cmd->usage ? cmd->usage : "", cmd->summary);
	if (cmd->opts && cmd->opts[0].name) {
		fprintf(out, "\noptions:\n");
		print_opts(out, cmd->opts);
	}
	{
		size_t n;
		const struct cmd_example *e = cmd_examples(name, &n);
		if (n)
			fprintf(out, "\nexamples:\n");
		for (size_t i = 0; i < n; i++)
			fprintf(out, "  %s\n      %s\n", e[i].line, e[i].what);
	}
	fprintf(out, "\nglobal options: --json, -v/--verbose, --color, -h/--help\n");
}
