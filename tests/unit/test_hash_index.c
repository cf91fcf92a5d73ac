/* common/hash_index: the table that keeps joins by key linear in kernels and symbols. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hash_index.h"

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

static size_t find(const struct hash_index *t, const char (*names)[16], const char *name)
{
	struct key k = {names, name};

	return hash_index_find(t, hash_bytes(name, strlen(name)), eq, &k);
}

static void test_empty_table_finds_nothing(void **state)
{
	struct hash_index t = {0};
	static const char names[1][16] = {"a"};

	(void)state;
	assert_int_equal(find(&t, names, "a"), HASH_INDEX_NONE);
	hash_index_free(&t);
	hash_index_free(&t); /* a freed table is an empty one */
}

/* Many keys force several growths; every key is still found under its own index. */
static void test_finds_every_key_across_growth(void **state)
{
	static char names[N_KEYS][16];
	struct hash_index t = {0};

	(void)state;
	for (size_t i = 0; i < N_KEYS; i++) {
		snprintf(names[i], sizeof(names[i]), "k%zu.kd", i);
		assert_int_equal(hash_index_insert(&t, hash_bytes(names[i], strlen(names[i])), i),
		                 0);
	}
	assert_int_equal(t.n, N_KEYS);
	/* Load stays at most one half, so probe chains end at an empty slot. */
	assert_true((t.mask + 1) >= 2 * t.n);
	for (size_t i = 0; i < N_KEYS; i++)
		assert_int_equal(find(&t, (const char(*)[16])names, names[i]), i);
	assert_int_equal(find(&t, (const char(*)[16])names, "k5000.kd"), HASH_INDEX_NONE);
	assert_int_equal(find(&t, (const char(*)[16])names, "k1.k"), HASH_INDEX_NONE);
	hash_index_free(&t);
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
	struct hash_index t = {0};

	(void)state;
	for (size_t i = 0; i < 40; i++)
		assert_int_equal(hash_index_insert(&t, 42, i), 0);
	assert_int_equal(hash_index_find(&t, 42, is_seven, NULL), 7);
	assert_int_not_equal(hash_index_find(&t, 42, always, NULL), HASH_INDEX_NONE);
	assert_int_equal(hash_index_find(&t, 43, always, NULL), HASH_INDEX_NONE);
	hash_index_free(&t);
}

static void test_hashes_are_stable(void **state)
{
	(void)state;
	/* Fixed functions (no seed): the same bytes hash alike in every process. */
	assert_true(hash_bytes("abc", 3) == hash_bytes("abcd", 3));
	assert_true(hash_bytes("abc", 3) != hash_bytes("abd", 3));
	assert_true(hash_bytes("", 0) != hash_bytes("\0", 1));
	assert_true(hash_u64(1) != hash_u64(2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_empty_table_finds_nothing),
	    cmocka_unit_test(test_finds_every_key_across_growth),
	    cmocka_unit_test(test_colliding_hashes_are_told_apart),
	    cmocka_unit_test(test_hashes_are_stable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
