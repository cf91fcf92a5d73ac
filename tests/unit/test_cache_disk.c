/* The on-disk translation cache: root selection, verified hits, corrupt entries removed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cache_disk.h"

#define KEY "ab0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd"

static char root[256];

static int make_root(void **state)
{
	snprintf(root, sizeof(root), "/tmp/test_cache_disk.XXXXXX");
	assert_non_null(mkdtemp(root));
	return 0;
}

static int remove_root(void **state)
{
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
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

static void path_of(char *buf, size_t n, const char *suffix)
{
	snprintf(buf, n, "%s/ab/%s%s", root, KEY, suffix);
}

static void test_store_and_hit(void **state)
{
	const char payload[] = "rewritten code object";
	struct hsi_blob in = {payload, sizeof(payload), 2}, out = {0};
	char p[512];
	struct stat st;

	assert_int_equal(hsi_disk_lookup(root, KEY, "1.2.3", &out), HSI_DISK_MISS);
	assert_int_equal(hsi_disk_store(root, KEY, &in, &meta), 0);
	path_of(p, sizeof(p), ".json");
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(hsi_disk_lookup(root, KEY, "1.2.3", &out), HSI_DISK_HIT);
	assert_int_equal(out.size, sizeof(payload));
	assert_memory_equal(out.data, payload, sizeof(payload));
	assert_int_equal(out.kernels, 2);
	free((void *)out.data);
}

static void test_flipped_byte_is_invalid(void **state)
{
	const char payload[] = "another object";
	struct hsi_blob in = {payload, sizeof(payload), 1}, out = {0};
	char p[512];
	FILE *f;
	struct stat st;

	assert_int_equal(hsi_disk_store(root, KEY, &in, &meta), 0);
	path_of(p, sizeof(p), ".co");
	f = fopen(p, "r+b");
	assert_non_null(f);
	fseek(f, 3, SEEK_SET);
	fputc('X', f);
	fclose(f);
	assert_int_equal(hsi_disk_lookup(root, KEY, "1.2.3", &out), HSI_DISK_INVALID);
	assert_int_not_equal(stat(p, &st), 0); /* removed, never served */
	assert_int_equal(hsi_disk_lookup(root, KEY, "1.2.3", &out), HSI_DISK_MISS);
}

static void test_other_version_or_truncation_is_invalid(void **state)
{
	const char payload[] = "object bytes";
	struct hsi_blob in = {payload, sizeof(payload), 1}, out = {0};
	char p[512];

	assert_int_equal(hsi_disk_store(root, KEY, &in, &meta), 0);
	assert_int_equal(hsi_disk_lookup(root, KEY, "9.9.9", &out), HSI_DISK_INVALID);
	assert_int_equal(hsi_disk_store(root, KEY, &in, &meta), 0);
	path_of(p, sizeof(p), ".co");
	assert_int_equal(truncate(p, 3), 0);
	assert_int_equal(hsi_disk_lookup(root, KEY, "1.2.3", &out), HSI_DISK_INVALID);
	assert_int_equal(hsi_disk_store(root, KEY, &in, &meta), 0);
	path_of(p, sizeof(p), ".json");
	assert_int_equal(unlink(p), 0);
	assert_int_equal(hsi_disk_lookup(root, KEY, "1.2.3", &out), HSI_DISK_INVALID);
}

static void test_root_selection(void **state)
{
	char *r;

	unsetenv("HSA_HOTSWAP_CACHE_DISABLE");
	setenv("HSA_HOTSWAP_CACHE_DIR", "/x/cache", 1);
	r = hsi_disk_root();
	assert_string_equal(r, "/x/cache");
	free(r);
	setenv("HSA_HOTSWAP_CACHE_DIR", "", 1);
	assert_null(hsi_disk_root());
	unsetenv("HSA_HOTSWAP_CACHE_DIR");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	r = hsi_disk_root();
	assert_string_equal(r, "/xdg/mirage/hotswap");
	free(r);
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/home/u", 1);
	r = hsi_disk_root();
	assert_string_equal(r, "/home/u/.cache/mirage/hotswap");
	free(r);
	setenv("HSA_HOTSWAP_CACHE_DISABLE", "on", 1);
	assert_null(hsi_disk_root());
	setenv("HSA_HOTSWAP_CACHE_DISABLE", "no", 1);
	r = hsi_disk_root();
	assert_non_null(r);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_store_and_hit, make_root, remove_root),
	    cmocka_unit_test_setup_teardown(test_flipped_byte_is_invalid, make_root, remove_root),
	    cmocka_unit_test_setup_teardown(test_other_version_or_truncation_is_invalid, make_root,
	                                    remove_root),
	    cmocka_unit_test(test_root_selection),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
