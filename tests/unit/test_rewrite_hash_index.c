/* The hash index and the string-table index that keep the rewriter linear in kernels and symbols.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hs_internal.h"

#include <stdio.h>
#include <string.h>

#define N_KEYS 5000

struct key {
	const char (*names)[16];
	const char *name;
};

static bool eq(const void *ctx, size_t i)
{
	const struct key *k = ctx;

	return !strcmp(k->names[i], k->name);
}

static size_t find(const struct hs_hidx *t, const char (*names)[16], const char *name)
{
	struct key k = {names, name};

	return hs_hidx_find(t, hs_hash_bytes(name, strlen(name)), eq, &k);
}

static void test_empty_table_finds_nothing(void **state)
{
	struct hs_hidx t = {0};
	static const char names[1][16] = {"a"};

	(void)state;
	assert_int_equal(find(&t, names, "a"), HS_HIDX_NONE);
	hs_hidx_free(&t);
	hs_hidx_free(&t); /* a freed table is an empty one */
}

/* Many keys force several growths; every key is still found under its own index. */
static void test_finds_every_key_across_growth(void **state)
{
	static char names[N_KEYS][16];
	struct hs_hidx t = {0};

	(void)state;
	for (size_t i = 0; i < N_KEYS; i++) {
		snprintf(names[i], sizeof(names[i]), "k%zu.kd", i);
		assert_int_equal(hs_hidx_insert(&t, hs_hash_bytes(names[i], strlen(names[i])), i),
		                 HS_OK);
	}
	assert_int_equal(t.n, N_KEYS);
	/* Load stays at most one half, so probe chains end at an empty slot. */
	assert_true((t.mask + 1) >= 2 * t.n);
	for (size_t i = 0; i < N_KEYS; i++)
		assert_int_equal(find(&t, (const char(*)[16])names, names[i]), i);
	assert_int_equal(find(&t, (const char(*)[16])names, "k5000.kd"), HS_HIDX_NONE);
	assert_int_equal(find(&t, (const char(*)[16])names, "k1.k"), HS_HIDX_NONE);
	hs_hidx_free(&t);
}

static bool always(const void *ctx, size_t i)
{
	(void)ctx;
	(void)i;
	return true;
}

static bool is_seven(const void *ctx, size_t i)
{
	(void)ctx;
	return i == 7;
}

/* Equal hashes are only candidates: the caller's comparison decides. */
static void test_colliding_hashes_are_told_apart(void **state)
{
	struct hs_hidx t = {0};

	(void)state;
	for (size_t i = 0; i < 40; i++)
		assert_int_equal(hs_hidx_insert(&t, 42, i), HS_OK);
	assert_int_equal(hs_hidx_find(&t, 42, is_seven, NULL), 7);
	assert_int_not_equal(hs_hidx_find(&t, 42, always, NULL), HS_HIDX_NONE);
	assert_int_equal(hs_hidx_find(&t, 43, always, NULL), HS_HIDX_NONE);
	hs_hidx_free(&t);
}

static void test_hashes_are_stable(void **state)
{
	(void)state;
	/* Fixed functions (no seed): the same bytes hash alike in every process. */
	assert_true(hs_hash_bytes("abc", 3) == hs_hash_bytes("abcd", 3));
	assert_true(hs_hash_bytes("abc", 3) != hs_hash_bytes("abd", 3));
	assert_true(hs_hash_bytes("", 0) != hs_hash_bytes("\0", 1));
	assert_true(hs_hash_u64(1) != hs_hash_u64(2));
}

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
	assert_int_equal(hs_strtab_index_find(&s, "kd"), HS_HIDX_NONE); /* a suffix only */
	assert_int_equal(hs_strtab_index_find(&s, ".kd"), HS_HIDX_NONE);
	assert_int_equal(hs_strtab_index_find(&s, "tail"), HS_HIDX_NONE);
	hs_strtab_index_free(&s);
	/* An empty table has no strings, not even "". */
	assert_int_equal(hs_strtab_index_build(&s, tab, 0), HS_OK);
	assert_int_equal(hs_strtab_index_find(&s, ""), HS_HIDX_NONE);
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
				assert_int_equal(got, HS_HIDX_NONE);
			else
				assert_int_equal(got, (size_t)want);
		}
	}
	assert_int_equal(hs_strtab_index_find(&s, "x"), HS_HIDX_NONE);
	hs_strtab_index_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_empty_table_finds_nothing),
	    cmocka_unit_test(test_finds_every_key_across_growth),
	    cmocka_unit_test(test_colliding_hashes_are_told_apart),
	    cmocka_unit_test(test_hashes_are_stable),
	    cmocka_unit_test(test_strtab_index_matches_whole_strings),
	    cmocka_unit_test(test_strtab_index_agrees_with_linear_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
