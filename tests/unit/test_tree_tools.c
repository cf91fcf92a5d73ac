/* A HotSwap tree's tools (tree_tools.h): the one "can it run" rule, and the tree beside a
 * library of mirage's, installed and in a build tree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tree_tools.h"

/* <dir>/prefix/lib/mirage is the library's directory; trees go beside it. */
static char dir[] = "/tmp/mirage-tree-tools-XXXXXX";
static char lib[256];

static void mkdirs(const char *rel)
{
	char path[PATH_MAX];

	for (const char *p = rel;; p++) {
		if (*p == '/' || !*p) {
			snprintf(path, sizeof(path), "%s/%.*s", dir, (int)(p - rel), rel);
			mkdir(path, 0755);
		}
		if (!*p)
			break;
	}
}

static void tool(const char *rel, mode_t mode)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\n", f);
	fclose(f);
	assert_int_equal(chmod(path, mode), 0);
}

static void rm(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	assert_int_equal(unlink(path), 0);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(lib, sizeof(lib), "%s/prefix/lib/mirage", dir);
	mkdirs("prefix/lib/mirage/hotswap/llvm-tools");
	mkdirs("prefix/hotswap/llvm-tools");
	return 0;
}

static int teardown(void **state)
{
	static const char *const dirs[] = {"prefix/lib/mirage/hotswap/llvm-tools",
	                                   "prefix/lib/mirage/hotswap",
	                                   "prefix/lib/mirage",
	                                   "prefix/lib",
	                                   "prefix/hotswap/llvm-tools",
	                                   "prefix/hotswap",
	                                   "prefix",
	                                   ""};
	char path[PATH_MAX];

	(void)state;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, dirs[i]);
		rmdir(path);
	}
	return 0;
}

static void test_state(void **state)
{
	(void)state;
	char path[PATH_MAX], link[PATH_MAX];

	tool("prefix/runs", 0755);
	tool("prefix/plain", 0644);
	snprintf(path, sizeof(path), "%s/prefix/runs", dir);
	assert_int_equal(tree_tool_state(path), TREE_TOOL_OK);
	/* A symbolic link counts as what it points at (the tree links LLVM's tools). */
	snprintf(link, sizeof(link), "%s/prefix/link", dir);
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(tree_tool_state(link), TREE_TOOL_OK);
	rm("prefix/runs");
	assert_int_equal(tree_tool_state(link), TREE_TOOL_MISSING); /* dangling */
	rm("prefix/link");
	assert_int_equal(tree_tool_state(path), TREE_TOOL_MISSING);
	snprintf(path, sizeof(path), "%s/prefix/plain", dir);
	/* root may execute nothing without an x bit either: access(X_OK) says so for files. */
	assert_int_equal(tree_tool_state(path), TREE_TOOL_NOT_EXECUTABLE);
	rm("prefix/plain");
	/* A directory is no tool, whatever its mode. */
	assert_int_equal(tree_tool_state(lib), TREE_TOOL_MISSING);
}

static void test_beside(void **state)
{
	(void)state;
	char out[PATH_MAX], want[PATH_MAX];

	/* Neither tree has it. */
	assert_int_equal(tree_tool_beside(lib, HOTSWAP_PART_LD_LLD, out, sizeof(out)), -1);

	/* A build tree: <build>/hotswap, the library in <build>/lib/mirage; the path as joined. */
	tool("prefix/hotswap/llvm-tools/ld.lld", 0755);
	assert_int_equal(tree_tool_beside(lib, HOTSWAP_PART_LD_LLD, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/../../hotswap/llvm-tools/ld.lld", lib);
	assert_string_equal(out, want);

	/* The installed tree, <prefix>/lib/mirage/hotswap, comes first. */
	tool("prefix/lib/mirage/hotswap/llvm-tools/ld.lld", 0755);
	assert_int_equal(tree_tool_beside(lib, HOTSWAP_PART_LD_LLD, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/hotswap/llvm-tools/ld.lld", lib);
	assert_string_equal(out, want);

	/* One that cannot run is passed over. */
	assert_int_equal(chmod(want, 0644), 0);
	assert_int_equal(tree_tool_beside(lib, HOTSWAP_PART_LD_LLD, out, sizeof(out)), 0);
	snprintf(want, sizeof(want), "%s/../../hotswap/llvm-tools/ld.lld", lib);
	assert_string_equal(out, want);

	/* Another tool of the table is another file. */
	assert_int_equal(tree_tool_beside(lib, HOTSWAP_PART_LLC, out, sizeof(out)), -1);

	/* A path that does not fit is not looked at. */
	assert_int_equal(tree_tool_beside(lib, HOTSWAP_PART_LD_LLD, out, strlen(want)), -1);

	/* Only tools: a library row is refused. */
	assert_int_equal(tree_tool_beside(lib, HOTSWAP_PART_REWRITE, out, sizeof(out)), -1);

	rm("prefix/hotswap/llvm-tools/ld.lld");
	rm("prefix/lib/mirage/hotswap/llvm-tools/ld.lld");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_state),
	    cmocka_unit_test(test_beside),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
