/*
 * The on-disk translation cache: root selection, verified hits, corrupt entries removed, and
 * the trust rules (owner, mode, links, FIFOs, sizes, stale temp files).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "cache_disk.h"
#include "hotswap_contract.h"

#define KEY "ab0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd"

static char root[256];
static struct hsi_disk disk = {-1};
static char why[640];

static void open_root(void)
{
	why[0] = '\0';
	assert_int_equal(hsi_disk_open(&disk, root, why, sizeof(why)), 0);
	assert_string_equal(why, "");
}

static int make_root(void **state)
{
	snprintf(root, sizeof(root), "/tmp/test_cache_disk.XXXXXX");
	assert_non_null(mkdtemp(root));
	open_root();
	return 0;
}

static int remove_root(void **state)
{
	char cmd[700];
	hsi_disk_close(&disk);
	snprintf(cmd, sizeof(cmd), "chmod -R u+w '%s'; rm -rf '%s'", root, root);
	return system(cmd) == 0 ? 0 : -1;
}

static const struct hsi_disk_meta meta = {
    .input_sha256 = "00",
    .input_size = 4,
    .source_isa = "amdgcn-amd-amdhsa--gfx1250",
    .target_isa = "amdgcn-amd-amdhsa--gfx1250",
    .flags = 5,
    .rewriter_version = "1.2.3",
    .kernels = 2,
};

static const char payload[] = "rewritten code object";
static const struct hsi_blob blob = {payload, sizeof(payload), 2, NULL};

static void path_of(char *buf, size_t n, const char *suffix)
{
	snprintf(buf, n, "%s/ab/%s%s", root, KEY, suffix);
}

static void store(void)
{
	assert_int_equal(hsi_disk_store(&disk, KEY, &blob, &meta, why, sizeof(why)), 0);
}

static enum hsi_disk_result lookup(void)
{
	struct hsi_blob out = {0};
	enum hsi_disk_result r;

	why[0] = '\0';
	r = hsi_disk_lookup(&disk, KEY, "1.2.3", &out, why, sizeof(why));
	if (r == HSI_DISK_HIT)
		free((void *)out.data);
	return r;
}

static mode_t mode_of(const char *path)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	return st.st_mode & 07777;
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void test_store_and_hit(void **state)
{
	struct hsi_blob out = {0};
	char p[512];

	assert_int_equal(lookup(), HSI_DISK_MISS);
	store();
	path_of(p, sizeof(p), ".json");
	assert_int_equal(mode_of(p), 0600);
	path_of(p, sizeof(p), ".co");
	assert_int_equal(mode_of(p), 0600);
	snprintf(p, sizeof(p), "%s/ab", root);
	assert_int_equal(mode_of(p), 0700);
	assert_int_equal(hsi_disk_lookup(&disk, KEY, "1.2.3", &out, why, sizeof(why)),
	                 HSI_DISK_HIT);
	assert_int_equal(out.size, sizeof(payload));
	assert_memory_equal(out.data, payload, sizeof(payload));
	assert_int_equal(out.kernels, 2);
	free((void *)out.data);
}

/* hsi_disk_lookup_into: the bytes land where the caller's reserve says, and only there. */
struct room {
	char buf[64];
	size_t asked;
	int calls;
	bool refuse;
};

static void *reserve(void *ctx, size_t size)
{
	struct room *r = ctx;
	r->calls++;
	r->asked = size;
	return r->refuse || size > sizeof(r->buf) ? NULL : r->buf;
}

static void test_lookup_into_the_callers_place(void **state)
{
	struct room r = {.refuse = false};
	struct hsi_disk_place place = {reserve, &r};
	struct hsi_blob out = {0};
	char p[512];
	FILE *f;

	store();
	memset(r.buf, 'z', sizeof(r.buf));
	assert_int_equal(hsi_disk_lookup_into(&disk, KEY, "1.2.3", &place, &out, why, sizeof(why)),
	                 HSI_DISK_HIT);
	assert_int_equal(r.calls, 1);
	assert_int_equal(r.asked, sizeof(payload)); /* the sidecar's size, before a byte is read */
	assert_ptr_equal(out.data, r.buf);          /* not a buffer of its own: nothing to free */
	assert_memory_equal(r.buf, payload, sizeof(payload));
	assert_int_equal(r.buf[sizeof(payload)], 'z'); /* and not a byte past it */
	assert_int_equal(out.kernels, 2);
	/* A reserve that declines: a buffer of its own, as hsi_disk_lookup gives. */
	r.refuse = true;
	assert_int_equal(hsi_disk_lookup_into(&disk, KEY, "1.2.3", &place, &out, why, sizeof(why)),
	                 HSI_DISK_HIT);
	assert_ptr_not_equal(out.data, r.buf);
	assert_memory_equal(out.data, payload, sizeof(payload));
	free((void *)out.data);
	/* A corrupt entry read into the place is still judged, refused and removed. */
	r.refuse = false;
	path_of(p, sizeof(p), ".co");
	f = fopen(p, "r+b");
	assert_non_null(f);
	fputc('X', f);
	fclose(f);
	assert_int_equal(hsi_disk_lookup_into(&disk, KEY, "1.2.3", &place, &out, why, sizeof(why)),
	                 HSI_DISK_INVALID);
	assert_non_null(strstr(why, "does not match its sidecar's output_crc32c"));
	assert_false(exists(p));
}

static void test_flipped_byte_is_invalid(void **state)
{
	char p[512];
	FILE *f;

	store();
	path_of(p, sizeof(p), ".co");
	f = fopen(p, "r+b");
	assert_non_null(f);
	fseek(f, 3, SEEK_SET);
	fputc('X', f);
	fclose(f);
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, "does not match its sidecar's output_crc32c"));
	assert_false(exists(p)); /* removed, never served */
	assert_int_equal(lookup(), HSI_DISK_MISS);
}

/* The stored sidecar with field's value replaced by value (NULL: the field left out). */
static void edit_sidecar(const char *field, const char *value)
{
	char p[512], text[4096], out[4096], *at, *end;
	FILE *f;
	size_t n;

	path_of(p, sizeof(p), ".json");
	f = fopen(p, "rb");
	assert_non_null(f);
	n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	at = strstr(text, field);
	assert_non_null(at);
	at--; /* its opening quote */
	end = strchr(at, ',');
	assert_non_null(end);
	if (value)
		snprintf(out, sizeof(out), "%.*s\"%s\": \"%s\"%s", (int)(at - text), text, field,
		         value, end);
	else
		snprintf(out, sizeof(out), "%.*s%s", (int)(at - text), text, end + 1);
	f = fopen(p, "wb");
	assert_non_null(f);
	fputs(out, f);
	fclose(f);
}

static void flip_byte(void)
{
	char p[512];
	FILE *f;

	path_of(p, sizeof(p), ".co");
	f = fopen(p, "r+b");
	assert_non_null(f);
	fputc('X', f);
	fclose(f);
}

/*
 * Which check runs: a hit checks the CRC-32C, a sidecar from before it the SHA-256, and
 * mirage cache verify (hsi_disk_verify) both, so an entry whose sidecar disagrees with itself
 * is found there.
 */
static void test_checks_by_sidecar(void **state)
{
	struct hsi_blob out = {0};

	/* An older sidecar, without output_crc32c: the SHA-256 judges a hit. */
	store();
	edit_sidecar("output_crc32c", NULL);
	assert_int_equal(hsi_disk_lookup(&disk, KEY, "1.2.3", &out, why, sizeof(why)),
	                 HSI_DISK_HIT);
	free((void *)out.data);
	flip_byte();
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, "does not match its sidecar's output_sha256"));
	/* A wrong CRC: refused by a hit and by verify, though the SHA-256 is right. */
	store();
	edit_sidecar("output_crc32c", "00000000");
	assert_int_equal(hsi_disk_verify(&disk, KEY, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "does not match its sidecar's output_crc32c"));
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, "does not match its sidecar's output_crc32c"));
	/* A wrong SHA-256 with a right CRC: a hit serves it, verify finds it. */
	store();
	edit_sidecar("output_sha256",
	             "0000000000000000000000000000000000000000000000000000000000000000");
	assert_int_equal(hsi_disk_verify(&disk, KEY, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "does not match its sidecar's output_sha256"));
	assert_int_equal(hsi_disk_lookup(&disk, KEY, "1.2.3", &out, why, sizeof(why)),
	                 HSI_DISK_HIT);
	free((void *)out.data);
	/* A CRC that is no CRC: the sidecar is invalid. */
	for (size_t i = 0; i < 3; i++) {
		static const char *const bad[] = {"1234567", "123456789", "12345g78"};
		store();
		edit_sidecar("output_crc32c", bad[i]);
		assert_int_equal(lookup(), HSI_DISK_INVALID);
		assert_string_equal(why, "sidecar has no valid output_crc32c");
	}
}

static void test_other_version_or_truncation_is_invalid(void **state)
{
	struct hsi_blob out = {0};
	char p[512];

	store();
	assert_int_equal(hsi_disk_lookup(&disk, KEY, "9.9.9", &out, why, sizeof(why)),
	                 HSI_DISK_INVALID);
	assert_string_equal(why, "sidecar is from another rewriter version");
	store();
	path_of(p, sizeof(p), ".co");
	assert_int_equal(truncate(p, 3), 0);
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, ".co' is 3 bytes, its sidecar says 22"));
	store();
	path_of(p, sizeof(p), ".json");
	assert_int_equal(unlink(p), 0);
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, "has no sidecar"));
}

/* A sidecar that is not one (cut short, garbage, a nested value): invalid, named, removed. */
static void test_unreadable_sidecar_is_invalid(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
	    {"{\"key\": \"ab",
	     "sidecar cannot be read (at byte 11: the text ends inside a string)"},
	    {"not json", "sidecar cannot be read (at byte 0: a JSON object expected)"},
	    {"{\"key\": {}}", "sidecar cannot be read (at byte 8: a nested object"},
	};
	char p[512], co[512];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f;
		store();
		path_of(p, sizeof(p), ".json");
		path_of(co, sizeof(co), ".co");
		f = fopen(p, "w");
		assert_non_null(f);
		fputs(bad[i].text, f);
		fclose(f);
		assert_int_equal(lookup(), HSI_DISK_INVALID);
		if (!strstr(why, bad[i].why))
			fail_msg("'%s': why '%s', want '%s'", bad[i].text, why, bad[i].why);
		assert_false(exists(co)); /* removed, never served */
	}
}

/* A root or shard anyone may write into could hold planted entries: never read, never written. */
static void test_group_or_world_writable_is_bypassed(void **state)
{
	char shard[300];

	hsi_disk_close(&disk);
	assert_int_equal(chmod(root, 0777), 0);
	assert_int_equal(hsi_disk_open(&disk, root, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is writable by group or other (mode 777)"));
	assert_non_null(strstr(why, root));
	assert_int_equal(chmod(root, 0770), 0);
	assert_int_equal(hsi_disk_open(&disk, root, why, sizeof(why)), -1);
	assert_int_equal(chmod(root, 0700), 0);
	open_root();
	store();
	snprintf(shard, sizeof(shard), "%s/ab", root);
	assert_int_equal(chmod(shard, 0757), 0);
	assert_int_equal(lookup(), HSI_DISK_BYPASSED);
	assert_string_equal(why, "shard 'ab' is writable by group or other (mode 757)");
	assert_int_equal(hsi_disk_store(&disk, KEY, &blob, &meta, why, sizeof(why)), -1);
}

static void test_other_owner_is_bypassed(void **state)
{
	char shard[300];

	if (geteuid() != 0)
		skip(); /* chown to another uid needs root (CI runs as root) */
	store();
	snprintf(shard, sizeof(shard), "%s/ab", root);
	assert_int_equal(chown(shard, 65534, 65534), 0);
	assert_int_equal(lookup(), HSI_DISK_BYPASSED);
	assert_string_equal(why, "shard 'ab' is owned by uid 65534, not by uid 0");
	hsi_disk_close(&disk);
	assert_int_equal(chown(root, 65534, 65534), 0);
	assert_int_equal(hsi_disk_open(&disk, root, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "is owned by uid 65534, not by uid 0"));
}

static void test_root_kinds(void **state)
{
	char p[400], link[400];

	hsi_disk_close(&disk);
	/* Missing: created, with its missing parents, 0700. */
	snprintf(p, sizeof(p), "%s/a/b", root);
	assert_int_equal(hsi_disk_open(&disk, p, why, sizeof(why)), 0);
	assert_int_equal(mode_of(p), 0700);
	snprintf(link, sizeof(link), "%s/a", root);
	assert_int_equal(mode_of(link), 0700);
	hsi_disk_close(&disk);
	/* A regular file: bypassed, named. */
	snprintf(p, sizeof(p), "%s/file", root);
	fclose(fopen(p, "w"));
	assert_int_equal(hsi_disk_open(&disk, p, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "/file' is not a directory"));
	/* A symbolic link (even to a good directory): bypassed. */
	snprintf(link, sizeof(link), "%s/link", root);
	assert_int_equal(symlink(root, link), 0);
	assert_int_equal(hsi_disk_open(&disk, link, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "/link' is a symbolic link"));
	open_root();
}

/* A shard planted as a link to another directory: nothing read from or written into it. */
static void test_shard_symlink_is_never_followed(void **state)
{
	char victim[300], shard[300], p[512];
	char cmd[700];

	snprintf(victim, sizeof(victim), "%s/victim", root);
	assert_int_equal(mkdir(victim, 0700), 0);
	snprintf(shard, sizeof(shard), "%s/ab", root);
	assert_int_equal(symlink(victim, shard), 0);
	assert_int_equal(lookup(), HSI_DISK_BYPASSED);
	assert_string_equal(why, "shard 'ab' is a symbolic link");
	assert_int_equal(hsi_disk_store(&disk, KEY, &blob, &meta, why, sizeof(why)), -1);
	assert_string_equal(why, "shard 'ab' is a symbolic link");
	snprintf(p, sizeof(p), "%s/%s.co", victim, KEY);
	assert_false(exists(p));
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s')\"", victim);
	assert_int_equal(system(cmd), 0);
	/* An entry planted as a link is rejected and the link (not its target) removed. */
	assert_int_equal(unlink(shard), 0);
	store();
	path_of(p, sizeof(p), ".co");
	assert_int_equal(unlink(p), 0);
	snprintf(victim, sizeof(victim), "%s/victim/x", root);
	fclose(fopen(victim, "w"));
	assert_int_equal(symlink(victim, p), 0);
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, ".co' is a symbolic link"));
	assert_true(exists(victim));
	assert_false(exists(p));
}

static void test_fifo_entry_never_blocks(void **state)
{
	char p[512];

	store();
	path_of(p, sizeof(p), ".co");
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkfifo(p, 0600), 0);
	alarm(10); /* a blocking open would hang here: SIGALRM fails the test instead */
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, ".co' is not a regular file"));
	store();
	path_of(p, sizeof(p), ".json");
	assert_int_equal(unlink(p), 0);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, ".json' is not a regular file"));
	alarm(0);
}

static long maxrss_kib(void)
{
	struct rusage ru;
	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

/* A 3 GiB sparse object or a huge sidecar is rejected by its size, never read. */
static void test_huge_entries_are_not_read(void **state)
{
	char p[512];
	long before = maxrss_kib();
	clock_t t0 = clock();

	store();
	path_of(p, sizeof(p), ".co");
	assert_int_equal(truncate(p, 3LL << 30), 0);
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, ".co' is 3221225472 bytes, its sidecar says 22"));
	store();
	path_of(p, sizeof(p), ".json");
	assert_int_equal(truncate(p, 3LL << 30), 0);
	assert_int_equal(lookup(), HSI_DISK_INVALID);
	assert_non_null(strstr(why, ".json': larger than expected"));
	assert_true(maxrss_kib() - before < 64 * 1024); /* reading either would cost 3 GiB */
	assert_true((clock() - t0) / CLOCKS_PER_SEC < 2);
}

static void set_age(const char *path, time_t seconds_ago)
{
	struct timespec ts[2] = {{time(NULL) - seconds_ago, 0}, {time(NULL) - seconds_ago, 0}};
	assert_int_equal(utimensat(AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW), 0);
}

/* A killed writer's temp files go once they are stale; links, FIFOs and fresh ones stay. */
static void test_stale_temps_are_swept(void **state)
{
	char stale[512], fresh[512], link[512], fifo[512], other[512], p[512];
	const time_t old = HSI_DISK_STALE_TEMP_SECONDS + 60;

	store();
	path_of(stale, sizeof(stale), ".co.tmp.4242.0");
	path_of(fresh, sizeof(fresh), ".co.tmp.4242.1");
	path_of(link, sizeof(link), ".co.tmp.4242.2");
	path_of(fifo, sizeof(fifo), ".json.tmp.4242.3");
	path_of(other, sizeof(other), ".co.keep");
	fclose(fopen(stale, "w"));
	fclose(fopen(fresh, "w"));
	fclose(fopen(other, "w"));
	path_of(p, sizeof(p), ".co");
	assert_int_equal(symlink(p, link), 0);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	set_age(stale, old);
	set_age(link, old);
	set_age(fifo, old);
	set_age(other, old);
	store();
	assert_false(exists(stale));
	assert_true(exists(fresh));
	assert_true(exists(link));
	assert_true(exists(fifo));
	assert_true(exists(other));
	assert_true(exists(p)); /* the link's target */
}

static void test_root_selection(void **state)
{
	char *r;

	unsetenv(HOTSWAP_ENV_CACHE_DISABLE);
	setenv(HOTSWAP_ENV_CACHE_DIR, "/x/cache", 1);
	r = hsi_disk_root();
	assert_string_equal(r, "/x/cache");
	free(r);
	setenv(HOTSWAP_ENV_CACHE_DIR, "", 1);
	assert_null(hsi_disk_root());
	unsetenv(HOTSWAP_ENV_CACHE_DIR);
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	r = hsi_disk_root();
	assert_string_equal(r, "/xdg/mirage/hotswap");
	free(r);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	r = hsi_disk_root();
	assert_string_equal(r, "/home/u/.cache/mirage/hotswap");
	free(r);
	setenv(HOTSWAP_ENV_CACHE_DISABLE, "on", 1);
	assert_null(hsi_disk_root());
	setenv(HOTSWAP_ENV_CACHE_DISABLE, "no", 1);
	r = hsi_disk_root();
	assert_non_null(r);
	free(r);
}

#define DISK_TEST(t) cmocka_unit_test_setup_teardown(t, make_root, remove_root)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    DISK_TEST(test_store_and_hit),
	    DISK_TEST(test_lookup_into_the_callers_place),
	    DISK_TEST(test_unreadable_sidecar_is_invalid),
	    DISK_TEST(test_checks_by_sidecar),
	    DISK_TEST(test_flipped_byte_is_invalid),
	    DISK_TEST(test_other_version_or_truncation_is_invalid),
	    DISK_TEST(test_group_or_world_writable_is_bypassed),
	    DISK_TEST(test_other_owner_is_bypassed),
	    DISK_TEST(test_root_kinds),
	    DISK_TEST(test_shard_symlink_is_never_followed),
	    DISK_TEST(test_fifo_entry_never_blocks),
	    DISK_TEST(test_huge_entries_are_not_read),
	    DISK_TEST(test_stale_temps_are_swept),
	    cmocka_unit_test(test_root_selection),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
