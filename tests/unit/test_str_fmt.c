/* str_fmt (and the str_vfmt under it): the libraries' non-aborting formatted strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "str_fmt.h"

#include <stdlib.h>
#include <string.h>

static void test_formats(void **state)
{
	char *s = str_fmt("%s: %u bytes at 0x%llx", "a.co", 7u, 0x10ull);
	char *big;
	(void)state;
	assert_string_equal(s, "a.co: 7 bytes at 0x10");
	free(s);
	s = str_fmt("%s=%d", "rc", -2); /* str_fmt is str_vfmt's caller: both are tested */
	assert_string_equal(s, "rc=-2");
	free(s);
	s = str_fmt("%s", "");
	assert_string_equal(s, "");
	free(s);
	/* Longer than any fixed buffer a caller might have guessed. */
	s = str_fmt("%8192s|", "x");
	assert_int_equal(strlen(s), 8193);
	big = s;
	assert_int_equal(big[8191], 'x');
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_formats),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
