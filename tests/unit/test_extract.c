/* Safe extraction: entry-path and symlink-target checks, and real archives written with libarchive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "extract.h"
#include "hotswap_contract.h"
#include "hotswap_install.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The module reads an archive from a descriptor the caller opened once; tests open it by name. */
static int extract_path(const char *path, const char *dest, const struct extract_opts *opts,
                        struct extract_result *res, struct diag *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;
	assert_true(fd >= 0);
	ret = extract_archive_fd(fd, dest, opts, res, err);
	close(fd);
	return ret;
}

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
	expect_path(HOTSWAP_INTERCEPT_PATH, HOTSWAP_INTERCEPT_PATH);
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
	expect_link(HOTSWAP_REWRITE_PATH, HOTSWAP_REWRITE_LIB ".0", 0, NULL);
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
	    extract_path(tar, dest, &(struct extract_opts){.origin = "good"}, &res, &err), 0);
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
	    {HOTSWAP_INTERCEPT_PATH, AE_IFREG, "ELF"},
	    {HOTSWAP_REWRITE_PATH, AE_IFREG, "ELF"},
	};
	struct extract_result res;
	struct diag err = DIAG_INIT;
	char *tar = write_tar(tmpdir, "anchor.tar.gz", ents, 2);
	char *dest = make_dir(tmpdir, "anchor");
	char *p = NULL;
	(void)state;

	assert_int_equal(extract_path(tar, dest,
	                              &(struct extract_opts){.origin = "anchor",
	                                                     .anchor = HOTSWAP_INTERCEPT_PATH},
	                              &res, &err),
	                 0);
	assert_null(res.top_dir);
	assert_int_equal(asprintf(&p, "%s/" HOTSWAP_INTERCEPT_PATH, dest) > 0, 1);
	assert_int_equal(access(p, R_OK), 0);
	free(p);
	free(tar);
	free(dest);
	diag_release(&err);
}

/* Extracts archive into a new directory dest under tmpdir, which must fail saying why. */
static void expect_refused_with(const char *archive, const char *dest_name,
                                const struct extract_opts *opts, const char *why)
{
	struct extract_result res;
	struct diag err = DIAG_INIT;
	char *dest = make_dir(tmpdir, dest_name);
	char cwd_before[PATH_MAX], cwd_after[PATH_MAX];

	assert_non_null(getcwd(cwd_before, sizeof(cwd_before)));
	assert_int_equal(extract_path(archive, dest, opts, &res, &err), -1);
	assert_non_null(getcwd(cwd_after, sizeof(cwd_after)));
	assert_string_equal(cwd_before, cwd_after); /* the working directory comes back */
	assert_non_null(strstr(err.msg.buf, "refusing to extract"));
	if (!strstr(err.msg.buf, why))
		print_message("got: %s\n", err.msg.buf);
	assert_non_null(strstr(err.msg.buf, why));
	assert_null(res.top_dir);
	free(dest);
	diag_release(&err);
}

static void expect_refused(const char *name, const struct ent *ents, size_t n, const char *why)
{
	char *tar = write_tar(tmpdir, name, ents, n);
	expect_refused_with(tar, name + 1, &(struct extract_opts){.origin = name}, why);
	free(tar);
}

/* Extracts archive into a new directory dest under tmpdir, which must succeed. */
static void expect_extracted(const char *archive, const char *dest_name,
                             const struct extract_opts *opts)
{
	struct extract_result res;
	struct diag err = DIAG_INIT;
	char *dest = make_dir(tmpdir, dest_name);

	assert_int_equal(extract_path(archive, dest, opts, &res, &err), 0);
	free(res.top_dir);
	free(dest);
	diag_release(&err);
}

/* A test's cap is reached exactly without complaint and refused one below. */
static void test_extract_too_many_entries(void **state)
{
	const struct ent ents[] = {
	    {"top/", AE_IFDIR, NULL}, {"top/a", AE_IFREG, "a"}, {"top/b", AE_IFREG, "b"}};
	char *tar = write_tar(tmpdir, "entries.tar.gz", ents, 3);
	(void)state;

	expect_extracted(tar, "entries-ok",
	                 &(struct extract_opts){.origin = "entries", .max_entries = 3});
	expect_refused_with(tar, "entries-over",
	                    &(struct extract_opts){.origin = "entries", .max_entries = 2},
	                    "'entries': it has more entries than the limit of 2");
	free(tar);
}

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	bool empty = true;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

/* The headers' sizes add up past the cap: refused by the scan, before anything is written. */
static void test_extract_too_big_declared(void **state)
{
	char *big = malloc(5001), *tar, *dest = NULL;
	struct ent ents[] = {{"top/small", AE_IFREG, "12345"}, {"top/big", AE_IFREG, NULL}};
	(void)state;

	memset(big, 'x', 5000);
	big[5000] = '\0';
	ents[1].data_or_link = big;
	tar = write_tar(tmpdir, "declared.tar.gz", ents, 2);
	expect_extracted(tar, "declared-ok",
	                 &(struct extract_opts){.origin = "declared", .max_bytes = 5005});
	expect_refused_with(tar, "declared-over",
	                    &(struct extract_opts){.origin = "declared", .max_bytes = 4096},
	                    "'declared': its headers declare more data than the limit of 4 KiB "
	                    "(at entry 'top/big')");
	assert_int_equal(asprintf(&dest, "%s/declared-over", tmpdir) > 0, 1);
	assert_true(dir_is_empty(dest));
	free(dest);
	free(tar);
	free(big);
}

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/*
 * A zip whose one entry, t/big, declares 1 byte but inflates to len zeros,
 * as a crafted bomb would.  libarchive cannot write that directly: its writer
 * cuts the data at the size it is given, and puts a deflated entry's sizes in
 * a data descriptor after the data.  So the honest archive is patched: the
 * local header takes the sizes (flag bit 3 cleared) with an uncompressed size
 * of 1, and so does the central directory.  Reading it, libarchive reports
 * size 1 and hands out the inflated data block by block, complaining only at
 * the end of the entry, after everything was already written.
 */
static char *write_lying_zip(const char *dir, size_t len)
{
	char *path = NULL, *zeros = calloc(1, len);
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	unsigned char *buf, *cd = NULL;
	struct stat st;
	FILE *f;

	assert_int_equal(asprintf(&path, "%s/lying.zip", dir) > 0, 1);
	archive_write_set_format_zip(a);
	archive_write_zip_set_compression_deflate(a);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	archive_entry_set_pathname(e, "t/big");
	archive_entry_set_filetype(e, AE_IFREG);
	archive_entry_set_perm(e, 0644);
	archive_entry_set_size(e, (la_int64_t)len);
	assert_int_equal(archive_write_header(a, e), ARCHIVE_OK);
	assert_int_equal(archive_write_data(a, zeros, len), (la_ssize_t)len);
	archive_entry_free(e);
	archive_write_close(a);
	archive_write_free(a);
	free(zeros);

	assert_int_equal(stat(path, &st), 0);
	buf = malloc((size_t)st.st_size);
	f = fopen(path, "r+b");
	assert_int_equal(fread(buf, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	assert_memory_equal(buf, "PK\3\4", 4); /* the local header of the only entry */
	for (size_t i = (size_t)st.st_size - 4; i > 0 && !cd; i--)
		if (!memcmp(buf + i, "PK\1\2", 4))
			cd = buf + i;
	assert_non_null(cd);
	assert_int_equal(get_le32(cd + 24), len); /* the honest uncompressed size */
	buf[6] &= (unsigned char)~0x08;           /* no data descriptor */
	put_le32(buf + 14, get_le32(cd + 16));    /* CRC-32 */
	put_le32(buf + 18, get_le32(cd + 20));    /* compressed size */
	put_le32(buf + 22, 1);                    /* the lie */
	put_le32(cd + 24, 1);
	rewind(f);
	assert_int_equal(fwrite(buf, 1, (size_t)st.st_size, f), (size_t)st.st_size);
	fclose(f);
	free(buf);
	return path;
}

/* The header says 1 byte: only counting what is written stops it, in the middle of the entry. */
static void test_extract_lying_header(void **state)
{
	char *zip = write_lying_zip(tmpdir, 1u << 20), *big = NULL;
	struct stat st;
	(void)state;

	expect_refused_with(zip, "lying",
	                    &(struct extract_opts){.origin = "lying", .max_bytes = 64 << 10},
	                    "'lying': it unpacks to more data than the limit of 64 KiB "
	                    "(at entry 't/big')");
	/* What was written before the cap stopped it stays within the cap. */
	assert_int_equal(asprintf(&big, "%s/lying/big", tmpdir) > 0, 1);
	assert_true(stat(big, &st) < 0 || st.st_size <= 64 << 10);
	free(big);
	free(zip);
}

static void test_extract_refuses(void **state)
{
	const struct ent abs_link[] = {{"t/lib/a", AE_IFREG, "x"}, {"t/lib/etc", AE_IFLNK, "/etc"}};
	const struct ent up_link[] = {{"t/lib/a", AE_IFREG, "x"}, {"t/lib/up", AE_IFLNK, "../.."}};
	const struct ent through[] = {
	    {"t/lib/a", AE_IFREG, "x"}, {"t/d", AE_IFLNK, "lib"}, {"t/d/b", AE_IFREG, "x"}};
	const struct ent deep[] = {{"t/lib/a", AE_IFREG, "x"},
	                           {"t/x/y/s", AE_IFLNK, "../../lib"},
	                           {"t/x/y/z", AE_IFREG, "x"},
	                           {"t/x/y/s/deep/f", AE_IFREG, "x"}};
	(void)state;
	expect_refused("1abs-link.tar.gz", abs_link, 2, "'t/lib/etc' is a symlink to an absolute");
	/* After stripping t/, "../.." from lib/ leaves the tree even though t/ would hold it. */
	expect_refused("2up-link.tar.gz", up_link, 2,
	               "'t/lib/up' is a symlink that points outside");
	expect_refused("3through.tar.gz", through, 3, "'t/d/b' lies under a symlink");
	expect_refused("4deep.tar.gz", deep, 4, "'t/x/y/s/deep/f' lies under a symlink");
}

/* A name that merely starts like an earlier symlink ("s" and "sx/") is not under it. */
static void test_extract_symlink_sibling(void **state)
{
	const struct ent ents[] = {
	    {"t/lib/a", AE_IFREG, "x"},
	    {"t/x/y/s", AE_IFLNK, "../../lib"},
	    {"t/x/y/sx/f", AE_IFREG, "x"},
	    {"t/x/y/s.f", AE_IFREG, "x"},
	};
	char *tar = write_tar(tmpdir, "sibling.tar.gz", ents, 4);
	(void)state;
	expect_extracted(tar, "sibling", &(struct extract_opts){.origin = "sibling"});
	free(tar);
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
	    extract_path(p, dest, &(struct extract_opts){.origin = "junk"}, &res, &err), -1);
	assert_non_null(strstr(err.msg.buf, "cannot read 'junk'"));
	free(p);
	free(dest);
	diag_release(&err);
}

/* Extracts ents, written as NAME.tar.gz, into a new directory NAME: it fails and writes nothing. */
static void expect_nothing_written(const char *name, const struct ent *ents, size_t n,
                                   const struct extract_opts *opts, struct diag *err)
{
	struct extract_result res;
	char *file = NULL, *tar, *dest = make_dir(tmpdir, name);

	assert_int_equal(asprintf(&file, "%s.tar.gz", name) > 0, 1);
	tar = write_tar(tmpdir, file, ents, n);
	assert_int_equal(extract_path(tar, dest, opts, &res, err), -1);
	assert_null(res.top_dir);
	assert_true(dir_is_empty(dest));
	free(file);
	free(tar);
	free(dest);
}

/* Only the root's own entry ("./", from `tar -C EMPTYDIR .`): nothing to install. */
static void test_extract_empty(void **state)
{
	const struct ent ents[] = {{"./", AE_IFDIR, NULL}};
	struct diag err = DIAG_INIT;
	(void)state;

	expect_nothing_written("empty", ents, 1, &(struct extract_opts){.origin = "empty"}, &err);
	assert_string_equal(err.msg.buf, "'empty' is an empty archive");
	assert_non_null(strstr(err.hint.buf, HOTSWAP_INTERCEPT_PATH));
	diag_release(&err);
}

/* A cancel stops before the first entry; the caller, who set it, words the message. */
static void test_extract_cancelled(void **state)
{
	const struct ent ents[] = {{"top/lib/a", AE_IFREG, "x"}};
	static const volatile sig_atomic_t cancel = 1;
	struct diag err = DIAG_INIT;
	(void)state;

	expect_nothing_written("cancel", ents, 1,
	                       &(struct extract_opts){.origin = "cancel", .cancel = &cancel}, &err);
	assert_string_equal(err.msg.buf, FETCH_INTERRUPTED);
	assert_int_equal(err.hint.len, 0);
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
	    cmocka_unit_test(test_extract_symlink_sibling),
	    cmocka_unit_test(test_extract_too_many_entries),
	    cmocka_unit_test(test_extract_too_big_declared),
	    cmocka_unit_test(test_extract_lying_header),
	    cmocka_unit_test(test_extract_not_archive),
	    cmocka_unit_test(test_extract_empty),
	    cmocka_unit_test(test_extract_cancelled),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
