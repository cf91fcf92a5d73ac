/* utf8_invalid_at: RFC 3629 well-formedness, offset of the first bad byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "utf8.h"

#include <string.h>

static size_t at(const char *s)
{
	return utf8_invalid_at(s, strlen(s));
}

static void test_valid(void **state)
{
	assert_int_equal(at(""), 0);
	assert_int_equal(at("plain ascii"), 11);
	assert_int_equal(at("caf\xc3\xa9"), 5);          /* U+00E9 */
	assert_int_equal(at("\xe2\x98\x95"), 3);         /* U+2615 */
	assert_int_equal(at("\xed\x9f\xbf"), 3);         /* U+D7FF, just below the surrogates */
	assert_int_equal(at("\xf0\x9f\x98\x80"), 4);     /* U+1F600 */
	assert_int_equal(at("\xf4\x8f\xbf\xbf"), 4);     /* U+10FFFF, the last code point */
	assert_int_equal(utf8_invalid_at("a\0b", 3), 3); /* NUL is the caller's business */
}

static void test_invalid(void **state)
{
	assert_int_equal(at("caf\xe9"), 3);          /* Latin-1 */
	assert_int_equal(at("ab\x80"), 2);           /* a lone continuation byte */
	assert_int_equal(at("\xc0\xaf"), 0);         /* overlong '/' */
	assert_int_equal(at("\xc1\xbf"), 0);         /* overlong */
	assert_int_equal(at("\xe0\x80\xaf"), 0);     /* overlong, three bytes */
	assert_int_equal(at("\xf0\x80\x80\xaf"), 0); /* overlong, four bytes */
	assert_int_equal(at("\xed\xa0\x80"), 0);     /* U+D800, a surrogate */
	assert_int_equal(at("\xf4\x90\x80\x80"), 0); /* U+110000 */
	assert_int_equal(at("\xf5\x80\x80\x80"), 0); /* F5..FF never start a sequence */
	assert_int_equal(at("\xff"), 0);
	assert_int_equal(at("ok\xe2\x98"), 2);               /* truncated at the end */
	assert_int_equal(at("ok\xe2\x98x"), 2);              /* truncated before an ASCII byte */
	assert_int_equal(at("\xf0\x9f\x98x"), 0);            /* a bad fourth byte */
	assert_int_equal(utf8_invalid_at("\xc3\xa9", 1), 0); /* the length cuts the sequence */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_valid),
	    cmocka_unit_test(test_invalid),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
