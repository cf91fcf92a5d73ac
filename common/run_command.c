/* A program spawned or a function forked, its output captured, its time limited. */
#include "run_command.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* How often a time-limited wait with no pipe to watch looks at the child. */
#define RUN_POLL_MS 10
/* The captured output's first allocation, enough for any `--version`. */
#define RUN_OUTPUT_START 256

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Milliseconds left before deadline, for poll(): -1 when there is none. */
static int left_ms(int64_t deadline)
{
	int64_t left;

	if (deadline < 0)
		return -1;
	left = deadline - now_ms();
	return left <= 0 ? 0 : left > INT_MAX ? INT_MAX : (int)left;
}

static int fail(struct run_result *result, const char *call, int err)
{
	run_result_release(result);
	result->failed = call;
	errno = err;
	return -1;
}

/* The output buffer, allocated before anything starts so a failure leaves nothing running. */
static int start_capture(struct run_result *result)
{
	result->output = malloc(RUN_OUTPUT_START);
	if (!result->output)
		return -1;
	result->output[0] = '\0';
	return 0;
}

static int append(struct run_result *result, size_t *cap, const char *p, size_t n)
{
	if (result->output_len + n + 1 > *cap) {
		size_t want =
		    *cap * 2 > result->output_len + n + 1 ? *cap * 2 : result->output_len + n + 1;
		char *grown = realloc(result->output, want);
		if (!grown)
			return -1;
		result->output = grown;
		*cap = want;
	}
	memcpy(result->output + result->output_len, p, n);
	result->output_len += n;
	result->output[result->output_len] = '\0';
	return 0;
}

/*
 * Reads fd into the output until end of file or the deadline.  A read error ends the output as
 * end of file would.  0, or -1 with errno ENOMEM.
 */
static int collect(int fd, int64_t deadline, struct run_result *result)
{
	size_t cap = RUN_OUTPUT_START;
	char buf[4096];

	for (;;) {
		ssize_t got;

		if (deadline >= 0) {
			struct pollfd p = {.fd = fd, .events = POLLIN};
			int ready = poll(&p, 1, left_ms(deadline));
			if (ready < 0 && errno == EINTR)
				continue;
			if (ready <= 0)
				return 0; /* out of time: reap() kills it */
		}
		got = read(fd, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return 0;
		if (append(result, &cap, buf, (size_t)got) < 0)
			return -1;
	}
}

/* Waits for pid; one still running at the deadline is killed, and that is said. */
static int reap(pid_t pid, int64_t deadline, struct run_result *result)
{
	for (;;) {
		bool poll_it = deadline >= 0 && !result->timed_out;
		pid_t got = waitpid(pid, &result->status, poll_it ? WNOHANG : 0);
		int left;

		if (got == pid)
			return 0;
		if (got < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		left = left_ms(deadline);
		if (!left) {
			kill(pid, SIGKILL);
			result->timed_out = true;
			continue;
		}
		nanosleep(&(struct timespec){.tv_nsec = (left < RUN_POLL_MS ? left : RUN_POLL_MS) *
		                                        1000000L},
		          NULL);
	}
}

/* Collects from rfd (when it is one), then waits: the end both ways of starting share. */
static int finish(pid_t pid, int rfd, int64_t deadline, struct run_result *result)
{
	int collect_err = 0;

	if (rfd >= 0) {
		if (collect(rfd, deadline, result) < 0)
			collect_err = errno;
		close(rfd); /* a child still writing gets SIGPIPE rather than block */
	}
	if (reap(pid, deadline, result) < 0)
		return fail(result, "waitpid", errno);
	if (collect_err)
		return fail(result, "malloc", collect_err);
	return 0;
}

/* The file actions that give the program its stdin, stdout and stderr: 0 or an errno. */
static int plan_streams(posix_spawn_file_actions_t *fa, const struct run_spec *spec, int wfd)
{
	int rc = 0;

	if (spec->stdin_null)
		rc = posix_spawn_file_actions_addopen(fa, 0, "/dev/null", O_RDONLY, 0);
	if (!rc && spec->out == RUN_DISCARD)
		rc = posix_spawn_file_actions_addopen(fa, 1, "/dev/null", O_WRONLY, 0);
	else if (!rc && spec->out == RUN_TO_FILE)
		rc = posix_spawn_file_actions_addopen(fa, 1, spec->out_file,
		                                      O_WRONLY | O_CREAT | O_TRUNC, 0600);
	else if (!rc && spec->out == RUN_CAPTURE)
		rc = posix_spawn_file_actions_adddup2(fa, wfd, 1);
	if (!rc && spec->err == RUN_DISCARD)
		rc = posix_spawn_file_actions_addopen(fa, 2, "/dev/null", O_WRONLY, 0);
	else if (!rc && spec->err == RUN_AS_STDOUT)
		rc = posix_spawn_file_actions_adddup2(fa, 1, 2);
	return rc;
}

int run_command(const struct run_spec *spec, struct run_result *result)
{
	int64_t deadline = spec->timeout_ms ? now_ms() + spec->timeout_ms : -1;
	bool capture = spec->out == RUN_CAPTURE;
	int fds[2] = {-1, -1};
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int rc;

	*result = (struct run_result)RUN_RESULT_INIT;
	if (capture && start_capture(result) < 0)
		return fail(result, "malloc", errno);
	if (capture && pipe2(fds, O_CLOEXEC) < 0)
		return fail(result, "pipe", errno);
	rc = posix_spawn_file_actions_init(&fa);
	if (!rc) {
		rc = plan_streams(&fa, spec, fds[1]);
		if (!rc)
			rc = posix_spawn(&pid, spec->path, &fa, NULL, spec->argv,
			                 spec->envp ? spec->envp : environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	if (capture)
		close(fds[1]);
	if (rc) {
		if (capture)
			close(fds[0]);
		return fail(result, "posix_spawn", rc);
	}
	return finish(pid, fds[0], deadline, result);
}

int run_forked(void (*child)(int fd, const void *arg), const void *arg, struct run_result *result)
{
	int fds[2];
	pid_t pid;

	*result = (struct run_result)RUN_RESULT_INIT;
	if (start_capture(result) < 0)
		return fail(result, "malloc", errno);
	if (pipe2(fds, O_CLOEXEC) < 0)
		return fail(result, "pipe", errno);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		return fail(result, "fork", e);
	}
	if (!pid) {
		close(fds[0]);
		child(fds[1], arg);
		_exit(127);
	}
	close(fds[1]);
	return finish(pid, fds[0], -1, result);
}

void run_result_release(struct run_result *result)
{
	free(result->output);
	result->output = NULL;
	result->output_len = 0;
}
