/*
 * Linking (amdgcn.h): LLVM has no C API for lld, so the relocatable objects (one per chunk of
 * kernels, amdgcn_translate.c) are linked by `ld.lld -shared` run with posix_spawn (no shell,
 * common/run_command.h) in a private mkdtemp directory that is removed afterwards, whatever
 * happens.
 */
#include "amdgcn.h"

#include "hotswap_contract.h"
#include "object_path.h"
#include "path_search.h"
#include "read_whole.h"
#include "run_command.h"
#include "tree_tools.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define LINK_MAX_OUTPUT (UINT64_C(1) << 31)
/* The inputs' names in the private directory: in.o, then in.1.o, in.2.o, ... */
#define LINK_MAX_INPUTS 64
#define LLD_VERSIONED   "ld.lld-22"
#define LLD_SYSTEM      "/usr/lib/llvm-22/bin/ld.lld"

static int executable(const char *path)
{
	return tree_tool_state(path) == TREE_TOOL_OK;
}

/* 0 for an executable regular file; the PATH walk's test (path_search.h). */
static int usable(const char *path)
{
	if (executable(path))
		return 0;
	errno = ENOENT;
	return -1;
}

/* An empty PATH entry is skipped: the workload's current directory holds no linker of ours. */
static int on_path(const char *name, char *out, size_t size)
{
	struct path_search search = {.path = getenv("PATH"), .name = name, .usable = usable};
	return !path_search(&search, out, NULL, size);
}

int amdgcn_find_linker(const char *lib_dir, char *out, size_t size, char *msg, size_t msize)
{
	const char *env = getenv("MIRAGE_LLD");
	if (env && *env) {
		if (executable(env)) {
			snprintf(out, size, "%s", env);
			return 0;
		}
		snprintf(msg, msize, "MIRAGE_LLD=%s is not an executable file", env);
		return -1;
	}
	if ((lib_dir && !tree_tool_beside(lib_dir, HOTSWAP_PART_LD_LLD, out, size)) ||
	    on_path(LLD_VERSIONED, out, size))
		return 0;
	if (executable(LLD_SYSTEM)) {
		snprintf(out, size, "%s", LLD_SYSTEM);
		return 0;
	}
	snprintf(msg, msize,
	         "no linker: neither MIRAGE_LLD, the HotSwap tree's " HOTSWAP_TREE_TOOLS_DIR
	         "/" HOTSWAP_TOOL_LD_LLD ", " LLD_VERSIONED " on PATH nor " LLD_SYSTEM);
	return -1;
}

/* The directory this library was loaded from, which the HotSwap tree is staged beside. */
static const char *own_dir(char *dir, size_t size)
{
	const char *self = object_path((const void *)own_dir);
	const char *slash = self ? strrchr(self, '/') : NULL;

	if (!slash)
		return NULL;
	snprintf(dir, size, "%.*s", (int)(slash - self), self);
	return dir;
}

static int write_file(const char *path, const unsigned char *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -1;
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			close(fd);
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return close(fd);
}

/* The first line of the linker's output, for the message. */
static void first_line(const char *path, char *out, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	ssize_t n = fd < 0 ? -1 : read(fd, out, size - 1);
	char *nl;
	if (fd >= 0)
		close(fd);
	out[n > 0 ? n : 0] = '\0';
	nl = strchr(out, '\n');
	if (nl)
		*nl = '\0';
}

/*
 * The linker's environment: ours without what would load code into it.  Inside a workload
 * (the intercept translating at load time) LD_PRELOAD and HSA_TOOLS_LIB name the intercept,
 * which has no business in ld.lld (and a sanitized build of it cannot even load there).
 */
static char **linker_environ(void)
{
	static const char *const drop[] = {"LD_PRELOAD=", "LD_AUDIT=", "HSA_TOOLS_LIB="};
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 1, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d = 0;
		while (d < sizeof(drop) / sizeof(drop[0]) &&
		       strncmp(environ[i], drop[d], strlen(drop[d])))
			d++;
		if (d == sizeof(drop) / sizeof(drop[0]))
			env[k++] = environ[i];
	}
	return env;
}

/* The private directory's files: the inputs in.o, in.1.o, ... (in.o alone for one object, as
 * a one-chunk link always ran), the output and the linker's log. */
struct link_files {
	char dir[PATH_MAX];
	char out[PATH_MAX + 8], log[PATH_MAX + 8];
	char (*in)[PATH_MAX + 16]; /* up to 64 paths: not on the stack */
	size_t n;
};

/* The linker's argv over f, argv[0] lld; its count. */
static int link_argv(const char *lld, struct link_files *f, char **argv, bool in_process)
{
	int k = 0;

	argv[k++] = (char *)lld;
	argv[k++] = "-shared";
	argv[k++] = "--no-undefined";
	/* In the workload's process: no thread pool of lld's (the output is the same). */
	if (in_process)
		argv[k++] = "--threads=1";
	argv[k++] = "-o";
	argv[k++] = f->out;
	for (size_t i = 0; i < f->n; i++)
		argv[k++] = f->in[i];
	argv[k] = NULL;
	return k;
}

#ifdef MIRAGE_HAVE_LLD
#define LINK_IN_PROCESS 1
#else
#define LINK_IN_PROCESS 0
#endif

/* Links in this process: 0 linked, 1 lld refused (msg), -1 not here (spawn instead). */
static int link_in_process(struct link_files *f, char *msg, size_t size)
{
#ifdef MIRAGE_HAVE_LLD
	char *argv[8 + LINK_MAX_INPUTS];
	int argc = link_argv("ld.lld", f, argv, true);

	return amdgcn_lld_link((const char *const *)argv, argc, msg, size);
#else
	(void)f, (void)msg, (void)size;
	return -1;
#endif
}

static int run_linker(const char *lld, struct link_files *f, char *msg, size_t size)
{
	char line[256], *argv[8 + LINK_MAX_INPUTS];
	struct run_spec spec = {.path = lld,
	                        .argv = argv,
	                        .stdin_null = true,
	                        .out = RUN_TO_FILE,
	                        .out_file = f->log,
	                        .err = RUN_AS_STDOUT};
	struct run_result run;
	char **env = linker_environ();
	int rc;

	if (!env) {
		snprintf(msg, size, "cannot run %s: %s", lld, strerror(ENOMEM));
		return -1;
	}
	link_argv(lld, f, argv, false);
	spec.envp = env;
	rc = run_command(&spec, &run);
	free(env);
	if (rc < 0) {
		if (!strcmp(run.failed, "waitpid"))
			snprintf(msg, size, "waiting for %s: %s", lld, strerror(errno));
		else
			snprintf(msg, size, "cannot run %s: %s", lld, strerror(errno));
		return -1;
	}
	if (WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0)
		return 0;
	first_line(f->log, line, sizeof(line));
	if (WIFEXITED(run.status))
		snprintf(msg, size, "%s exited with %d: %s", lld, WEXITSTATUS(run.status), line);
	else
		snprintf(msg, size, "%s was killed by signal %d", lld, WTERMSIG(run.status));
	return -1;
}

int amdgcn_link(const struct amdgcn_object *objs, size_t n, unsigned char **image,
                size_t *image_size, char *msg, size_t size)
{
	const char *tmp = getenv("TMPDIR"), *chosen = getenv("MIRAGE_LLD");
	char lld[PATH_MAX] = "", lib_dir[PATH_MAX];
	/* $MIRAGE_LLD names a linker to spawn; otherwise lld links in this process if the build
	 * has it (and a linker is spawned where it cannot). */
	bool spawn = (chosen && *chosen) || !LINK_IN_PROCESS;
	struct link_files f = {.n = n};
	size_t written = 0;
	int rc = -1, fd, st;

	*image = NULL;
	*image_size = 0;
	if (!n || n > LINK_MAX_INPUTS) {
		snprintf(msg, size, "cannot link %zu objects (1 to %d)", n, LINK_MAX_INPUTS);
		return -1;
	}
	if (spawn &&
	    amdgcn_find_linker(own_dir(lib_dir, sizeof(lib_dir)), lld, sizeof(lld), msg, size))
		return -1;
	f.in = calloc(n, sizeof(*f.in));
	if (!f.in) {
		snprintf(msg, size, "cannot link: %s", strerror(ENOMEM));
		return -1;
	}
	snprintf(f.dir, sizeof(f.dir), "%s/mirage-link-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
	if (!mkdtemp(f.dir)) {
		snprintf(msg, size, "cannot make a temporary directory in %s: %s",
		         tmp && *tmp == '/' ? tmp : "/tmp", strerror(errno));
		free(f.in);
		return -1;
	}
	snprintf(f.out, sizeof(f.out), "%s/out.so", f.dir);
	snprintf(f.log, sizeof(f.log), "%s/ld.log", f.dir);
	for (size_t i = 0; i < n; i++)
		if (i)
			snprintf(f.in[i], sizeof(f.in[i]), "%s/in.%zu.o", f.dir, i);
		else
			snprintf(f.in[i], sizeof(f.in[i]), "%s/in.o", f.dir);
	for (; written < n; written++) {
		if (write_file(f.in[written], objs[written].bytes, objs[written].size)) {
			snprintf(msg, size, "cannot write %s: %s", f.in[written], strerror(errno));
			written++; /* a partly written file is removed too */
			goto done;
		}
	}
	st = spawn ? -1 : link_in_process(&f, msg, size);
	if (st > 0)
		goto done;
	if (st < 0 && ((!*lld && amdgcn_find_linker(own_dir(lib_dir, sizeof(lib_dir)), lld,
	                                            sizeof(lld), msg, size)) ||
	               run_linker(lld, &f, msg, size)))
		goto done;
	fd = open(f.out, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd >= 0) {
		*image = read_whole_fd_max(fd, LINK_MAX_OUTPUT, image_size);
		close(fd);
	}
	if (!*image)
		snprintf(msg, size, "cannot read the linked object %s: %s", f.out, strerror(errno));
	else
		rc = 0;
done:
	for (size_t i = 0; i < written; i++)
		unlink(f.in[i]);
	unlink(f.out);
	unlink(f.log);
	rmdir(f.dir);
	free(f.in);
	return rc;
}
