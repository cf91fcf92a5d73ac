/* Atomic writes: replace, exclusive create, no temp files left behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "atomic_file.h"
#include "strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n;
}

static void test_replace_and_exclusive(void **state)
{
	char dir[] = "/tmp/mirage-atomic-XXXXXX";
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT;
	assert_non_null(mkdtemp(dir));
	strbuf_addf(&path, "%s/a/b/file", dir);
	char *parent = xstrfmt("%s/a/b", dir);
	assert_int_equal(mkdir_parents(parent, 0700), 0);
	assert_int_equal(mkdir_parents(parent, 0700), 0);

	assert_int_equal(atomic_write_file(path.buf, "one", 3, 0600, ATOMIC_EXCLUSIVE), 0);
	assert_int_equal(atomic_write_file(path.buf, "two", 3, 0600, ATOMIC_EXCLUSIVE), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(strbuf_read_file(&got, path.buf), 0);
	assert_string_equal(got.buf, "one");
	assert_int_equal(atomic_write_file(path.buf, "three", 5, 0644, ATOMIC_REPLACE), 0);
	strbuf_reset(&got);
	assert_int_equal(strbuf_read_file(&got, path.buf), 0);
	assert_string_equal(got.buf, "three");
	assert_int_equal(count_entries(parent), 1);
	assert_int_equal(atomic_write_file(path.buf, "four", 4, 0644, ATOMIC_REPLACE_NOSYNC), 0);
	strbuf_reset(&got);
	assert_int_equal(strbuf_read_file(&got, path.buf), 0);
	assert_string_equal(got.buf, "four");
	assert_int_equal(count_entries(parent), 1);

	struct stat st;
	assert_int_equal(stat(path.buf, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);

	/* A file where a directory should be is ENOTDIR, not success. */
	assert_int_equal(mkdir_parents(path.buf, 0700), -1);

	unlink(path.buf);
	rmdir(parent);
	free(parent);
	parent = xstrfmt("%s/a", dir);
	rmdir(parent);
	free(parent);
	rmdir(dir);
	strbuf_release(&path);
	strbuf_release(&got);
}

static void test_missing_dir_fails_cleanly(void **state)
{
	errno = 0;
	assert_int_equal(atomic_write_file("/nonexistent-dir/x/y", "a", 1, 0600, ATOMIC_REPLACE),
	                 -1);
	assert_int_equal(errno, ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_replace_and_exclusive),
	    cmocka_unit_test(test_missing_dir_fails_cleanly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
