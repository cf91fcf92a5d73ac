/* The intercept's reader map (counted references). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "readers.h"

static void test_add_get_remove(void **state)
{
	struct hsi_reader *r, *r2;

	assert_null(hsi_readers_get(0x1000));
	assert_int_equal(hsi_readers_add(0x1000, strdup("bytes"), 6, strdup("memory://x")), 0);
	r = hsi_readers_get(0x1000);
	assert_non_null(r);
	assert_string_equal(r->bytes, "bytes");
	assert_string_equal(r->uri, "memory://x");
	/* Removed while referenced: gone from the map, still readable until put. */
	hsi_readers_remove(0x1000);
	assert_null(hsi_readers_get(0x1000));
	assert_string_equal(r->bytes, "bytes");
	hsi_readers_put(r);
	/* A reused handle replaces the stale entry. */
	assert_int_equal(hsi_readers_add(0x2000, strdup("old"), 4, NULL), 0);
	assert_int_equal(hsi_readers_add(0x2000, strdup("new"), 4, NULL), 0);
	r2 = hsi_readers_get(0x2000);
	assert_string_equal(r2->bytes, "new");
	hsi_readers_put(r2);
	hsi_readers_remove(0x2000);
	hsi_readers_put(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_add_get_remove),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
