/* `mirage run --profile P -- CMD`: build the HotSwap environment and become the workload. */
#include "command.h"
#include "env_contract.h"
#include "msg.h"
#include "output.h"
#include "path_search.h"

#include "hotswap_tree.h"
#include "kfd.h"
#include "profile_store.h"
#include "target.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

enum run_opt {
	RUN_PROFILE,
	RUN_ENV,
	RUN_CLEAR_ENV,
	RUN_WORKDIR,
	RUN_DRY_RUN,
	RUN_FULL_ENV,
	RUN_NOPTS
};
static const struct opt_spec run_opts[RUN_NOPTS + 1] = {
    [RUN_PROFILE] = {.name = "profile",
                     .short_name = 'p',
                     .type = OPT_PROFILE,
                     .help = "profile to run under (required)"},
    [RUN_ENV] = {.name = "env",
                 .short_name = 'e',
                 .type = OPT_STRING,
                 .arg_name = "K=V",
                 .flags = OPT_REPEAT,
                 .help = "set a variable for the workload, after the contract"},
    [RUN_CLEAR_ENV] = {.name = "clear-env",
                       .type = OPT_BOOL,
                       .help = "start from an empty environment (keeps PATH HOME USER LANG LC_ALL "
                               "TERM TMPDIR SHELL)"},
    [RUN_WORKDIR] = {.name = "workdir",
                     .short_name = 'C',
                     .type = OPT_DIR,
                     .help = "run the workload in DIR"},
    [RUN_DRY_RUN] =
        {.name = "dry-run",
         .short_name = 'n',
         .type = OPT_BOOL,
         .help = "print the environment changes and a sh line that reproduces the run, then exit"},
    [RUN_FULL_ENV] =
        {.name = "full-env",
         .type = OPT_BOOL,
         .help = "with --dry-run: reproduce the whole environment (env -i ...), not only mirage's "
                 "changes"},
};

static int check_cli_env(const struct strvec *cli)
{
	for (size_t i = 0; i < cli->nr; i++) {
		const char *kv = cli->v[i];
		size_t nl = strcspn(kv, "=");
		char *name = xstrndup(kv, nl);
		bool ok = kv[nl] == '=' && env_name_valid(name);
		free(name);
		if (!ok) {
			usage_error("--env '%.48s': expected NAME=VALUE with a valid variable name",
			            kv);
			hint("e.g. --env HIP_VISIBLE_DEVICES=0");
			return -1;
		}
	}
	return 0;
}

/* 0 if path can be run, else -1 with errno (EISDIR for a directory, which execve calls EACCES). */
static int runnable(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return -1;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	return access(path, X_OK);
}

/* An error, or under --dry-run a warning that the run would stop here (the preview goes on). */
static bool previewing;
MSG_PRINTF(1, 2) static void cannot(const char *fmt, ...)
{
	struct strbuf text = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	if (previewing)
		warning("%s; the run would stop here", text.buf);
	else
		error("%s", text.buf);
	strbuf_release(&text);
}

/*
 * Finds the program the way execvp would from the current directory, which is already the
 * workload's: a name with a '/' is taken as it is, relative to that directory; any other name
 * is looked up in each entry of the workload's PATH in order (path_search.h), an empty entry
 * meaning the current directory, and glibc's "/bin:/usr/bin" when PATH is unset.  A candidate
 * that exists but cannot be run is skipped, and reported when nothing later is found.  Returns
 * a malloc'ed path that has a '/', or NULL with *code set to 127 (not found) or 126 (not
 * executable) and the message printed.
 */
static char *find_program(const char *prog, const struct strvec *env, int *code)
{
	if (strchr(prog, '/')) {
		if (!runnable(prog))
			return xstrdup(prog);
		if (errno == EISDIR) {
			cannot("cannot run '%s': it is a directory", prog);
			*code = 126;
		} else if (errno == EACCES) {
			cannot("cannot run '%s': %s", prog, strerror(errno));
			hint("make it executable (chmod +x) or run it through its interpreter");
			*code = 126;
		} else {
			cannot("cannot run '%s': %s", prog, strerror(errno));
			*code = 127;
		}
		return NULL;
	}
	const char *path_var = env_lookup(env, "PATH");
	struct path_search search = {.path = path_var ? path_var : "/bin:/usr/bin",
	                             .name = prog,
	                             .empty_is_cwd = true,
	                             .usable = runnable};
	char found[PATH_MAX], denied[PATH_MAX];

	if (!path_search(&search, found, denied, sizeof(found)))
		return xstrdup(found);
	if (errno == EACCES) {
		cannot("cannot run '%s': '%s' is not executable", prog, denied);
		*code = 126;
	} else {
		cannot("cannot run '%s': command not found", prog);
		hint("check the name, or give a path; the workload's PATH is %s",
		     path_var ? path_var : "(unset)");
		*code = 127;
	}
	return NULL;
}

/* The program to start; under --dry-run one that cannot run is previewed by its name. */
static char *resolve_program(const char *prog, const struct strvec *env, int *code)
{
	char *path = find_program(prog, env, code);
	return path || !previewing ? path : xstrdup(prog);
}

/* Appends s with every control character written as an escape, so it stays on one line. */
static void add_one_line(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n')
			strbuf_addstr(sb, "\\n");
		else if (c == '\t')
			strbuf_addstr(sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			strbuf_addf(sb, "\\x%02x", c);
		else
			strbuf_addch(sb, (char)c);
	}
}

static void add_word(struct strbuf *sb, const char *word)
{
	strbuf_addch(sb, ' ');
	strbuf_add_shell_quoted(sb, word);
}

/*
 * The sh line that reproduces the run:
 *   exec env [-i] [-C DIR] [-u NAME]... -- [NAME=VALUE]... PROG [ARGS]...
 * Every word is quoted for sh, newlines included, and env's options end at
 * "--".  Only mirage's changes are listed, for a sh started from mirage's
 * environment, unless full (also --clear-env) asks for env -i and every
 * variable.  sh sets PWD itself, so a delta line pins the run's PWD.  env
 * takes any later word with a '=' for an assignment, "--" or not, so a
 * program path with one runs through sh's exec, which puts PWD back first.
 */
static void add_command_line(struct strbuf *line, const struct env_plan *plan, bool full,
                             const char *dir, const char *prog, const struct strvec *argv)
{
	const char *pwd = env_lookup(&plan->env, "PWD");
	struct strvec unset = STRVEC_INIT, set = STRVEC_INIT;

	if (full) {
		strvec_pushv(&set, (const char *const *)plan->env.v);
	} else {
		for (size_t i = 0; i < plan->nchanges; i++) {
			const struct env_change *c = &plan->changes[i];
			if (c->kind == ENV_REMOVED)
				strvec_push(&unset, c->name);
			else
				strvec_pushf(&set, "%s=%s", c->name, c->value);
		}
		if (!pwd && strvec_find(&unset, "PWD") < 0)
			strvec_push(&unset, "PWD");
		else if (pwd && strvec_find_key(&set, "PWD") < 0)
			strvec_pushf(&set, "PWD=%s", pwd);
	}
	strbuf_addstr(line, "exec env");
	if (full)
		strbuf_addstr(line, " -i");
	if (dir) {
		strbuf_addstr(line, " -C");
		add_word(line, dir);
	}
	for (size_t i = 0; i < unset.nr; i++) {
		strbuf_addstr(line, " -u");
		add_word(line, unset.v[i]);
	}
	strbuf_addstr(line, " --");
	for (size_t i = 0; i < set.nr; i++)
		add_word(line, set.v[i]);
	if (strchr(prog, '=')) {
		strbuf_addstr(line, " /bin/sh -c");
		add_word(line, pwd ? "PWD=$1; shift; exec \"$@\"" : "unset PWD; exec \"$@\"");
		strbuf_addstr(line, " sh");
		if (pwd)
			add_word(line, pwd);
	}
	add_word(line, prog);
	for (size_t i = 1; i < argv->nr; i++)
		add_word(line, argv->v[i]);
	strvec_clear(&unset);
	strvec_clear(&set);
}

static void print_dry_run(const struct cmd_ctx *ctx, const struct env_plan *plan, bool full,
                          const struct strvec *argv, const char *workdir, const char *resolved)
{
	struct strbuf line = STRBUF_INIT;
	/* The run already entered --workdir: name both places absolutely, as they are now. */
	char *cwd = getcwd(NULL, 0);
	char *dir = workdir ? xstrdup(cwd ? cwd : workdir) : NULL;
	char *prog =
	    resolved[0] == '/' || !cwd ? xstrdup(resolved) : xstrfmt("%s/%s", cwd, resolved);
	add_command_line(&line, plan, full, dir, prog, argv);
	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject(),
		      *changes = cJSON_AddArrayToObject(doc, "changes");
		cJSON *env = cJSON_AddObjectToObject(doc, "env");
		cJSON *av = cJSON_AddArrayToObject(doc, "argv");
		for (size_t i = 0; i < plan->nchanges; i++) {
			const struct env_change *c = &plan->changes[i];
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "name", c->name);
			cJSON_AddStringToObject(o, "change",
			                        c->kind == ENV_ADDED     ? "added"
			                        : c->kind == ENV_CHANGED ? "changed"
			                                                 : "removed");
			if (c->value)
				cJSON_AddStringToObject(o, "value", c->value);
			cJSON_AddStringToObject(o, "origin", c->origin);
			cJSON_AddItemToArray(changes, o);
		}
		for (size_t i = 0; i < plan->env.nr; i++) {
			size_t nl = strcspn(plan->env.v[i], "=");
			char *name = xstrndup(plan->env.v[i], nl);
			cJSON_AddStringToObject(env, name, plan->env.v[i] + nl + 1);
			free(name);
		}
		cJSON_AddItemToArray(av, cJSON_CreateString(prog));
		for (size_t i = 1; i < argv->nr; i++)
			cJSON_AddItemToArray(av, cJSON_CreateString(argv->v[i]));
		if (dir)
			cJSON_AddStringToObject(doc, "workdir", dir);
		cJSON_AddStringToObject(doc, "command", line.buf);
		output_json(doc);
	} else {
		/* Comment lines first, each kept on its line, so the output is a runnable script.
		 */
		printf("# mirage run: environment changes (%zu)\n", plan->nchanges);
		for (size_t i = 0; i < plan->nchanges; i++) {
			const struct env_change *c = &plan->changes[i];
			struct strbuf v = STRBUF_INIT, comment = STRBUF_INIT;
			if (c->value)
				strbuf_add_shell_quoted(&v, c->value);
			strbuf_addf(&comment, "%c %s%s%s  [%s]",
			            c->kind == ENV_REMOVED ? '-'
			            : c->kind == ENV_ADDED ? '+'
			                                   : '~',
			            c->name, c->value ? "=" : "", v.buf, c->origin);
			strbuf_reset(&v);
			add_one_line(&v, comment.buf);
			printf("#   %s\n", v.buf);
			strbuf_release(&v);
			strbuf_release(&comment);
		}
		printf("%s\n", line.buf);
	}
	strbuf_release(&line);
	free(prog);
	free(dir);
	free(cwd);
}

/* After --workdir: the workload's PWD names the directory it runs in, as a shell's cd would
 * leave it, not the one mirage was started in. */
static void set_pwd(struct strvec *env)
{
	char *cwd = getcwd(NULL, 0);
	char *kv;
	long i;

	if (!cwd)
		return;
	kv = xstrfmt("PWD=%s", cwd);
	i = strvec_find_key(env, "PWD");
	if (i >= 0)
		strvec_replace(env, (size_t)i, kv);
	else
		strvec_push(env, kv);
	free(kv);
	free(cwd);
}

/* --workdir must be a directory the workload can enter. */
static int check_workdir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0)
		return error_errno("--workdir '%s'", dir);
	if (!S_ISDIR(st.st_mode))
		return error("--workdir '%s' is not a directory", dir);
	if (access(dir, X_OK) < 0)
		return error_errno("--workdir '%s'", dir);
	return 0;
}

/* Resolves the target for a hotswap profile; prints the refusal itself. */
static int resolve_target(const struct contract_input *in, struct target_choice *choice)
{
	struct kfd_gpus gpus = KFD_GPUS_INIT;
	struct strbuf why = STRBUF_INIT, fix = STRBUF_INIT;
	const char *cli_override = env_lookup(in->cli_env, HOTSWAP_ENV_ISA_OVERRIDE);
	struct target_request req = {
	    .profile_target = profile_get(in->profile, PK_TARGET),
	    .isa_override = getenv(HOTSWAP_ENV_ISA_OVERRIDE),
	    .source_target = contract_input(in, HOTSWAP_ENV_SOURCE_TARGET),
	};
	int ret;
	/* --env is this run's explicit instruction, so its override beats the profile's target. */
	if (cli_override && *cli_override) {
		req.profile_target = "auto";
		req.isa_override = cli_override;
	}
	/* Only target auto without an override looks at the GPUs: scan them only then. */
	bool need_gpus =
	    (!req.profile_target || !*req.profile_target || !strcmp(req.profile_target, "auto")) &&
	    !(req.isa_override && *req.isa_override);
	if (need_gpus)
		kfd_scan(NULL, &gpus);
	ret = target_resolve(&req, need_gpus ? &gpus : NULL, choice, &why, &fix);
	if (ret < 0) {
		cannot("profile '%s' cannot run here: %s", in->profile->name, why.buf);
		if (fix.len)
			hint("%s", fix.buf);
		if (previewing) {
			/* The preview shows the contract with an empty target: nothing to retarget
			 * onto. */
			memset(choice, 0, sizeof(*choice));
			ret = 0;
		}
	} else {
		note("target %s (from %s)", choice->gfx, choice->origin_text);
	}
	kfd_gpus_release(&gpus);
	strbuf_release(&why);
	strbuf_release(&fix);
	return ret;
}

static int run_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct profile p;
	struct diag err = DIAG_INIT;
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
	struct env_plan plan = ENV_PLAN_INIT;
	struct target_choice choice = {0};
	const char *workdir = args_str(a, RUN_WORKDIR);
	const struct strvec *cli_env = args_list(a, RUN_ENV);
	char *prog = NULL;
	int ret = EXIT_ERROR, code = 0;

	profile_init(&p, "");
	if (!args_has(a, RUN_PROFILE)) {
		ret = usage_error("'run' needs --profile NAME");
		hint("'mirage profile list' shows the profiles");
		goto out;
	}
	if (!a->passthrough.nr) {
		ret = usage_error("'run' needs a command after '--'");
		hint("usage: mirage run --profile %s -- CMD [ARGS...]", args_str(a, RUN_PROFILE));
		goto out;
	}
	previewing = args_bool(a, RUN_DRY_RUN);
	if (args_bool(a, RUN_FULL_ENV) && !args_bool(a, RUN_DRY_RUN)) {
		ret = usage_error("'--full-env' only goes with '--dry-run'");
		hint("mirage run --profile %s --dry-run --full-env -- %s", args_str(a, RUN_PROFILE),
		     a->passthrough.v[0]);
		goto out;
	}
	if (check_cli_env(cli_env) < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (workdir && check_workdir(workdir) < 0)
		goto out;
	profile_release(&p);
	if ((code = profile_load_typed(args_str(a, RUN_PROFILE), &p, &err))) {
		ret = report_diag(&err, code == PROFILE_BAD_NAME ? EXIT_USAGE : EXIT_ERROR);
		goto out;
	}

	struct contract_input in = {
	    .profile = &p,
	    .tree = &tree,
	    .cli_env = cli_env,
	    .environ = (const char *const *)environ,
	    .clear_env = args_bool(a, RUN_CLEAR_ENV),
	};
	if (profile_check_route(&p, &err) < 0) {
		/* A pair without a route would load the code unemulated and fail at the ISA check.
		 */
		ret = report_diag(&err, EXIT_ERROR);
		goto out;
	}
	if (profile_is_hotswap(&p)) {
		/* Never unemulated: the same predicate as doctor and profile create decides. */
		if (hotswap_discover(&(struct discover_opts){.self_exe = ctx->self_exe}, &tree) <
		    0) {
			struct strbuf msg = STRBUF_INIT, fix = STRBUF_INIT;
			hotswap_format_problem(&tree, &msg, &fix);
			error("cannot run profile '%s' under HotSwap:\n%s", p.name, msg.buf);
			hint("%s", fix.buf);
			strbuf_release(&msg);
			strbuf_release(&fix);
			goto out;
		}
		if (contract_check_paths(&tree, &err) < 0) {
			char *why = strbuf_detach(&err.msg, NULL);
			diag_set(&err, "cannot run profile '%s' under HotSwap: %s", p.name, why);
			free(why);
			ret = report_diag(&err, EXIT_ERROR);
			goto out;
		}
		if (resolve_target(&in, &choice) < 0)
			goto out;
		in.target_gfx = choice.gfx;
	}
	if (env_plan_build(&in, &plan, &err) < 0) {
		ret = report_diag(&err, EXIT_ERROR);
		goto out;
	}
	/* The program is looked for from the workload's directory, as execvp there would. */
	if (workdir && chdir(workdir) < 0) {
		error_errno("cannot enter --workdir '%s'", workdir);
		goto out;
	}
	if (workdir)
		set_pwd(&plan.env);
	prog = resolve_program(a->passthrough.v[0], &plan.env, &code);
	if (!prog) {
		ret = code;
		goto out;
	}
	if (args_bool(a, RUN_DRY_RUN)) {
		print_dry_run(ctx, &plan, args_bool(a, RUN_FULL_ENV) || in.clear_env,
		              &a->passthrough, workdir, prog);
		ret = EXIT_OK;
		goto out;
	}
	/* The workload replaces mirage: its signals, terminal and exit status are its own. */
	msg_finish();
	fflush(NULL);
	{
		struct strvec argv = STRVEC_INIT;
		strvec_pushv(&argv, a->passthrough.v);
		execve(prog, (char *const *)argv.v, (char *const *)plan.env.v);
		if (errno == ENOEXEC) {
			/* A script without a #! line: run it with sh, as execvp and shells do. */
			strvec_insert(&argv, 0, "/bin/sh");
			strvec_replace(&argv, 1, prog);
			execve("/bin/sh", (char *const *)argv.v, (char *const *)plan.env.v);
		}
		ret = errno == ENOENT ? 127 : 126;
		error_errno("cannot run '%s'", a->passthrough.v[0]);
		strvec_clear(&argv);
	}
out:
	free(prog);
	env_plan_release(&plan);
	hotswap_tree_release(&tree);
	profile_release(&p);
	diag_release(&err);
	return ret;
}

const struct cmd_entry cmd_run_entry = {
    .name = "run",
    .summary = "run a workload under a profile (the workload replaces mirage)",
    .usage = "--profile NAME -- CMD [ARGS...]",
    .opts = run_opts,
    .min_args = 0,
    .max_args = 0,
    .arg_kind = ARG_COMMAND,
    .flags = CMD_PASSTHROUGH,
    .exec = run_exec,
};
