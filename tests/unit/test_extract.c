/* Safe extraction: entry-path and symlink-target checks, and real archives written with libarchive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "extract.h"
#include "hotswap_install.h"

#include <archive.h>
#include <archive_entry.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void expect_path(const char *in, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	const char *why = NULL;
	assert_int_equal(extract_check_path(in, &out, &why), 0);
	assert_string_equal(out.buf, want);
	strbuf_release(&out);
}

static void expect_bad_path(const char *in, const char *want_why)
{
	struct strbuf out = STRBUF_INIT;
	const char *why = NULL;
	assert_int_equal(extract_check_path(in, &out, &why), -1);
	assert_non_null(why);
	assert_non_null(strstr(why, want_why));
	strbuf_release(&out);
}

static void test_paths(void **state)
{
	(void)state;
	expect_path("lib/libhotswap_intercept.so", "lib/libhotswap_intercept.so");
	expect_path("./tree//lib/./x/", "tree/lib/x");
	expect_path("./", "");
	expect_path("a..b/..c/d..", "a..b/..c/d..");
	expect_bad_path("../x", "'..'");
	expect_bad_path("a/../../b", "'..'");
	expect_bad_path("a/..", "'..'");
	expect_bad_path("tree/lib/../x", "'..'"); /* even when it would stay inside */
	expect_bad_path("/abs", "absolute");
	expect_bad_path("/", "absolute");
	expect_bad_path("", "empty");
}

static void expect_link(const char *entry, const char *target, int want, const char *want_why)
{
	const char *why = NULL;
	assert_int_equal(extract_check_symlink(entry, target, &why), want);
	if (want_why)
		assert_non_null(strstr(why, want_why));
}

static void test_symlinks(void **state)
{
	(void)state;
	expect_link("lib/libhotswap_rewrite.so", "libhotswap_rewrite.so.0", 0, NULL);
	expect_link("lib/x", "./y", 0, NULL);
	expect_link("lib/x", "..", 0, NULL); /* the tree root itself */
	expect_link("a/b/c", "../../lib/x", 0, NULL);
	expect_link("lib/x", "/etc", -1, "absolute");
	expect_link("lib/x", "/etc/passwd", -1, "absolute");
	expect_link("lib/x", "../..", -1, "outside");
	expect_link("x", "../x", -1, "outside");
	expect_link("a/b/c", "../../../etc", -1, "outside");
	/* '..' after a name depends on what that name is on disk: refused. */
	expect_link("lib/x", "sub/../y", -1, "after a name");
	expect_link("lib/x", "sub/../../y", -1, "after a name");
	expect_link("lib/x", "", -1, "empty");
}

static void test_names(void **state)
{
	struct diag err = DIAG_INIT;
	char *n;
	(void)state;
	assert_int_equal(hotswap_name_check("rocm-7.1_hs+1", &err), 0);
	assert_int_equal(hotswap_name_check("a/b", &err), -1);
	assert_int_equal(hotswap_name_check("..", &err), -1);
	assert_int_equal(hotswap_name_check(".tmp-abc", &err), -1);
	assert_int_equal(hotswap_name_check("Tree", &err), -1);
	assert_non_null(strstr(err.hint.buf, "'tree'"));
	assert_int_equal(hotswap_name_check("", &err), -1);
	diag_release(&err);

	n = hotswap_name_from_source("https://h.example/x/HotSwap-1.2.tar.gz?sig=1#frag");
	assert_string_equal(n, "hotswap-1.2");
	free(n);
	n = hotswap_name_from_source("/tmp/dir/tree.zip");
	assert_string_equal(n, "tree");
	free(n);
	n = hotswap_name_from_source("file:///srv/a.tgz");
	assert_string_equal(n, "a");
	free(n);
	assert_null(hotswap_name_from_source("https://h.example/"));
}

/* One archive entry to write: a file (data), a symlink (link) or a directory. */
struct ent {
	const char *path;
	unsigned type; /* AE_IFREG, AE_IFDIR, AE_IFLNK */
	const char *data_or_link;
};

static char *write_tar(const char *dir, const char *name, const struct ent *ents, size_t n)
{
	char *path = NULL;
	struct archive *a = archive_write_new();
	assert_int_equal(asprintf(&path, "%s/%s", dir, name) > 0, 1);
	archive_write_set_format_pax_restricted(a);
	archive_write_add_filter_gzip(a);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		archive_entry_set_pathname(e, ents[i].path);
		archive_entry_set_filetype(e, ents[i].type);
		archive_entry_set_perm(e, ents[i].type == AE_IFDIR ? 0755 : 0644);
		if (ents[i].type == AE_IFLNK)
			archive_entry_set_symlink(e, ents[i].data_or_link);
		if (ents[i].type == AE_IFREG)
			archive_entry_set_size(e, (la_int64_t)strlen(ents[i].data_or_link));
		assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
		if (ents[i].type == AE_IFREG)
			archive_write_data(a, ents[i].data_or_link, strlen(ents[i].data_or_link));
		archive_entry_free(e);
	}
	archive_write_close(a);
	archive_write_free(a);
	return path;
}

static char *make_dir(const char *base, const char *name)
{
	char *p = NULL;
	assert_int_equal(asprintf(&p, "%s/%s", base, name) > 0, 1);
	assert_int_equal(mkdir(p, 0755), 0);
	return p;
}

static char *tmpdir;

static int setup(void **state)
{
	char tmpl[] = "/tmp/mirage-extract-XXXXXX";
	(void)state;
	tmpdir = strdup(mkdtemp(tmpl));
	return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	hotswap_remove_tree(tmpdir);
	free(tmpdir);
	return 0;
}

static void test_extract_good(void **state)
{
	const struct ent ents[] = {
	    {"top/", AE_IFDIR, NULL},
	    {"top/lib/a.so.0", AE_IFREG, "ELF"},
	    {"top/lib/a.so", AE_IFLNK, "a.so.0"},
	    {"top/tools/up", AE_IFLNK, "../lib/a.so"},
	};
	struct extract_result res;
	struct diag err = DIAG_INIT;
	char *tar = write_tar(tmpdir, "good.tar.gz", ents, 4);
	char *dest = make_dir(tmpdir, "good");
	char buf[PATH_MAX], *p = NULL;
	ssize_t n;
	(void)state;

	assert_int_equal(
	    extract_archive(tar, dest, &(struct extract_opts){.origin = "good"}, &res, &err), 0);
	assert_string_equal(res.top_dir, "top");
	assert_int_equal(res.entries, 3);
	assert_int_equal(asprintf(&p, "%s/lib/a.so", dest) > 0, 1);
	n = readlink(p, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, "a.so.0");
	assert_int_equal(access(p, R_OK), 0);
	free(p);
	free(res.top_dir);
	free(tar);
	free(dest);
	diag_release(&err);
}

/* A tree whose only top-level directory is lib/ keeps it when the anchor is there. */
static void test_extract_anchor(void **state)
{
	const struct ent ents[] = {
	    {"lib/libhotswap_intercept.so", AE_IFREG, "ELF"},
	    {"lib/libhotswap_rewrite.so", AE_IFREG, "ELF"},
	};
	struct extract_result res;
	struct diag err = DIAG_INIT;
	char *tar = write_tar(tmpdir, "anchor.tar.gz", ents, 2);
	char *dest = make_dir(tmpdir, "anchor");
	char *p = NULL;
	(void)state;

	assert_int_equal(
	    extract_archive(
	        tar, dest,
	        &(struct extract_opts){.origin = "anchor", .anchor = "lib/libhotswap_intercept.so"},
	        &res, &err),
	    0);
	assert_null(res.top_dir);
	assert_int_equal(asprintf(&p, "%s/lib/libhotswap_intercept.so", dest) > 0, 1);
	assert_int_equal(access(p, R_OK), 0);
	free(p);
	free(tar);
	free(dest);
	diag_release(&err);
}

static void expect_refused(const char *name, const struct ent *ents, size_t n, const char *why)
{
	struct extract_result res;
	struct diag err = DIAG_INIT;
	char *tar = write_tar(tmpdir, name, ents, n);
	char *dest = make_dir(tmpdir, name + 1);
	char cwd_before[PATH_MAX], cwd_after[PATH_MAX];

	assert_non_null(getcwd(cwd_before, sizeof(cwd_before)));
	assert_int_equal(
	    extract_archive(tar, dest, &(struct extract_opts){.origin = name}, &res, &err), -1);
	assert_non_null(getcwd(cwd_after, sizeof(cwd_after)));
	assert_string_equal(cwd_before, cwd_after); /* the working directory comes back */
	assert_non_null(strstr(err.msg.buf, "refusing to extract"));
	assert_non_null(strstr(err.msg.buf, why));
	assert_null(res.top_dir);
	free(tar);
	free(dest);
	diag_release(&err);
}

static void test_extract_refuses(void **state)
{
	const struct ent abs_link[] = {{"t/lib/a", AE_IFREG, "x"}, {"t/lib/etc", AE_IFLNK, "/etc"}};
	const struct ent up_link[] = {{"t/lib/a", AE_IFREG, "x"}, {"t/lib/up", AE_IFLNK, "../.."}};
	const struct ent through[] = {
	    {"t/lib/a", AE_IFREG, "x"}, {"t/d", AE_IFLNK, "lib"}, {"t/d/b", AE_IFREG, "x"}};
	(void)state;
	expect_refused("1abs-link.tar.gz", abs_link, 2, "'t/lib/etc' is a symlink to an absolute");
	/* After stripping t/, "../.." from lib/ leaves the tree even though t/ would hold it. */
	expect_refused("2up-link.tar.gz", up_link, 2,
	               "'t/lib/up' is a symlink that points outside");
	expect_refused("3through.tar.gz", through, 3, "'t/d/b' lies under a symlink");
}

static void test_extract_not_archive(void **state)
{
	struct extract_result res;
	struct diag err = DIAG_INIT;
	char *p = NULL, *dest = make_dir(tmpdir, "junk");
	FILE *f;
	(void)state;

	assert_int_equal(asprintf(&p, "%s/junk.tar.gz", tmpdir) > 0, 1);
	f = fopen(p, "w");
	fputs("hello, not an archive\n", f);
	fclose(f);
	assert_int_equal(
	    extract_archive(p, dest, &(struct extract_opts){.origin = "junk"}, &res, &err), -1);
	assert_non_null(strstr(err.msg.buf, "cannot read 'junk'"));
	free(p);
	free(dest);
	diag_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_symlinks),
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_extract_good),
	    cmocka_unit_test(test_extract_anchor),
	    cmocka_unit_test(test_extract_refuses),
	    cmocka_unit_test(test_extract_not_archive),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
