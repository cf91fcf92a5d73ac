/* The one way mirage starts processes (run_command.h): argv and environment, each place the
 * output can go, exit statuses and signals, the time limit, forked functions, and each call
 * that can fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "run_command.h"

/* `sh -c script`; the compound literals live as long as the caller's block. */
#define sh(script)                                                                                 \
	((struct run_spec){.path = "/bin/sh", .argv = (char *const[]){"sh", "-c", script, NULL}})

static void test_captures_stdout(void **state)
{
	(void)state;
	struct run_spec spec = sh("echo hello; echo noise >&2");
	struct run_result r = RUN_RESULT_INIT;

	spec.out = RUN_CAPTURE;
	spec.err = RUN_DISCARD;
	assert_int_equal(run_command(&spec, &r), 0);
	assert_true(WIFEXITED(r.status));
	assert_int_equal(WEXITSTATUS(r.status), 0);
	assert_false(r.timed_out);
	assert_string_equal(r.output, "hello\n");
	assert_int_equal(r.output_len, 6);
	run_result_release(&r);
	assert_null(r.output);
	run_result_release(&r); /* twice is fine */

	/* Nothing written: an empty string, not NULL. */
	spec = sh("true");
	spec.out = RUN_CAPTURE;
	assert_int_equal(run_command(&spec, &r), 0);
	assert_string_equal(r.output, "");
	run_result_release(&r);
}

static void test_large_output(void **state)
{
	(void)state;
	struct run_spec spec = sh("head -c 100000 /dev/zero; printf end");
	struct run_result r = RUN_RESULT_INIT;

	spec.out = RUN_CAPTURE;
	assert_int_equal(run_command(&spec, &r), 0);
	assert_int_equal(r.output_len, 100003);
	assert_int_equal(r.output[0], 0);
	assert_string_equal(r.output + 100000, "end");
	run_result_release(&r);
}

static void test_statuses(void **state)
{
	(void)state;
	struct run_spec spec = sh("exit 3");
	struct run_result r = RUN_RESULT_INIT;

	assert_int_equal(run_command(&spec, &r), 0);
	assert_true(WIFEXITED(r.status));
	assert_int_equal(WEXITSTATUS(r.status), 3);
	assert_null(r.output); /* nothing captured */

	spec = sh("kill -TERM $$");
	assert_int_equal(run_command(&spec, &r), 0);
	assert_true(WIFSIGNALED(r.status));
	assert_int_equal(WTERMSIG(r.status), SIGTERM);
	assert_false(r.timed_out);
}

static void test_environment(void **state)
{
	(void)state;
	char *env[] = {"RUN_TEST_A=given", NULL};
	struct run_spec spec = sh("echo \"${RUN_TEST_A}/${RUN_TEST_B-unset}\"");
	struct run_result r = RUN_RESULT_INIT;

	setenv("RUN_TEST_B", "ours", 1);
	spec.out = RUN_CAPTURE;
	spec.envp = env;
	assert_int_equal(run_command(&spec, &r), 0);
	assert_string_equal(r.output, "given/unset\n");
	run_result_release(&r);

	/* NULL: this process's environment. */
	spec.envp = NULL;
	assert_int_equal(run_command(&spec, &r), 0);
	assert_string_equal(r.output, "/ours\n");
	run_result_release(&r);
	unsetenv("RUN_TEST_B");
}

static void test_argv_is_not_a_shell_line(void **state)
{
	(void)state;
	char *argv[] = {"printf", "[%s]", "a b; echo no", "$HOME", NULL};
	struct run_spec spec = {.path = "/usr/bin/printf", .argv = argv, .out = RUN_CAPTURE};
	struct run_result r = RUN_RESULT_INIT;

	assert_int_equal(run_command(&spec, &r), 0);
	assert_string_equal(r.output, "[a b; echo no][$HOME]");
	run_result_release(&r);
}

static void test_stdin_null(void **state)
{
	(void)state;
	struct run_spec spec = sh("wc -c");
	struct run_result r = RUN_RESULT_INIT;

	spec.stdin_null = true;
	spec.out = RUN_CAPTURE;
	assert_int_equal(run_command(&spec, &r), 0);
	assert_int_equal(atoi(r.output), 0);
	run_result_release(&r);
}

static void test_to_file(void **state)
{
	(void)state;
	char path[] = "/tmp/mirage-run-test-XXXXXX", text[64] = "";
	int fd = mkstemp(path);
	struct run_spec spec = sh("echo out; echo err >&2");
	struct run_result r = RUN_RESULT_INIT;
	FILE *f;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "old contents, longer than the new\n", 34), 34);
	close(fd);
	spec.out = RUN_TO_FILE;
	spec.out_file = path;
	spec.err = RUN_AS_STDOUT;
	assert_int_equal(run_command(&spec, &r), 0);
	f = fopen(path, "r");
	assert_non_null(f);
	text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
	fclose(f);
	unlink(path);
	assert_string_equal(text, "out\nerr\n"); /* truncated, both streams */
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) + (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void test_timeout(void **state)
{
	(void)state;
	struct run_spec spec = sh("echo started; exec sleep 30");
	struct run_result r = RUN_RESULT_INIT;
	struct timespec t0;

	/* Captured: what it said before it was killed is kept. */
	spec.out = RUN_CAPTURE;
	spec.timeout_ms = 200;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_command(&spec, &r), 0);
	assert_true(seconds_since(&t0) < 10);
	assert_true(r.timed_out);
	assert_true(WIFSIGNALED(r.status));
	assert_int_equal(WTERMSIG(r.status), SIGKILL);
	assert_string_equal(r.output, "started\n");
	run_result_release(&r);

	/* Not captured: the wait itself is limited. */
	spec = sh("exec sleep 30");
	spec.timeout_ms = 200;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(run_command(&spec, &r), 0);
	assert_true(seconds_since(&t0) < 10);
	assert_true(r.timed_out);
	assert_int_equal(WTERMSIG(r.status), SIGKILL);

	/* A quick one is not touched. */
	spec = sh("echo quick");
	spec.out = RUN_CAPTURE;
	spec.timeout_ms = 20000;
	assert_int_equal(run_command(&spec, &r), 0);
	assert_false(r.timed_out);
	assert_true(WIFEXITED(r.status));
	assert_string_equal(r.output, "quick\n");
	run_result_release(&r);
}

static void test_cannot_start(void **state)
{
	(void)state;
	char *argv[] = {"prog", NULL};
	struct run_spec spec = {.path = "/nonexistent/prog", .argv = argv, .out = RUN_CAPTURE};
	struct run_result r = RUN_RESULT_INIT;

	assert_int_equal(run_command(&spec, &r), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(r.failed, "posix_spawn");
	assert_null(r.output);

	/* A file action that fails is the spawn's failure. */
	spec = sh("true");
	spec.out = RUN_TO_FILE;
	spec.out_file = "/nonexistent/dir/log";
	assert_int_equal(run_command(&spec, &r), -1);
	assert_int_equal(errno, ENOENT);
	assert_string_equal(r.failed, "posix_spawn");
}

/* With no descriptor left, the pipe is what fails. */
static void test_no_pipe(void **state)
{
	(void)state;
	struct run_spec spec = sh("echo x");
	struct run_result r = RUN_RESULT_INIT;
	struct rlimit saved, none;
	int rc, e;

	spec.out = RUN_CAPTURE;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	none = saved;
	none.rlim_cur = 0;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &none), 0);
	rc = run_command(&spec, &r);
	e = errno;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_int_equal(rc, -1);
	assert_int_equal(e, EMFILE);
	assert_string_equal(r.failed, "pipe");
	assert_null(r.output);
}

/* A process that ignores SIGCHLD has no children to wait for: the wait is what fails. */
static void test_cannot_wait(void **state)
{
	(void)state;
	struct run_spec spec = sh("true");
	struct run_result r = RUN_RESULT_INIT;
	int rc, e;

	signal(SIGCHLD, SIG_IGN);
	rc = run_command(&spec, &r);
	e = errno;
	signal(SIGCHLD, SIG_DFL);
	assert_int_equal(rc, -1);
	assert_int_equal(e, ECHILD);
	assert_string_equal(r.failed, "waitpid");
}

/*
 * With our stdin and stdout closed the pipe gets descriptors 0 and 1: its write end is already
 * the child's stdout, and must not be closed on exec as the pipe's other descriptors are
 * (posix_spawn_file_actions_adddup2 of a descriptor onto itself clears the flag).
 */
static void test_stdio_closed(void **state)
{
	(void)state;
	struct run_spec spec = sh("echo still captured");
	struct run_result r = RUN_RESULT_INIT;
	int in, out, rc;

	fflush(stdout);
	in = dup(0);
	out = dup(1);
	assert_true(in >= 0 && out >= 0);
	close(0);
	close(1);
	spec.out = RUN_CAPTURE;
	rc = run_command(&spec, &r);
	dup2(in, 0);
	dup2(out, 1);
	close(in);
	close(out);
	assert_int_equal(rc, 0);
	assert_string_equal(r.output, "still captured\n");
	run_result_release(&r);
}

static void child_writes(int fd, const void *arg)
{
	static const char bytes[] = {'\1', '\0', 'o', 'k'};
	(void)arg;
	_exit(write(fd, bytes, sizeof(bytes)) == sizeof(bytes) ? 0 : 1);
}

static void child_returns(int fd, const void *arg)
{
	(void)fd;
	(void)arg;
}

static void child_crashes(int fd, const void *arg)
{
	(void)fd;
	raise(*(const int *)arg);
}

static void test_forked(void **state)
{
	(void)state;
	struct run_result r = RUN_RESULT_INIT;
	int sig = SIGABRT;

	assert_int_equal(run_forked(child_writes, NULL, &r), 0);
	assert_true(WIFEXITED(r.status));
	assert_int_equal(WEXITSTATUS(r.status), 0);
	assert_int_equal(r.output_len, 4);
	assert_memory_equal(r.output, "\1\0ok", 4);
	run_result_release(&r);

	assert_int_equal(run_forked(child_returns, NULL, &r), 0);
	assert_int_equal(WEXITSTATUS(r.status), 127);
	assert_string_equal(r.output, "");
	run_result_release(&r);

	assert_int_equal(run_forked(child_crashes, &sig, &r), 0);
	assert_true(WIFSIGNALED(r.status));
	assert_int_equal(WTERMSIG(r.status), SIGABRT);
	run_result_release(&r);

	/* The same failures as a program's. */
	signal(SIGCHLD, SIG_IGN);
	assert_int_equal(run_forked(child_returns, NULL, &r), -1);
	signal(SIGCHLD, SIG_DFL);
	assert_string_equal(r.failed, "waitpid");
	assert_null(r.output);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_captures_stdout),
	    cmocka_unit_test(test_large_output),
	    cmocka_unit_test(test_statuses),
	    cmocka_unit_test(test_environment),
	    cmocka_unit_test(test_argv_is_not_a_shell_line),
	    cmocka_unit_test(test_stdin_null),
	    cmocka_unit_test(test_to_file),
	    cmocka_unit_test(test_timeout),
	    cmocka_unit_test(test_cannot_start),
	    cmocka_unit_test(test_no_pipe),
	    cmocka_unit_test(test_cannot_wait),
	    cmocka_unit_test(test_stdio_closed),
	    cmocka_unit_test(test_forked),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
