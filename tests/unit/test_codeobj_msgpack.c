/* libmirage_codeobj's msgpack pre-check (msgpack_check.h): well-formed documents pass, declared
 * counts larger than the bytes fail. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "msgpack_check.h"

#include <msgpack.h>
#include <string.h>

static void test_accepts_what_msgpack_writes(void **state)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	msgpack_pack_map(&pk, 3);
	msgpack_pack_str(&pk, 14);
	msgpack_pack_str_body(&pk, "amdhsa.kernels", 14);
	msgpack_pack_array(&pk, 20);
	for (int i = 0; i < 20; i++) {
		msgpack_pack_map(&pk, 2);
		msgpack_pack_str(&pk, 11);
		msgpack_pack_str_body(&pk, ".sgpr_count", 11);
		msgpack_pack_uint32(&pk, 100000u + (unsigned)i);
		msgpack_pack_str(&pk, 5);
		msgpack_pack_str_body(&pk, ".name", 5);
		msgpack_pack_bin(&pk, 3);
		msgpack_pack_bin_body(&pk, "abc", 3);
	}
	msgpack_pack_str(&pk, 1);
	msgpack_pack_str_body(&pk, "f", 1);
	msgpack_pack_double(&pk, 1.5);
	msgpack_pack_int64(&pk, -5);
	msgpack_pack_nil(&pk);
	assert_int_equal(cob_msgpack_check((const uint8_t *)sb.data, sb.size), 0);
	/* Every strict prefix is incomplete, and a trailing byte is a second document. */
	for (size_t n = 0; n < sb.size; n++)
		assert_int_equal(cob_msgpack_check((const uint8_t *)sb.data, n), -1);
	msgpack_sbuffer_write(&sb, "\xc0", 1);
	assert_int_equal(cob_msgpack_check((const uint8_t *)sb.data, sb.size), -1);
	msgpack_sbuffer_destroy(&sb);
}

static void test_refuses_counts_beyond_the_bytes(void **state)
{
	/* array32 claiming 2^32-1 elements, map32 claiming 2^31, str32 longer than the input */
	static const uint8_t huge_array[] = {0xdd, 0xff, 0xff, 0xff, 0xff, 0x01, 0x02};
	static const uint8_t huge_map[] = {0xdf, 0x80, 0x00, 0x00, 0x00, 0xc0, 0xc0};
	static const uint8_t long_str[] = {0xdb, 0x00, 0x00, 0x10, 0x00, 'a'};
	static const uint8_t nested[] = {0x91, 0x91, 0x91, 0xdc, 0xff, 0xff};
	static const uint8_t unused_type[] = {0xc1};
	assert_int_equal(cob_msgpack_check(huge_array, sizeof(huge_array)), -1);
	assert_int_equal(cob_msgpack_check(huge_map, sizeof(huge_map)), -1);
	assert_int_equal(cob_msgpack_check(long_str, sizeof(long_str)), -1);
	assert_int_equal(cob_msgpack_check(nested, sizeof(nested)), -1);
	assert_int_equal(cob_msgpack_check(unused_type, sizeof(unused_type)), -1);
	assert_int_equal(cob_msgpack_check(NULL, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_accepts_what_msgpack_writes),
	    cmocka_unit_test(test_refuses_counts_beyond_the_bytes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
