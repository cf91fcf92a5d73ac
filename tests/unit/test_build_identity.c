/*
 * common/build_identity.c: the GNU build-id read from a file by pread, held to what
 * llvm-readelf-22 -n prints for the same file, and the identity string's shape.
 */
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

#include "build_identity.h"
#include "hotswap_contract.h"

static char tmp[] = "/tmp/mirage-build-identity-XXXXXX";

/* "Build ID: <hex>" of llvm-readelf-22 -n path, or "" when it prints none. */
static void readelf_build_id(const char *path, char *out, size_t size)
{
	const char *readelf = getenv("LLVM_READELF");
	char cmd[8192], line[512];
	FILE *p;

	out[0] = '\0';
	assert_non_null(readelf);
	snprintf(cmd, sizeof(cmd), "'%s' -n '%s' 2>/dev/null", readelf, path);
	assert_non_null(p = popen(cmd, "r"));
	while (fgets(line, sizeof(line), p)) {
		const char *at = strstr(line, "Build ID: ");
		if (at && !out[0])
			snprintf(out, size, "%.*s", (int)strcspn(at + 10, "\r\n"), at + 10);
	}
	pclose(p);
}

static void test_same_as_llvm_readelf(void **state)
{
	const char *build = getenv("MIRAGE_BUILD");
	const char *libs[] = {HOTSWAP_REWRITE_LIB, HOTSWAP_MC_LIB, HOTSWAP_TRANSLATE_LIB,
	                      HOTSWAP_INTERCEPT_LIB};
	char path[4096], ours[200], theirs[200];
	ssize_t n;

	(void)state;
	assert_non_null(build);
	/* The test itself (an executable; by its name, as llvm-readelf's /proc/self is its own),
	 * and each library of the staged tree. */
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	assert_true(n > 0);
	path[n] = '\0';
	assert_true(elf_build_id_hex(path, ours, sizeof(ours)));
	readelf_build_id(path, theirs, sizeof(theirs));
	assert_string_equal(ours, theirs);
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		snprintf(path, sizeof(path), "%s/hotswap/lib/%s", build, libs[i]);
		assert_true(elf_build_id_hex(path, ours, sizeof(ours)));
		readelf_build_id(path, theirs, sizeof(theirs));
		assert_int_equal(strlen(theirs), 40);
		assert_string_equal(ours, theirs);
	}
	/* Too small a buffer is no build-id, not a cut one. */
	assert_false(elf_build_id_hex("/proc/self/exe", ours, 40));
}

static void test_no_build_id(void **state)
{
	char dir[sizeof(tmp)], path[sizeof(tmp) + 16], out[200];
	FILE *f;

	(void)state;
	memcpy(dir, tmp, sizeof(tmp));
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/x", dir);
	assert_false(elf_build_id_hex(path, out, sizeof(out))); /* missing */
	assert_non_null(f = fopen(path, "w"));
	fputs("not an ELF file at all, and long enough to be read as a header........", f);
	fclose(f);
	assert_false(elf_build_id_hex(path, out, sizeof(out)));
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0); /* a FIFO is neither opened for long nor read */
	assert_false(elf_build_id_hex(path, out, sizeof(out)));
	unlink(path);
	assert_false(elf_build_id_hex(dir, out, sizeof(out))); /* a directory */
	rmdir(dir);
}

static void test_identity_string(void **state)
{
	char lib_dir[4096], id[BUILD_IDENTITY_MAX], hex[200];

	(void)state;
	build_identity_format("9.9.9", NULL, id, sizeof(id));
	assert_string_equal(id, "9.9.9");
	build_identity_format("9.9.9", "/nonexistent", id, sizeof(id));
	assert_string_equal(id, "9.9.9 rewrite=none mc=none translate=none");
	snprintf(lib_dir, sizeof(lib_dir), "%s/hotswap/lib", getenv("MIRAGE_BUILD"));
	build_identity_format("1.0", lib_dir, id, sizeof(id));
	assert_true(!strncmp(id, "1.0 rewrite=", 12));
	snprintf(lib_dir + strlen(lib_dir), sizeof(lib_dir) - strlen(lib_dir), "/%s",
	         HOTSWAP_MC_LIB);
	assert_true(elf_build_id_hex(lib_dir, hex, sizeof(hex)));
	assert_non_null(strstr(id, hex));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_as_llvm_readelf),
	    cmocka_unit_test(test_no_build_id),
	    cmocka_unit_test(test_identity_string),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
