/* The extraction's string set: membership by prefix length, growth, many keys. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "path_set.h"

#include <stdio.h>
#include <string.h>

static void test_basics(void **state)
{
	struct path_set set = PATH_SET_INIT;
	(void)state;
	assert_false(path_set_has(&set, "a", 1)); /* empty, no table yet */
	path_set_add(&set, "lib/d");
	path_set_add(&set, "lib/d"); /* twice: one key */
	assert_int_equal(set.nr, 1);
	assert_true(path_set_has(&set, "lib/d", 5));
	assert_true(path_set_has(&set, "lib/d/x", 5)); /* a prefix of a longer path */
	assert_false(path_set_has(&set, "lib/d/x", 7));
	assert_false(path_set_has(&set, "lib/", 4));
	assert_false(path_set_has(&set, "lib/dd", 6));
	path_set_clear(&set);
	assert_false(path_set_has(&set, "lib/d", 5));
	path_set_add(&set, ""); /* reusable after clear; the empty key is a key */
	assert_true(path_set_has(&set, "x", 0));
	path_set_clear(&set);
}

static void test_many(void **state)
{
	struct path_set set = PATH_SET_INIT;
	char key[32];
	(void)state;
	for (int i = 0; i < 100000; i += 2) {
		snprintf(key, sizeof(key), "d/%d", i);
		path_set_add(&set, key);
	}
	assert_int_equal(set.nr, 50000);
	assert_true(set.cap >= 2 * set.nr);
	for (int i = 0; i < 100000; i++) {
		snprintf(key, sizeof(key), "d/%d", i);
		assert_int_equal(path_set_has(&set, key, strlen(key)), i % 2 == 0);
	}
	path_set_clear(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_basics),
	    cmocka_unit_test(test_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
