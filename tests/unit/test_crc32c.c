/*
 * cache/crc32c.c against the CRC-32C values RFC 3720 (B.4) and the usual check string publish
 * (computed by nobody here), on both paths, and the SSE4.2 path held to the table on every
 * length and alignment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "crc32c.h"

static void known_values(void **state)
{
	uint8_t buf[32];

	(void)state;
	for (int portable = 0; portable < 2; portable++) {
		crc32c_portable_only = portable;
		assert_int_equal(crc32c("123456789", 9), 0xe3069283u);
		assert_int_equal(crc32c("", 0), 0);
		memset(buf, 0, sizeof(buf));
		assert_int_equal(crc32c(buf, sizeof(buf)), 0x8a9136aau);
		memset(buf, 0xff, sizeof(buf));
		assert_int_equal(crc32c(buf, sizeof(buf)), 0x62a8ab43u);
		for (int i = 0; i < 32; i++)
			buf[i] = (uint8_t)i;
		assert_int_equal(crc32c(buf, sizeof(buf)), 0x46dd794eu);
		for (int i = 0; i < 32; i++)
			buf[i] = (uint8_t)(31 - i);
		assert_int_equal(crc32c(buf, sizeof(buf)), 0x113fdb5cu);
	}
	crc32c_portable_only = false;
}

/* Every length to 300 at every alignment, and 128 KiB, agree between the two paths. */
static void paths_agree(void **state)
{
	static uint8_t buf[128 * 1024 + 8];
	uint64_t x = 0x9e3779b97f4a7c15u;

	(void)state;
	for (size_t i = 0; i < sizeof(buf); i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		buf[i] = (uint8_t)x;
	}
	for (size_t off = 0; off < 8; off++)
		for (size_t n = 0; n <= 300; n++) {
			uint32_t fast, slow;
			crc32c_portable_only = false;
			fast = crc32c(buf + off, n);
			crc32c_portable_only = true;
			slow = crc32c(buf + off, n);
			assert_int_equal(fast, slow);
		}
	crc32c_portable_only = true;
	uint32_t slow = crc32c(buf + 3, 128 * 1024);
	crc32c_portable_only = false;
	assert_int_equal(crc32c(buf + 3, 128 * 1024), slow);
	/* one flipped bit changes it */
	buf[1000] ^= 4;
	assert_int_not_equal(crc32c(buf + 3, 128 * 1024), slow);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(known_values),
	    cmocka_unit_test(paths_agree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
