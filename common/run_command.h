/*
 * Running a program, or a function in a forked child, and waiting for it: the one place that
 * spawns processes (the doctor's `TOOL --version` and self-tests, the translator's linker).
 * A program gets argv and an environment, stdin from /dev/null or ours, stdout and stderr
 * kept, sent to /dev/null, to a file or captured through a pipe, and an optional time limit.
 * libc only, never prints, never aborts (the translator runs the linker inside other programs):
 * functions return 0, or -1 with errno set and result->failed naming the call that failed.
 * Either way they fill the whole result, which run_result_release() frees.
 */
#ifndef MIRAGE_RUN_COMMAND_H
#define MIRAGE_RUN_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

/* Where the program's stdout or stderr goes. */
enum run_output {
	RUN_KEEP = 0,  /* ours */
	RUN_DISCARD,   /* /dev/null */
	RUN_TO_FILE,   /* stdout only: spec->out_file, created 0600 or truncated */
	RUN_CAPTURE,   /* stdout only: collected into result->output */
	RUN_AS_STDOUT, /* stderr only: wherever stdout goes */
};

struct run_spec {
	const char *path;  /* the program's file, run as it is (path_search.h looks names up) */
	char *const *argv; /* NULL-terminated; argv[0] is what the program sees as its name */
	char *const *envp; /* NULL: this process's environment */
	bool stdin_null;   /* stdin from /dev/null, not ours */
	enum run_output out, err;
	const char *out_file; /* RUN_TO_FILE */
	/* 0: wait as long as it takes; else a program still running after this many
	 * milliseconds is killed with SIGKILL and result->timed_out set. */
	unsigned timeout_ms;
};

struct run_result {
	int status;     /* the wait status: WIFEXITED(), WEXITSTATUS(), WTERMSIG() */
	bool timed_out; /* killed for running past spec->timeout_ms */
	/* RUN_CAPTURE (and run_forked): what was written, NUL-terminated; release with
	 * run_result_release(). */
	char *output;
	size_t output_len;
	/* After -1: "pipe", "posix_spawn", "fork", "malloc" or "waitpid". */
	const char *failed;
};

#define RUN_RESULT_INIT                                                                            \
	{                                                                                          \
		0                                                                                  \
	}

/*
 * Starts spec->path with posix_spawn (no shell: nothing in argv is interpreted), feeds its
 * output where spec says and waits for it.  0 when it ran, whatever its status; -1 when it
 * could not be started or waited for ("posix_spawn" also covers a file action that failed,
 * such as an out_file that cannot be created, and an exec the kernel refused).
 */
int run_command(const struct run_spec *spec, struct run_result *result);

/*
 * Runs child(fd, arg) in a forked process, so a crash in it cannot take the caller down, and
 * captures what it writes to fd into result->output.  The child should _exit(); if child
 * returns, the process exits with 127.  Our stdout is flushed first, so buffered output is
 * not written twice.  0 when it ran, with its wait status; -1 as for run_command ("pipe",
 * "fork", "malloc", "waitpid").
 */
int run_forked(void (*child)(int fd, const void *arg), const void *arg, struct run_result *result);

/* Frees the captured output; fine on RUN_RESULT_INIT. */
void run_result_release(struct run_result *result);

#endif
