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

int main(int argc, char **argv)
{
	struct cmd_ctx ctx = {0};
	struct cmd_args args;
	const struct cmd_entry *cmd = NULL;
	char *exe;
	int i, ret;

	check_fds();
	exe = self_exe();
	ctx.self_exe = exe;

	/* Plain messages until a --json says otherwise. */
	msg_setup(false, NULL);
	/* Global options before the command word (parse_command_args takes them after it). */
	ret = parse_global_args(argc - 1, (const char **)argv + 1, &ctx, &i);
	if (ret != 0) {
		ret = ret > 0 ? EXIT_OK : EXIT_USAGE;
		goto out;
	}
	i++; /* past argv[0] */
	msg_setup(ctx.json, ctx.color);
	msg_set_verbose(ctx.verbose);
	if (i >= argc) {
		print_command_help(stderr, NULL);
		ret = EXIT_USAGE;
		goto out;
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
	msg_setup(ctx.json, ctx.color);
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
