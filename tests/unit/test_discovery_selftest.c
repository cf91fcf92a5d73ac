/* The doctor's self-test: loads a rewriter with dlopen() and judges what it did to the built-in
 * kernel. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "selftest.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

#define FX(name) DISC_FX_DIR "/libfx_" name ".so"

/* The embedded bytes are exactly the code object the build assembled. */
static void test_embedded_object(void **state)
{
	struct strbuf file = STRBUF_INIT;
	assert_int_equal(strbuf_read_file(&file, SELFTEST_CO), 0);
	assert_int_equal(file.len, mirage_selftest_co_size);
	assert_memory_equal(file.buf, mirage_selftest_co, file.len);
	/* ELF64, little endian, EM_AMDGPU (224), ET_DYN. */
	assert_memory_equal(mirage_selftest_co,
	                    "\x7f"
	                    "ELF\x02\x01",
	                    6);
	assert_int_equal(mirage_selftest_co[18] | mirage_selftest_co[19] << 8, 224);
	assert_int_equal(mirage_selftest_co[16], 3);
	strbuf_release(&file);
}

static void test_pass(void **state)
{
	struct strbuf d = STRBUF_INIT;
	assert_int_equal(hotswap_selftest_path(FX("rewrite"), &d), SELFTEST_PASS);
	char *want =
	    xstrfmt("rewrote the built-in gfx1250 kernel: 1 kernel stubbed, %zu -> %zu bytes, "
	            "second pass unchanged",
	            mirage_selftest_co_size, mirage_selftest_co_size + 256);
	assert_string_equal(d.buf, want);
	free(want);
	strbuf_release(&d);
}

static void test_noop_rewriter_fails(void **state)
{
	struct strbuf d = STRBUF_INIT;
	assert_int_equal(hotswap_selftest_path(FX("noop_rewrite"), &d), SELFTEST_FAIL);
	assert_string_equal(d.buf,
	                    "the rewriter reported 0 kernel(s) stubbed, changed=no; expected 1 "
	                    "and yes");
	strbuf_release(&d);
}

static void test_not_a_rewriter(void **state)
{
	struct strbuf d = STRBUF_INIT;
	assert_int_equal(hotswap_selftest_path(FX("nosym"), &d), SELFTEST_FAIL);
	assert_string_equal(d.buf, "'" FX("nosym") "' does not export hs_rewrite");
	strbuf_reset(&d);
	assert_int_equal(hotswap_selftest_path(DISC_FX_DIR "/nonexistent.so", &d), SELFTEST_FAIL);
	assert_non_null(strstr(d.buf, "cannot load '" DISC_FX_DIR "/nonexistent.so': "));
	strbuf_release(&d);
}

static void test_skip_without_native_tree(void **state)
{
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
	struct strbuf d = STRBUF_INIT;
	assert_int_equal(hotswap_selftest(&tree, &d), SELFTEST_SKIP);
	tree.found = true;
	tree.flavour = HOTSWAP_FLAVOUR_REFERENCE;
	assert_int_equal(hotswap_selftest(&tree, &d), SELFTEST_SKIP);
	tree.flavour = HOTSWAP_FLAVOUR_NATIVE;
	tree.lib_dir = DISC_FX_DIR;
	strbuf_reset(&d);
	/* No libhotswap_rewrite.so in the fixture dir: a native tree whose rewriter vanished fails.
	 */
	assert_int_equal(hotswap_selftest(&tree, &d), SELFTEST_FAIL);
	strbuf_release(&d);
}

#ifdef REAL_REWRITER
static void test_real_rewriter(void **state)
{
	struct strbuf d = STRBUF_INIT;
	enum selftest_result r = hotswap_selftest_path(REAL_REWRITER, &d);
	if (r != SELFTEST_PASS)
		fail_msg("%s", d.buf);
	strbuf_release(&d);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_embedded_object),
	    cmocka_unit_test(test_pass),
	    cmocka_unit_test(test_noop_rewriter_fails),
	    cmocka_unit_test(test_not_a_rewriter),
	    cmocka_unit_test(test_skip_without_native_tree),
#ifdef REAL_REWRITER
	    cmocka_unit_test(test_real_rewriter),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
