/* mirage's entry point: global flags, command lookup, dispatch. */
#include "command.h"
#include "msg.h"
#include "output.h"

#include "strbuf.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MIRAGE_VERSION
#define MIRAGE_VERSION "unknown"
#endif

/* Makes sure fds 0-2 are open, so a file we open never becomes stdout by accident. */
static void check_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) < 0) {
			int nul = open("/dev/null", O_RDWR);
			if (nul < 0)
				abort();
			if (nul != fd) {
				dup2(nul, fd);
				close(nul);
			}
		}
	}
}

static char *self_exe(void)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_grow(&sb, PATH_MAX);
	ssize_t n = readlink("/proc/self/exe", sb.buf, sb.alloc - 1);
	if (n < 0) {
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_setlen(&sb, (size_t)n);
	return strbuf_detach(&sb, NULL);
}

static int unknown_command(const char *parent, const char *word)
{
	const char *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; command_table[i]; i++) {
		const struct cmd_entry *c = command_table[i];
		bool same_level = parent ? (c->parent && !strcmp(c->parent, parent)) : !c->parent;
		if (!same_level || (c->flags & CMD_HIDDEN))
			continue;
		/* A shared prefix of 3+ or a one-letter slip reads as the same word. */
		size_t common = 0;
		while (c->name[common] && c->name[common] == word[common])
			common++;
		if (common >= 3 && common > best_len) {
			best = c->name;
			best_len = common;
		}
	}
	if (parent)
		usage_error("unknown subcommand '%.48s' for '%s'", word, parent);
	else
		usage_error("unknown command '%.48s'", word);
	if (best)
		hint("did you mean '%s'?", best);
	else
		hint("'mirage %s--help' lists the %scommands", parent ? parent : "",
		     parent ? " sub" : "");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = {0};
	struct cmd_args args;
	const struct cmd_entry *cmd = NULL;
	char *exe;
	int i = 1, ret;

	check_fds();
	exe = self_exe();
	ctx.self_exe = exe;

	/* Global flags before the command word. */
	for (; i < argc && argv[i][0] == '-'; i++) {
		const char *w = argv[i];
		if (!strcmp(w, "--json")) {
			ctx.json = true;
		} else if (!strcmp(w, "-v") || !strcmp(w, "--verbose")) {
			ctx.verbose++;
		} else if (!strcmp(w, "-vv")) {
			ctx.verbose += 2;
		} else if (!strcmp(w, "--version")) {
			printf("mirage %s\n", MIRAGE_VERSION);
			free(exe);
			return EXIT_OK;
		} else if (!strcmp(w, "-h") || !strcmp(w, "--help")) {
			print_command_help(stdout, NULL);
			free(exe);
			return EXIT_OK;
		} else {
			msg_setup(ctx.json);
			usage_error("unknown option '%.48s'", w);
			hint("global options are --json, -v, --help and --version; command options "
			     "go after the command");
			msg_finish();
			free(exe);
			return EXIT_USAGE;
		}
	}
	msg_setup(ctx.json);
	msg_set_verbose(ctx.verbose);
	if (i >= argc) {
		print_command_help(stderr, NULL);
		free(exe);
		return EXIT_USAGE;
	}
	cmd = command_find(NULL, argv[i]);
	if (!cmd) {
		ret = unknown_command(NULL, argv[i]);
		goto out;
	}
	i++;
	if (cmd->flags & CMD_GROUP) {
		if (i >= argc || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			/* Asked for: stdout and success; missing subcommand: stderr and a usage
			 * exit. */
			print_command_help(i >= argc ? stderr : stdout, cmd);
			ret = i >= argc ? EXIT_USAGE : EXIT_OK;
			goto out;
		}
		const struct cmd_entry *sub = command_find(cmd->name, argv[i]);
		if (!sub) {
			ret = unknown_command(cmd->name, argv[i]);
			goto out;
		}
		cmd = sub;
		i++;
	}
	ret = parse_command_args(cmd, argc - i, (const char **)argv + i, &ctx, &args);
	if (ret != 0) {
		ret = ret > 0 ? EXIT_OK : EXIT_USAGE;
		args_release(&args);
		goto out;
	}
	/* Again: --json and -v may also come after the command word. */
	msg_setup(ctx.json);
	msg_set_verbose(ctx.verbose);
	ret = exit_code(cmd->exec(&ctx, &args));
	args_release(&args);
out:
	msg_finish();
	free(exe);
	fflush(stdout);
	if (ferror(stdout) && ret == EXIT_OK) {
		fprintf(stderr, "mirage: cannot write to standard output\n");
		ret = EXIT_ERROR;
	}
	return ret;
}
