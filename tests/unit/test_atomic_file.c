/* Atomic writes: replace, exclusive create, no temp files left behind. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "atomic_file.h"
#include "strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
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
	mode_t old_umask = umask(022);
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
	umask(old_umask);
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	return st.st_mode & 07777;
}

/* New files get the mode minus the umask (fchmod used to force it), and temp files O_CLOEXEC. */
static void test_umask_and_cloexec(void **state)
{
	char dir[] = "/tmp/mirage-atomic-XXXXXX";
	mode_t old_umask = umask(077);
	assert_non_null(mkdtemp(dir));
	char *path = xstrfmt("%s/file", dir), *tmpl = xstrfmt("%s/t.tmp.XXXXXX", dir);

	assert_int_equal(atomic_write_file(path, "a", 1, 0666, ATOMIC_REPLACE), 0);
	assert_int_equal(mode_of(path), 0600);
	umask(022);
	assert_int_equal(atomic_write_file(path, "b", 1, 0666, ATOMIC_REPLACE), 0);
	assert_int_equal(mode_of(path), 0644);
	unlink(path);
	assert_int_equal(atomic_write_file(path, "c", 1, 0666, ATOMIC_EXCLUSIVE), 0);
	assert_int_equal(mode_of(path), 0644);

	int fd = atomic_open_temp(tmpl, 0666);
	assert_true(fd >= 0);
	assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	assert_null(strstr(tmpl, "XXXXXX"));
	assert_int_equal(mode_of(tmpl), 0644);
	close(fd);
	unlink(tmpl);
	char bad[] = "/tmp/no-placeholder";
	errno = 0;
	assert_int_equal(atomic_open_temp(bad, 0600), -1);
	assert_int_equal(errno, EINVAL);

	unlink(path);
	rmdir(dir);
	free(path);
	free(tmpl);
	umask(old_umask);
}

static void make_file(const char *dir, const char *name, bool old)
{
	char *path = xstrfmt("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	if (old) {
		struct timeval hour_ago[2];
		gettimeofday(&hour_ago[0], NULL);
		hour_ago[0].tv_sec -= 3600;
		hour_ago[1] = hour_ago[0];
		assert_int_equal(lutimes(path, hour_ago), 0);
	}
	free(path);
}

static bool exists(const char *dir, const char *name)
{
	struct stat st;
	char *path = xstrfmt("%s/%s", dir, name);
	bool there = lstat(path, &st) == 0;
	free(path);
	return there;
}

/* What a killed writer left goes; what a live writer or someone else owns stays. */
static void test_sweep_temps(void **state)
{
	char dir[] = "/tmp/mirage-atomic-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *outside = xstrfmt("%s.target", dir), *link = xstrfmt("%s/l.ini.tmp.Link01", dir);
	char *sub = xstrfmt("%s/d.ini.tmp.Dir001", dir);

	make_file(dir, "old.ini.tmp.AbC123", true);
	make_file(dir, "new.ini.tmp.AbC123", false);
	make_file(dir, "short.ini.tmp.AbC12", true);
	make_file(dir, "bad.ini.tmp.AbC-12", true);
	make_file(dir, "x.json.tmp.AbC123", true);
	make_file(dir, "keep.ini", true);
	make_file(dir, ".tmp.AbC123", true);
	FILE *f = fopen(outside, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(symlink(outside, link), 0);
	make_file(dir, "l.ini.tmp.Link01", true); /* lutimes ages the link itself */
	assert_int_equal(mkdir(sub, 0700), 0);

	assert_int_equal(atomic_sweep_temps(dir, ".ini", 600), 0);
	assert_false(exists(dir, "old.ini.tmp.AbC123"));
	assert_true(exists(dir, "new.ini.tmp.AbC123"));
	assert_true(exists(dir, "short.ini.tmp.AbC12"));
	assert_true(exists(dir, "bad.ini.tmp.AbC-12"));
	assert_true(exists(dir, "x.json.tmp.AbC123"));
	assert_true(exists(dir, "keep.ini"));
	assert_true(exists(dir, "l.ini.tmp.Link01")); /* an old symlink is never removed */
	assert_int_equal(access(outside, F_OK), 0);
	assert_true(exists(dir, "d.ini.tmp.Dir001"));
	assert_int_equal(atomic_sweep_temps(dir, NULL, 600), 0);
	assert_false(exists(dir, "x.json.tmp.AbC123")); /* any suffix */
	assert_true(exists(dir, ".tmp.AbC123"));        /* but a name of its own */
	assert_int_equal(atomic_sweep_temps("/nonexistent-dir/x", NULL, 600), 0);

	static const char *const left[] = {"new.ini.tmp.AbC123", "short.ini.tmp.AbC12",
	                                   "bad.ini.tmp.AbC-12", "keep.ini",
	                                   ".tmp.AbC123",        "l.ini.tmp.Link01"};
	for (size_t i = 0; i < sizeof(left) / sizeof(left[0]); i++) {
		char *p = xstrfmt("%s/%s", dir, left[i]);
		unlink(p);
		free(p);
	}
	rmdir(sub);
	rmdir(dir);
	unlink(outside);
	free(outside);
	free(link);
	free(sub);
}

/* /dev/null stays the device; a FIFO is written into when read, fails fast when not. */
static void test_devices_and_fifos_in_place(void **state)
{
	char dir[] = "/tmp/mirage-atomic-XXXXXX";
	struct stat st;
	char *fifo, buf[8] = {0};
	int rd;

	assert_int_equal(atomic_write_file("/dev/null", "gone", 4, 0644, ATOMIC_REPLACE), 0);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	assert_non_null(mkdtemp(dir));
	fifo = xstrfmt("%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	errno = 0;
	assert_int_equal(atomic_write_file(fifo, "x", 1, 0644, ATOMIC_REPLACE), -1);
	assert_int_equal(errno, ENXIO);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	assert_int_equal(atomic_write_file(fifo, "seen", 4, 0644, ATOMIC_REPLACE_NOSYNC), 0);
	assert_int_equal(read(rd, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "seen");
	close(rd);
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(count_entries(dir), 1);
	unlink(fifo);
	rmdir(dir);
	free(fifo);
	(void)state;
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
	    cmocka_unit_test(test_devices_and_fifos_in_place),
	    cmocka_unit_test(test_umask_and_cloexec),
	    cmocka_unit_test(test_sweep_temps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
