/* The translator's linker run (amdgcn_link.c) against stand-in linkers named by MIRAGE_LLD: the
 * object it hands over and takes back, the environment and input the linker gets, each failure's
 * message, and the private directory gone afterwards; and the order the linker is looked for in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <dirent.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "amdgcn.h"

static char dir[] = "/tmp/mirage-link-test-XXXXXX";
static char tmp[sizeof(dir) + 8];

/* A stand-in linker: a shell script of body, with mode. */
static void script(char *path, size_t size, const char *name, const char *body, mode_t mode)
{
	FILE *f;

	snprintf(path, size, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%s", body);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, mode), 0);
}

static int link_with(const char *lld, const char *obj, unsigned char **image, size_t *size,
                     char *msg, size_t msize)
{
	struct amdgcn_object o = {(unsigned char *)obj, strlen(obj)};

	setenv("MIRAGE_LLD", lld, 1);
	return amdgcn_link(&o, 1, image, size, msg, msize);
}

/* Every run leaves TMPDIR as it found it: the private directory and its files are gone. */
static void assert_tmp_empty(void)
{
	DIR *d = opendir(tmp);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	assert_int_equal(n, 0);
}

static void expect_failure(const char *lld, const char *want)
{
	unsigned char *image = (unsigned char *)"x";
	size_t size = 1;
	char msg[512];

	assert_int_equal(link_with(lld, "obj", &image, &size, msg, sizeof(msg)), -1);
	if (strcmp(msg, want))
		fail_msg("message\n  got:  %s\n  want: %s", msg, want);
	assert_null(image);
	assert_int_equal(size, 0);
	assert_tmp_empty();
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s/tmp", dir);
	if (mkdir(tmp, 0700))
		return -1;
	setenv("TMPDIR", tmp, 1);
	return 0;
}

/* The stand-ins and the directories go. */
static int teardown(void **state)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[512];

	(void)state;
	while (d && (de = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (de->d_name[0] != '.')
			unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(tmp);
	return rmdir(dir);
}

static void test_links(void **state)
{
	(void)state;
	char lld[256], msg[256];
	unsigned char *image = NULL;
	size_t size = 0;

	/* ld.lld -shared --no-undefined -o OUT IN: the stand-in copies IN to OUT. */
	script(lld, sizeof(lld), "ld.lld",
	       "#!/bin/sh\n"
	       "[ \"$1 $2 $3\" = \"-shared --no-undefined -o\" ] || exit 9\n"
	       "exec cp \"$5\" \"$4\"\n",
	       0755);
	assert_int_equal(link_with(lld, "an object", &image, &size, msg, sizeof(msg)), 0);
	assert_int_equal(size, 9);
	assert_memory_equal(image, "an object", 9);
	free(image);
	assert_tmp_empty();
}

/* A split translation's chunks: every object, in chunk order, after -o OUT; 0 and 65 refused. */
static void test_links_chunks(void **state)
{
	(void)state;
	char lld[256], msg[256];
	struct amdgcn_object objs[65];
	unsigned char *image = NULL;
	size_t size = 0;

	/* The stand-in checks the names and concatenates the inputs. */
	script(lld, sizeof(lld), "cat-lld",
	       "#!/bin/sh\n"
	       "[ \"$1 $2 $3\" = \"-shared --no-undefined -o\" ] || exit 9\n"
	       "out=$4; shift 4\n"
	       "[ \"${1##*/} ${2##*/} ${3##*/} $#\" = \"in.o in.1.o in.2.o 3\" ] || exit 8\n"
	       "exec cat \"$@\" >\"$out\"\n",
	       0755);
	setenv("MIRAGE_LLD", lld, 1);
	objs[0] = (struct amdgcn_object){(unsigned char *)"one,", 4};
	objs[1] = (struct amdgcn_object){(unsigned char *)"two,", 4};
	objs[2] = (struct amdgcn_object){(unsigned char *)"three", 5};
	assert_int_equal(amdgcn_link(objs, 3, &image, &size, msg, sizeof(msg)), 0);
	assert_int_equal(size, 13);
	assert_memory_equal(image, "one,two,three", 13);
	free(image);
	assert_tmp_empty();
	for (size_t i = 0; i < 65; i++)
		objs[i] = objs[0];
	assert_int_equal(amdgcn_link(objs, 0, &image, &size, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "cannot link 0 objects (1 to 64)");
	assert_int_equal(amdgcn_link(objs, 65, &image, &size, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "cannot link 65 objects (1 to 64)");
	assert_null(image);
	assert_tmp_empty();
}

static void test_environment_and_input(void **state)
{
	(void)state;
	char lld[256], msg[256];
	unsigned char *image = NULL;
	size_t size = 0;

	/* Empty values, so the dynamic loader has nothing to complain about if one got through. */
	setenv("LD_PRELOAD", "", 1);
	setenv("LD_AUDIT", "", 1);
	setenv("HSA_TOOLS_LIB", "", 1);
	setenv("MIRAGE_LINK_TEST_KEPT", "yes", 1);
	script(lld, sizeof(lld), "env-lld",
	       "#!/bin/sh\n"
	       "[ \"${LD_PRELOAD+set}${LD_AUDIT+set}${HSA_TOOLS_LIB+set}\" = \"\" ] || exit 5\n"
	       "[ \"$MIRAGE_LINK_TEST_KEPT\" = yes ] || exit 6\n"
	       "[ -z \"$(cat)\" ] || exit 7\n"
	       "exec cp \"$5\" \"$4\"\n",
	       0755);
	assert_int_equal(link_with(lld, "obj", &image, &size, msg, sizeof(msg)), 0);
	free(image);
	unsetenv("LD_PRELOAD");
	unsetenv("LD_AUDIT");
	unsetenv("HSA_TOOLS_LIB");
	unsetenv("MIRAGE_LINK_TEST_KEPT");
}

static void test_linker_fails(void **state)
{
	(void)state;
	char lld[256], want[512];

	/* The first line of what it said, on stdout or stderr. */
	script(lld, sizeof(lld), "fails",
	       "#!/bin/sh\necho 'ld.lld: error: undefined symbol: f' >&2\necho more\nexit 3\n",
	       0755);
	snprintf(want, sizeof(want), "%s exited with 3: ld.lld: error: undefined symbol: f", lld);
	expect_failure(lld, want);

	script(lld, sizeof(lld), "silent", "#!/bin/sh\nexit 1\n", 0755);
	snprintf(want, sizeof(want), "%s exited with 1: ", lld);
	expect_failure(lld, want);

	script(lld, sizeof(lld), "killed", "#!/bin/sh\nkill -9 $$\n", 0755);
	snprintf(want, sizeof(want), "%s was killed by signal 9", lld);
	expect_failure(lld, want);

	/* Exits 0 but leaves no output. */
	script(lld, sizeof(lld), "no-output", "#!/bin/sh\nexit 0\n", 0755);
	snprintf(want, sizeof(want),
	         "cannot read the linked object %s/mirage-link-XXXXXX/out.so: No such file or "
	         "directory",
	         tmp);
	{
		unsigned char *image = NULL;
		size_t size = 0;
		char msg[512];
		const char *dirpart;

		assert_int_equal(link_with(lld, "obj", &image, &size, msg, sizeof(msg)), -1);
		/* The directory's random part differs; the rest is the message. */
		dirpart = strstr(msg, tmp);
		assert_non_null(dirpart);
		dirpart = strstr(dirpart + strlen(tmp), "mirage-link-");
		assert_non_null(dirpart);
		memcpy((char *)dirpart + strlen("mirage-link-"), "XXXXXX", 6);
		assert_string_equal(msg, want);
		assert_tmp_empty();
	}
}

static void test_cannot_run(void **state)
{
	(void)state;
	char lld[256], want[512];

	/* The kernel refuses it: an interpreter that is not there. */
	script(lld, sizeof(lld), "bad-interpreter", "#!/nonexistent/interpreter\n", 0755);
	snprintf(want, sizeof(want), "cannot run %s: No such file or directory", lld);
	expect_failure(lld, want);
}

static void test_not_a_linker(void **state)
{
	(void)state;
	char lld[256], want[512];

	script(lld, sizeof(lld), "not-executable", "#!/bin/sh\nexit 0\n", 0644);
	snprintf(want, sizeof(want), "MIRAGE_LLD=%s is not an executable file", lld);
	expect_failure(lld, want);

	snprintf(want, sizeof(want), "MIRAGE_LLD=%s is not an executable file", dir);
	expect_failure(dir, want);

	expect_failure("/nonexistent/ld.lld",
	               "MIRAGE_LLD=/nonexistent/ld.lld is not an executable file");
}

/* Looks for the linker with lib_dir as the library's directory: what was found, or the message. */
static const char *find(const char *lib_dir)
{
	static char out[PATH_MAX];
	char msg[512];

	if (amdgcn_find_linker(lib_dir, out, sizeof(out), msg, sizeof(msg)))
		snprintf(out, sizeof(out), "%s", msg);
	return out;
}

/*
 * docs/translate.md's order: $MIRAGE_LLD, the tree beside the library (installed, then a
 * build tree), ld.lld-22 on PATH (an empty entry skipped), LLVM 22's own.
 */
static void test_search_order(void **state)
{
	(void)state;
	static const char *const dirs[] = {"order",
	                                   "order/prefix",
	                                   "order/prefix/lib",
	                                   "order/prefix/lib/mirage",
	                                   "order/prefix/lib/mirage/hotswap",
	                                   "order/prefix/lib/mirage/hotswap/llvm-tools",
	                                   "order/prefix/hotswap",
	                                   "order/prefix/hotswap/llvm-tools",
	                                   "order/bin1",
	                                   "order/bin2"};
	const char *old_path = getenv("PATH");
	char *saved_path = old_path ? strdup(old_path) : NULL;
	char lib[256], installed[256], build[256], on_path[256], in_cwd[256], mirage_lld[256];
	char path_var[600], cwd[PATH_MAX], want[PATH_MAX + 64];
	static const char body[] = "#!/bin/sh\nexit 0\n";

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(want, sizeof(want), "%s/%s", dir, dirs[i]);
		assert_int_equal(mkdir(want, 0755), 0);
	}
	snprintf(lib, sizeof(lib), "%s/order/prefix/lib/mirage", dir);
	script(installed, sizeof(installed), "order/prefix/lib/mirage/hotswap/llvm-tools/ld.lld",
	       body, 0755);
	script(build, sizeof(build), "order/prefix/hotswap/llvm-tools/ld.lld", body, 0755);
	script(on_path, sizeof(on_path), "order/bin2/ld.lld-22", body, 0755);
	script(in_cwd, sizeof(in_cwd), "order/ld.lld-22", body, 0755);
	script(mirage_lld, sizeof(mirage_lld), "order/mine", body, 0755);
	/* The current directory holds an ld.lld-22 that an empty entry must not find. */
	snprintf(path_var, sizeof(path_var), "%s/order/bin1::%s/order/bin2", dir, dir);
	setenv("PATH", path_var, 1);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(want, sizeof(want), "%s/order", dir);
	assert_int_equal(chdir(want), 0);

	setenv("MIRAGE_LLD", mirage_lld, 1);
	assert_string_equal(find(lib), mirage_lld);
	setenv("MIRAGE_LLD", "", 1); /* empty is unset */
	snprintf(want, sizeof(want), "%s/hotswap/llvm-tools/ld.lld", lib);
	assert_string_equal(find(lib), want);
	unsetenv("MIRAGE_LLD");
	assert_string_equal(find(lib), want);
	unlink(installed);
	snprintf(want, sizeof(want), "%s/../../hotswap/llvm-tools/ld.lld", lib);
	assert_string_equal(find(lib), want);
	/* Without the library's directory there is no tree to look in. */
	assert_string_equal(find(NULL), on_path);
	unlink(build);
	assert_string_equal(find(lib), on_path);
	unlink(on_path);
	if (access("/usr/lib/llvm-22/bin/ld.lld", X_OK) == 0)
		assert_string_equal(find(lib), "/usr/lib/llvm-22/bin/ld.lld");
	else
		assert_string_equal(find(lib), "no linker: neither MIRAGE_LLD, the HotSwap tree's "
		                               "llvm-tools/ld.lld, ld.lld-22 on PATH nor "
		                               "/usr/lib/llvm-22/bin/ld.lld");

	assert_int_equal(chdir(cwd), 0);
	if (saved_path)
		setenv("PATH", saved_path, 1);
	else
		unsetenv("PATH");
	free(saved_path);
	unlink(in_cwd);
	unlink(mirage_lld);
	for (size_t i = sizeof(dirs) / sizeof(dirs[0]); i-- > 0;) {
		snprintf(want, sizeof(want), "%s/%s", dir, dirs[i]);
		assert_int_equal(rmdir(want), 0);
	}
}

static void test_no_temporary_directory(void **state)
{
	(void)state;
	char lld[256], msg[256];
	unsigned char *image = NULL;
	size_t size = 0;

	script(lld, sizeof(lld), "unused", "#!/bin/sh\nexit 0\n", 0755);
	setenv("TMPDIR", "/nonexistent/tmp", 1);
	assert_int_equal(link_with(lld, "obj", &image, &size, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "cannot make a temporary directory in /nonexistent/tmp: No such "
	                         "file or directory");
	setenv("TMPDIR", tmp, 1);
}

#ifdef MIRAGE_HAVE_LLD
/* Without MIRAGE_LLD the link runs in this process: lld's error is the message; the directory
 * is gone afterwards. */
static void test_in_process(void **state)
{
	(void)state;
	unsigned char *image = NULL;
	char msg[512], want[512];
	size_t size = 0;
	struct amdgcn_object garbage = {(unsigned char *)"not an object\n", 14};

	unsetenv("MIRAGE_LLD");
	assert_int_equal(amdgcn_link(&garbage, 1, &image, &size, msg, sizeof(msg)), -1);
	snprintf(want, sizeof(want), "ld.lld: error: %s/mirage-link-", tmp);
	if (strncmp(msg, want, strlen(want)) || !strstr(msg, "/in.o:1: unknown directive: not"))
		fail_msg("lld in process: %s", msg);
	assert_null(image);
	assert_tmp_empty();
}

/* Child of test_in_process_fatal: 0 when it went as said, else which step failed. */
static int fatal_child(void)
{
	/* An ELF header whose section headers lie past its end: lld's fatal error. */
	static const unsigned char truncated[64] = {
	    0x7f, 'E', 'L', 'F', 2, 1, 1, 0, [16] = 1, 0, 0xe0, 0, 1, [40] = 0, 0x10, [58] = 64};
	struct amdgcn_object cut = {(unsigned char *)truncated, sizeof(truncated)};
	struct amdgcn_object garbage = {(unsigned char *)"not an object\n", 14};
	unsigned char *image = NULL;
	size_t size = 0;
	char msg[512];

	unsetenv("MIRAGE_LLD");
	/* This process goes on, and the spawned linker says what lld said. */
	if (amdgcn_link(&cut, 1, &image, &size, msg, sizeof(msg)) != -1 ||
	    !strstr(msg, "exited with 1: ld.lld: error: ") || !strstr(msg, "/in.o: "))
		return 2;
	/* From then on the linker is spawned: its message names the program. */
	if (amdgcn_link(&garbage, 1, &image, &size, msg, sizeof(msg)) != -1 ||
	    !strstr(msg, "exited with 1: ld.lld: error: "))
		return 3;
	return 0;
}

/* lld's fatal error (a truncated object) in process: the process lives on, and spawns the
 * linker from then on.  In a child, which leaves by _exit: lld's recovery from a fatal error
 * leaks what the error skipped, once per process (docs/translate.md). */
static void test_in_process_fatal(void **state)
{
	(void)state;
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid)
		_exit(fatal_child());
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_tmp_empty();
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_links),
	    cmocka_unit_test(test_links_chunks),
	    cmocka_unit_test(test_environment_and_input),
	    cmocka_unit_test(test_linker_fails),
	    cmocka_unit_test(test_cannot_run),
	    cmocka_unit_test(test_not_a_linker),
	    cmocka_unit_test(test_no_temporary_directory),
	    cmocka_unit_test(test_search_order),
#ifdef MIRAGE_HAVE_LLD
	    cmocka_unit_test(test_in_process),
	    cmocka_unit_test(test_in_process_fatal),
#endif
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
