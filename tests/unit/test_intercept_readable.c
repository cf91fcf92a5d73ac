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

static const char in_rodata[] = "a fat binary in a loaded object";
static char in_data[64] = "a wrapper";
static char in_bss[1 << 16];

/* The dynamic linker's segments end where the kernel's mappings of them end, never past. */
static void assert_agrees_with_the_kernel(const void *p, size_t at_least)
{
	size_t from_segments = hsi_readable_extent(p), from_kernel = hsi_readable_extent_kernel(p);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	assert_true(from_segments >= at_least);
	assert_true(from_segments <= from_kernel);
	/* Both end on a page boundary. */
	assert_int_equal(((uintptr_t)p + from_segments) % page, 0);
	assert_int_equal(((uintptr_t)p + from_kernel) % page, 0);
}

static void test_a_static_object(void **state)
{
	(void)state;
	assert_agrees_with_the_kernel(in_rodata, sizeof(in_rodata));
	assert_agrees_with_the_kernel(in_data, sizeof(in_data));
	assert_agrees_with_the_kernel(in_bss, sizeof(in_bss));
	assert_agrees_with_the_kernel(in_bss + sizeof(in_bss) - 1, 1);
	assert_agrees_with_the_kernel((const void *)test_a_static_object, 1);
	/* A shared library's segment (libc's). */
	assert_agrees_with_the_kernel((const void *)sysconf, 1);
}

/* Memory no loaded object holds is the kernel's answer alone. */
static void test_heap_memory_is_the_kernels_answer(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint8_t *m =
	    mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_true(m != MAP_FAILED);
	assert_int_equal(mprotect(m + page, page, PROT_NONE), 0);
	assert_int_equal(hsi_readable_extent(m + 10), hsi_readable_extent_kernel(m + 10));
	assert_int_equal(hsi_readable_extent(m + 10), page - 10);
	munmap(m, 2 * page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ends_at_the_first_unreadable_page),
	    cmocka_unit_test(test_null_and_low_addresses),
	    cmocka_unit_test(test_a_static_object),
	    cmocka_unit_test(test_heap_memory_is_the_kernels_answer),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
