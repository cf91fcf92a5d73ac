/*
 * common/sha256.c against the digests FIPS 180-4's examples and NIST's test vectors publish
 * (computed by nobody here), and one message fed in every split against itself whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sha256.h"

static void hex(const uint8_t d[SHA256_LEN], char out[2 * SHA256_LEN + 1])
{
	for (int i = 0; i < SHA256_LEN; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void check(const void *data, size_t size, const char *want)
{
	struct sha256 s;
	uint8_t d[SHA256_LEN];
	char got[2 * SHA256_LEN + 1];

	sha256_init(&s);
	sha256_update(&s, data, size);
	sha256_final(&s, d);
	hex(d, got);
	assert_string_equal(got, want);
}

/* Each test runs the vectors on the path the processor gets, then on the portable one. */
static void published_vectors(void)
{
	check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	check("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
	      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	check(
	    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnop"
	    "qrlmnopqrsmnopqrstnopqrstu",
	    112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_published_vectors(void **state)
{
	(void)state;
	published_vectors();
	sha256_portable_only = true;
	published_vectors();
	sha256_portable_only = false;
}

static void test_a_million_a(void **state)
{
	static char a[1000000];
	(void)state;
	memset(a, 'a', sizeof(a));
	check(a, sizeof(a), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	sha256_portable_only = true;
	check(a, sizeof(a), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	sha256_portable_only = false;
}

/* Both paths agree on every length from 0 to 1100 bytes. */
static void test_the_two_paths_agree(void **state)
{
	static uint8_t msg[1100];
	uint8_t fast[SHA256_LEN], portable[SHA256_LEN];
	struct sha256 s;

	(void)state;
	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 2654435761u >> 13);
	for (size_t len = 0; len <= sizeof(msg); len++) {
		sha256_init(&s);
		sha256_update(&s, msg, len);
		sha256_final(&s, fast);
		sha256_portable_only = true;
		sha256_init(&s);
		sha256_update(&s, msg, len);
		sha256_final(&s, portable);
		sha256_portable_only = false;
		assert_memory_equal(fast, portable, SHA256_LEN);
	}
}

static void test_every_split(void **state)
{
	uint8_t msg[300], whole[SHA256_LEN], parts[SHA256_LEN];
	struct sha256 s;

	(void)state;
	for (size_t i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)(i * 131 + 7);
	for (size_t len = 0; len <= sizeof(msg); len += 17) {
		sha256_init(&s);
		sha256_update(&s, msg, len);
		sha256_final(&s, whole);
		for (size_t cut = 0; cut <= len; cut++) {
			sha256_init(&s);
			sha256_update(&s, msg, cut);
			sha256_update(&s, msg + cut, len - cut);
			sha256_final(&s, parts);
			assert_memory_equal(whole, parts, SHA256_LEN);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_published_vectors),
	    cmocka_unit_test(test_a_million_a),
	    cmocka_unit_test(test_every_split),
	    cmocka_unit_test(test_the_two_paths_agree),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
