/* hsi_readable_extent: how far the HIP hooks may read from a pointer nobody sized. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "readable.h"

static void test_ends_at_the_first_unreadable_page(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *m =
	    mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_true(m != MAP_FAILED);
	/* Two readable pages, a guard page, a readable page. */
	assert_int_equal(mprotect(m + 2 * page, page, PROT_NONE), 0);
	assert_int_equal(hsi_readable_extent(m), 2 * page);
	assert_int_equal(hsi_readable_extent(m + page + 100), page - 100);
	assert_int_equal(hsi_readable_extent(m + 2 * page), 0);
	assert_int_equal(hsi_readable_extent(m + 2 * page + 8), 0);
	assert_true(hsi_readable_extent(m + 3 * page) >= page);
	munmap(m, 4 * page);
	/* Gone: nothing readable there now. */
	assert_int_equal(hsi_readable_extent(m), 0);
}

static void test_null_and_low_addresses(void **state)
{
	(void)state;
	assert_int_equal(hsi_readable_extent(NULL), 0);
	assert_int_equal(hsi_readable_extent((const void *)(uintptr_t)4096), 0);
}

static void test_a_static_object(void **state)
{
	static const char text[] = "a fat binary in a loaded object";

	(void)state;
	assert_true(hsi_readable_extent(text) >= sizeof(text));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ends_at_the_first_unreadable_page),
	    cmocka_unit_test(test_null_and_low_addresses),
	    cmocka_unit_test(test_a_static_object),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
