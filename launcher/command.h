/*
 * Commands as const data (after tmux's cmd_entry and git's parse-options).
 * Every command is one `const struct cmd_entry` in a cmd_<family>.c file and
 * is listed once in commands.c.  The shared parser (parse_options.c) checks
 * flags, arity, types and choices before any exec function runs; help,
 * usage, completions and the option-table unit test are generated from the
 * same data.
 */
#ifndef MIRAGE_COMMAND_H
#define MIRAGE_COMMAND_H

#include "strvec.h"

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

/* Exit codes, fixed and tested; exit_statuses[] says what each means, for --help and the docs. */
enum {
	EXIT_OK = 0,
	EXIT_ERROR = 1,   /* mirage failed: what the command line names cannot be used */
	EXIT_USAGE = 2,   /* the command line is wrong in itself: a flag, a value, a pair, a "no" */
	EXIT_PARTIAL = 3, /* done, but not whole: a translation wrote refused kernels as traps */
};

struct exit_status {
	int code;
	const char *meaning;
};
/* The one statement of the rule, ended by a NULL meaning (integration/exit_codes walks it). */
extern const struct exit_status exit_statuses[];
/* What `mirage run` exits with instead: the workload's own status. */
extern const char exit_status_run[];

enum opt_type {
	OPT_BOOL,       /* --x; with OPT_NEGATABLE also --no-x */
	OPT_STRING,     /* --x VALUE or --x=VALUE */
	OPT_PATH,       /* a file or directory path; completes files */
	OPT_DIR,        /* a directory; completes directories */
	OPT_PROFILE,    /* a profile name; completes from the store */
	OPT_ENUM,       /* one of .choices */
	OPT_GFX_SOURCE, /* what code was built for: a gfx name or ISA; completes processors */
	OPT_GFX_TARGET, /* what HotSwap runs it on: a gfx name or ISA; completes its targets */
	OPT_COUNT,      /* -v, -vv: counts repetitions */
};

#define OPT_NEGATABLE    (1u << 0) /* accepts --no-<name> */
#define OPT_REPEAT       (1u << 1) /* may be given many times; values are collected in order */
#define OPT_ARG_OPTIONAL (1u << 2) /* --x[=VALUE]; a following bare word is taken too */
#define OPT_AUTO         (1u << 3) /* the value may also be "auto" (completion offers it) */

/* The values completion offers for a free-form option (mirage __complete lists them). */
enum opt_values {
	OV_NONE,
	OV_PROFILE_KEYS, /* "target=", "env.", ...: profile edit --set/--unset */
	OV_SCHEDULES,    /* "deterministic", "shuffle:": emulate --schedule */
};

struct opt_spec {
	const char *name; /* long name, without "--" */
	char short_name;  /* single letter, or 0 */
	enum opt_type type;
	const char *arg_name;       /* placeholder in help: "DIR", "K=V" */
	const char *const *choices; /* OPT_ENUM: NULL-terminated allowed values */
	unsigned flags;             /* OPT_* flags above */
	enum opt_values values;     /* what completion offers for an OPT_STRING's value */
	const char *help;           /* one line, lowercase, no full stop, no default in it */
	/*
	 * The value when the option is absent, or NULL: help shows it as "(default X)" (a
	 * bool's "true"/"false" as on/off) and args_bool() returns it.
	 */
	const char *def;
};

/*
 * Options are addressed by their index in the command's table: each cmd_<family>.c names
 * the rows of a table with an enum and writes the table with designated initializers
 * (`[RUN_PROFILE] = {...}`), so a misspelt option is a compile error, not a lookup that
 * fails at run time.
 */

/* What a positional argument is, for completion. */
enum arg_kind {
	ARG_NONE,
	ARG_WORD, /* free text */
	ARG_FILE,
	ARG_PROFILE,
	ARG_TREE,    /* an installed HotSwap tree's name */
	ARG_SHELL,   /* bash|zsh|fish */
	ARG_COMMAND, /* the workload after `--` */
	ARG_URL_OR_FILE,
};

#define CMD_PASSTHROUGH (1u << 0) /* everything after `--` is the workload's argv */
#define CMD_HIDDEN      (1u << 1) /* not listed in help or completions (__complete) */
#define CMD_GROUP       (1u << 2) /* has subcommands; running it alone prints its help */

struct cmd_args;
struct cmd_ctx;

struct cmd_entry {
	const char *name;            /* "create" */
	const char *parent;          /* "profile", or NULL for a top-level command */
	const char *summary;         /* one line for the command list */
	const char *usage;           /* positional part of the usage line: "NAME" */
	const struct opt_spec *opts; /* terminated by an entry with name == NULL; may be NULL */
	int min_args;                /* positionals (not counting the passthrough argv) */
	int max_args;                /* -1: unlimited */
	enum arg_kind arg_kind;      /* what the positionals are */
	unsigned flags;              /* CMD_* */
	int (*exec)(const struct cmd_ctx *ctx, struct cmd_args *args);
};

/* Global state every command sees. */
struct cmd_ctx {
	bool json;            /* --json: print one JSON document on stdout */
	const char *color;    /* --color=WHEN: "auto" (or NULL), "always", "never" */
	int verbose;          /* -v count */
	const char *self_exe; /* absolute path of the running mirage (from /proc/self/exe) */
};

/* The parsed command line of one command.  Valid until args_release(). */
struct cmd_args {
	const struct cmd_entry *cmd;
	struct strvec positional;  /* positionals in order */
	struct strvec passthrough; /* after `--` (CMD_PASSTHROUGH only) */
	bool dashdash;             /* `--` was given */
	size_t nopts;
	struct opt_value {
		bool given;           /* the option appeared */
		bool negated;         /* --no-<name> was the last form given */
		const char *value;    /* last value (points into argv) */
		struct strvec values; /* every value, for OPT_REPEAT */
	} * vals;                     /* one per cmd->opts entry */
};

/* Options every command accepts: --json, -v, --help, --color (parse_options.c), by index. */
enum global_opt {
	GLOBAL_JSON,
	GLOBAL_VERBOSE,
	GLOBAL_HELP,
	GLOBAL_COLOR,
	GLOBAL_NOPTS
};
const struct opt_spec *global_options(void);
/* Options only the top level takes, before the command word: --version. */
const struct opt_spec *top_options(void);
/* The placeholder of o's value in help ("DIR", "K=V"): its arg_name, its type's, else fallback. */
const char *opt_placeholder(const struct opt_spec *o, const char *fallback);
/* o's help line with its default ("... (default on)"), for --help and completions; caller frees. */
char *opt_help_line(const struct opt_spec *o);

/* NULL-terminated table of every command (commands.c). */
extern const struct cmd_entry *const command_table[];

/* Finds a command by full path ("profile", "create"); parent may be NULL. */
const struct cmd_entry *command_find(const char *parent, const char *name);

/* Accessors by option index (the command's enum); an index past its table aborts. */
bool args_has(const struct cmd_args *a, size_t opt);
/* The last value given, or NULL when the option is absent. */
const char *args_str(const struct cmd_args *a, size_t opt);
/* BOOL option: its .def ("true": on) when absent; false after --no-<name>. */
bool args_bool(const struct cmd_args *a, size_t opt);
/* Tri-state: -1 absent, 0 --no-<name>, 1 --<name>. */
int args_tristate(const struct cmd_args *a, size_t opt);
const struct strvec *args_list(const struct cmd_args *a, size_t opt);
void args_release(struct cmd_args *a);

/*
 * Parses the options before the command word (the global ones and --version).
 * On a usage error prints the message and hint and returns -1; returns 1 if
 * --help or --version was answered (on stdout); else 0, with *next the index
 * of the command word (argc when there is none).
 */
int parse_global_args(int argc, const char **argv, struct cmd_ctx *ctx, int *next);

/*
 * Parses argv (the words after the command name) for cmd.  On a usage error
 * prints the message and hint and returns -1; returns 1 if --help was handled
 * (help printed to stdout); 0 on success.
 */
int parse_command_args(const struct cmd_entry *cmd, int argc, const char **argv,
                       struct cmd_ctx *ctx, struct cmd_args *out);

/*
 * Prints the help of a command (or the top-level help if cmd is NULL) to out:
 * stdout when asked for with --help, stderr when it answers a usage mistake.
 */
void print_command_help(FILE *out, const struct cmd_entry *cmd);

/* `mirage help WORDS...`: the help of the command the words name; an exit code (cmd_help.c). */
int help_for_words(int argc, const char *const *argv);

/* An example of a command, for --help and the man pages (examples.c). */
struct cmd_example {
	const char *command; /* the full name: "profile create" */
	const char *line;    /* what to type */
	const char *what;    /* what it does, one line */
};
/* The examples of the command called full_name (*n of them, adjacent), or NULL. */
const struct cmd_example *cmd_examples(const char *full_name, size_t *n);
/* Every example, terminated by one with command NULL. */
const struct cmd_example *cmd_examples_all(void);
/*
 * Reports an unknown command (parent NULL) or subcommand of parent, with the
 * same did-you-mean as options get; returns EXIT_USAGE.
 */
int unknown_command(const char *parent, const char *word);
/* Full name of a command: "profile create". */
const char *command_full_name(const struct cmd_entry *cmd, char *buf, size_t size);

#endif
