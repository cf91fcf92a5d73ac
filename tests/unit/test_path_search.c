/* The one PATH walk (path_search.h): entry order, empty entries both ways, the first candidate
 * that is there but cannot be run, and candidates too long to run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "path_search.h"

static char dir[] = "/tmp/mirage-path-search-XXXXXX";
static char cwd[PATH_MAX];

/* The test `mirage run` gives: there, not a directory, executable. */
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

static void make(const char *rel, mode_t mode)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir) || !getcwd(cwd, sizeof(cwd)) || chdir(dir))
		return -1;
	/* a/prog runs; b/prog cannot; c/prog is a directory; ./prog runs; d is empty. */
	mkdir("a", 0755);
	mkdir("b", 0755);
	mkdir("c", 0755);
	mkdir("c/prog", 0755);
	mkdir("d", 0755);
	make("a/prog", 0755);
	make("b/prog", 0644);
	make("prog", 0755);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink("a/prog");
	unlink("b/prog");
	unlink("prog");
	rmdir("c/prog");
	rmdir("a");
	rmdir("b");
	rmdir("c");
	rmdir("d");
	if (chdir(cwd))
		return -1;
	return rmdir(dir);
}

/* Searches path for prog; returns found, or "!<errno name>:<denied>". */
static const char *search(const char *path, bool empty_is_cwd)
{
	static char out[PATH_MAX + 16];
	char found[PATH_MAX], denied[PATH_MAX] = "";
	struct path_search s = {
	    .path = path, .name = "prog", .empty_is_cwd = empty_is_cwd, .usable = runnable};

	if (!path_search(&s, found, denied, sizeof(found)))
		return strcpy(out, found);
	snprintf(out, sizeof(out), "!%s:%s",
	         errno == EACCES   ? "EACCES"
	         : errno == ENOENT ? "ENOENT"
	                           : "other",
	         denied);
	return out;
}

static void test_order(void **state)
{
	(void)state;
	assert_string_equal(search("a:d", false), "a/prog");
	assert_string_equal(search("d:a", false), "a/prog");
	/* What cannot be run is skipped: the next entry wins. */
	assert_string_equal(search("b:c:a", false), "a/prog");
	assert_string_equal(search("/nonexistent:a", false), "a/prog");
}

static void test_empty_entries(void **state)
{
	(void)state;
	/* execvp's rule: an empty entry (leading, inner, trailing, or all of it) is "." */
	assert_string_equal(search(":a", true), "./prog");
	assert_string_equal(search("d::a", true), "./prog");
	assert_string_equal(search("d:", true), "./prog");
	assert_string_equal(search("", true), "./prog");
	/* A library's rule: skipped. */
	assert_string_equal(search(":a", false), "a/prog");
	assert_string_equal(search("d::a", false), "a/prog");
	assert_string_equal(search("d:", false), "!ENOENT:");
	assert_string_equal(search("", false), "!ENOENT:");
	assert_string_equal(search(NULL, true), "!ENOENT:");
}

static void test_denied(void **state)
{
	(void)state;
	/* Nothing runs: the first candidate that is there (a file or a directory) is named. */
	assert_string_equal(search("d:b:c", false), "!EACCES:b/prog");
	assert_string_equal(search("c:b", false), "!EACCES:c/prog");
	assert_string_equal(search("d:/nonexistent", false), "!ENOENT:");
}

static void test_too_long(void **state)
{
	(void)state;
	char found[16], denied[16];
	struct path_search s = {
	    .path = "a:/a-very-long-directory-name", .name = "prog", .usable = runnable};

	/* "a/prog" fits; the long one is never tried. */
	assert_int_equal(path_search(&s, found, denied, sizeof(found)), 0);
	assert_string_equal(found, "a/prog");
	s.path = "/a-very-long-directory-name:a";
	assert_int_equal(path_search(&s, found, denied, sizeof(found)), 0);
	assert_string_equal(found, "a/prog");
	s.path = "/a-very-long-directory-name";
	assert_int_equal(path_search(&s, found, NULL, sizeof(found)), -1);
	assert_int_equal(errno, ENOENT);
	/* denied may be NULL. */
	s.path = "b";
	assert_int_equal(path_search(&s, found, NULL, sizeof(found)), -1);
	assert_int_equal(errno, EACCES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_order),
	    cmocka_unit_test(test_empty_entries),
	    cmocka_unit_test(test_denied),
	    cmocka_unit_test(test_too_long),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
