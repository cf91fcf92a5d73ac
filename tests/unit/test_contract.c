/* The contract header is the one source: its table is well formed, and the tree the build
 * stages (cmake/StageHotswap.cmake, the libraries' targets) has exactly the names it spells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "hotswap_contract.h"
#include "hotswap_tree.h"
#include "mirage_translate.h"

static void test_table_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < HOTSWAP_PART_COUNT; i++) {
		const struct hotswap_part_row *r = &hotswap_tree_parts[i];
		const char *dir = r->kind == HOTSWAP_PART_LIBRARY ? HOTSWAP_TREE_LIB_DIR "/"
		                  : r->kind == HOTSWAP_PART_TOOL  ? HOTSWAP_TREE_TOOLS_DIR "/"
		                                                  : HOTSWAP_TREE_PY_DIR "/";
		assert_non_null(r->label);
		assert_non_null(r->path);
		/* Every row is filled in (a missing designated initializer leaves a hole). */
		if (strncmp(r->path, dir, strlen(dir)))
			fail_msg("row %zu: '%s' is not under %s", i, r->path, dir);
		/* Libraries say what they export, and only required parts decide a flavour. */
		assert_true((r->kind == HOTSWAP_PART_LIBRARY) == (r->symbol != NULL));
		assert_true(r->required || r->flavour == HOTSWAP_FLAVOUR_NONE);
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(r->path, hotswap_tree_parts[j].path);
	}
	assert_string_equal(hotswap_tree_parts[HOTSWAP_PART_INTERCEPT].path,
	                    HOTSWAP_INTERCEPT_PATH);
	assert_string_equal(hotswap_tree_parts[HOTSWAP_PART_REWRITE].path, HOTSWAP_REWRITE_PATH);
	assert_string_equal(hotswap_tree_parts[HOTSWAP_PART_INTERCEPT_CORE].path,
	                    HOTSWAP_INTERCEPT_CORE_PATH);
	assert_string_equal(hotswap_tree_parts[HOTSWAP_PART_PY_RUNTIME].path,
	                    HOTSWAP_PY_SITECUSTOMIZE_PATH);
	/* The translator's own header and the contract name one file and one entry point. */
	assert_string_equal(HOTSWAP_TRANSLATE_LIB, TRANSLATE_LIBRARY_NAME);
	assert_string_equal(HOTSWAP_TRANSLATE_SYMBOL, TRANSLATE_ENTRY_SYMBOL);
}

static void assert_staged(const char *rel)
{
	struct stat st;
	char *path = xstrfmt("%s/%s", HOTSWAP_STAGED_TREE, rel);

	if (stat(path, &st) || !S_ISREG(st.st_mode))
		fail_msg("the staged tree has no '%s' (the contract names it)", path);
	free(path);
}

/* Every part of a native tree, and the MC library the rewriter loads, where the header says. */
static void test_staged_tree_matches(void **state)
{
	(void)state;
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;

	for (size_t i = 0; i < HOTSWAP_PART_COUNT; i++)
		if (hotswap_tree_parts[i].flavour != HOTSWAP_FLAVOUR_REFERENCE)
			assert_staged(hotswap_tree_parts[i].path);
	assert_staged(HOTSWAP_MC_PATH);
	assert_staged(HOTSWAP_TRANSLATE_PATH);

	/* And the predicate, reading the same table, finds it complete with nothing to warn. */
	assert_int_equal(hotswap_check_root(HOTSWAP_STAGED_TREE, &tree), 0);
	assert_int_equal(tree.flavour, HOTSWAP_FLAVOUR_NATIVE);
	assert_int_equal(tree.warnings.nr, 0);
	for (size_t i = 0; i < tree.nparts; i++)
		assert_int_equal(tree.parts[i].status, PART_OK);
	hotswap_tree_release(&tree);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_rows),
	    cmocka_unit_test(test_staged_tree_matches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
