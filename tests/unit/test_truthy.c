/* One truthiness rule for every switch; strict parsing for written booleans. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "truthy.h"

static void test_env_truthy(void **state)
{
	const char *falses[] = {"", "0", "off", "OFF", "false", "False", "no", "NO", " no ", "\t0"};
	const char *trues[] = {"1", "yes", "on", "true", "TRUE", "2", "enabled", "x", "00"};
	assert_false(env_truthy(NULL));
	for (size_t i = 0; i < sizeof(falses) / sizeof(*falses); i++)
		assert_false(env_truthy(falses[i]));
	for (size_t i = 0; i < sizeof(trues) / sizeof(*trues); i++)
		assert_true(env_truthy(trues[i]));
}

static void test_parse_bool(void **state)
{
	bool b = false;
	assert_int_equal(parse_bool("Yes", &b), 0);
	assert_true(b);
	assert_int_equal(parse_bool("0", &b), 0);
	assert_false(b);
	assert_int_equal(parse_bool("on", &b), 0);
	assert_true(b);
	assert_int_equal(parse_bool("", &b), -1);
	assert_int_equal(parse_bool("maybe", &b), -1);
	assert_int_equal(parse_bool(NULL, &b), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_env_truthy),
	    cmocka_unit_test(test_parse_bool),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
