/* The string-table index (strtab_index.c) that keeps the rewriter linear in symbols. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hs_internal.h"

#include <stdio.h>
#include <string.h>

/* Whole strings only, first copy wins, an unterminated tail is no string. */
static void test_strtab_index_matches_whole_strings(void **state)
{
	static const uint8_t tab[] = "\0k.kd\0k\0\0k.kd\0d\0tail";
	struct hs_strtab_index s;

	(void)state;
	/* sizeof(tab) - 1: drop the C string's NUL so "tail" is unterminated. */
	assert_int_equal(hs_strtab_index_build(&s, tab, sizeof(tab) - 1), HS_OK);
	assert_int_equal(hs_strtab_index_find(&s, ""), 0);
	assert_int_equal(hs_strtab_index_find(&s, "k.kd"), 1);
	assert_int_equal(hs_strtab_index_find(&s, "k"), 6);
	assert_int_equal(hs_strtab_index_find(&s, "d"), 14);
	assert_int_equal(hs_strtab_index_find(&s, "kd"), HASH_INDEX_NONE); /* a suffix only */
	assert_int_equal(hs_strtab_index_find(&s, ".kd"), HASH_INDEX_NONE);
	assert_int_equal(hs_strtab_index_find(&s, "tail"), HASH_INDEX_NONE);
	hs_strtab_index_free(&s);
	/* An empty table has no strings, not even "". */
	assert_int_equal(hs_strtab_index_build(&s, tab, 0), HS_OK);
	assert_int_equal(hs_strtab_index_find(&s, ""), HASH_INDEX_NONE);
	hs_strtab_index_free(&s);
}

/* The oracle: what the linear search the index replaced returned. */
static int64_t linear_find(const uint8_t *tab, size_t size, const char *name)
{
	size_t n = strlen(name) + 1;

	for (size_t i = 0; i + n <= size; i++)
		if ((i == 0 || tab[i - 1] == '\0') && !memcmp(tab + i, name, n))
			return (int64_t)i;
	return -1;
}

/* Every name and every prefix/suffix of a table built of repeats agrees with the linear search. */
static void test_strtab_index_agrees_with_linear_search(void **state)
{
	uint8_t tab[4096];
	size_t size = 0;
	struct hs_strtab_index s;
	char name[32];

	(void)state;
	for (unsigned i = 0; size + 16 < sizeof(tab); i++)
		size += (size_t)snprintf((char *)tab + size, sizeof(tab) - size, "%s%u%s",
		                         i % 3 ? "k" : "", i % 97, i % 5 ? ".kd" : "") +
		        1;
	tab[size++] = 'x'; /* unterminated tail */
	assert_int_equal(hs_strtab_index_build(&s, tab, size), HS_OK);
	for (unsigned i = 0; i < 120; i++) {
		for (int form = 0; form < 4; form++) {
			int64_t want;
			size_t got;
			snprintf(name, sizeof(name), "%s%u%s", form & 1 ? "k" : "", i,
			         form & 2 ? ".kd" : "");
			want = linear_find(tab, size, name);
			got = hs_strtab_index_find(&s, name);
			if (want < 0)
				assert_int_equal(got, HASH_INDEX_NONE);
			else
				assert_int_equal(got, (size_t)want);
		}
	}
	assert_int_equal(hs_strtab_index_find(&s, "x"), HASH_INDEX_NONE);
	hs_strtab_index_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_strtab_index_matches_whole_strings),
	    cmocka_unit_test(test_strtab_index_agrees_with_linear_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
