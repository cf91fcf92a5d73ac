/* SHA-256 of files (against known digests) and parsing of user-typed digests. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "checksum.h"
#include "file_sha256.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_file_digest(void **state)
{
	char path[] = "/tmp/mirage-sha-XXXXXX", hex[SHA256_HEX_LEN + 1];
	struct diag err = DIAG_INIT;
	int fd = mkstemp(path);
	(void)state;

	assert_true(fd >= 0);
	assert_int_equal(sha256_fd_hex(fd, "empty", hex, &err), 0); /* the empty file */
	assert_string_equal(hex,
	                    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* The whole file from its start, whatever the descriptor's offset (here: its end). */
	assert_int_equal(write(fd, "abc", 3), 3);
	assert_int_equal(sha256_fd_hex(fd, "abc", hex, &err), 0);
	assert_string_equal(hex,
	                    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	assert_int_equal(lseek(fd, 0, SEEK_CUR), 3); /* and the offset is left alone */
	close(fd);
	unlink(path);
	/* A descriptor open for writing only cannot be read: the message names the origin. */
	fd = open("/dev/null", O_WRONLY);
	assert_int_equal(sha256_fd_hex(fd, "write-only", hex, &err), -1);
	assert_non_null(strstr(err.msg.buf, "cannot read 'write-only'"));
	close(fd);
	diag_release(&err);
}

static void test_parse(void **state)
{
	char out[SHA256_HEX_LEN + 1];
	const char *lower = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
	(void)state;
	assert_int_equal(sha256_parse_hex(lower, out), 0);
	assert_string_equal(out, lower);
	assert_int_equal(
	    sha256_parse_hex(
	        "SHA256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD", out),
	    0);
	assert_string_equal(out, lower);
	assert_int_equal(sha256_parse_hex("abc", out), -1);
	assert_int_equal(sha256_parse_hex("", out), -1);
	/* 64 characters, one not hex. */
	assert_int_equal(
	    sha256_parse_hex("ga7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	                     out),
	    -1);
	/* 65 hex digits. */
	assert_int_equal(
	    sha256_parse_hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad0",
	                     out),
	    -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_file_digest),
	    cmocka_unit_test(test_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
