/* strbuf and strvec: invariants, growth, quoting, splitting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "strbuf.h"
#include "strvec.h"

#include <stdlib.h>
#include <string.h>

static void test_strbuf_basics(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	assert_string_equal(sb.buf, "");
	strbuf_addstr(&sb, "abc");
	strbuf_addf(&sb, "-%d-", 42);
	for (int i = 0; i < 1000; i++)
		strbuf_addch(&sb, 'x');
	assert_int_equal(sb.len, 3 + 4 + 1000);
	assert_int_equal(sb.buf[sb.len], '\0');
	assert_memory_equal(sb.buf, "abc-42-x", 8);
	strbuf_setlen(&sb, 3);
	assert_string_equal(sb.buf, "abc");
	size_t len;
	char *s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 3);
	assert_string_equal(sb.buf, "");
	free(s);
	strbuf_release(&sb);
}

static void test_shell_quote(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add_shell_quoted(&sb, "plain/path-1.2");
	strbuf_addch(&sb, ' ');
	strbuf_add_shell_quoted(&sb, "it's a $x");
	strbuf_addch(&sb, ' ');
	strbuf_add_shell_quoted(&sb, "");
	assert_string_equal(sb.buf, "plain/path-1.2 'it'\\''s a $x' ''");
	strbuf_reset(&sb);
	strbuf_add_single_quoted(&sb, "plain");
	assert_string_equal(sb.buf, "'plain'");
	strbuf_release(&sb);
}

static void test_strvec(void **state)
{
	struct strvec sv = STRVEC_INIT;
	assert_null(sv.v[0]);
	strvec_split(&sv, "a::b: c:", ":");
	assert_int_equal(sv.nr, 3);
	assert_string_equal(sv.v[2], " c");
	strvec_insert(&sv, 0, "first");
	strvec_remove(&sv, 1);
	assert_int_equal(strvec_find(&sv, "b"), 1);
	assert_int_equal(strvec_find(&sv, "zz"), -1);
	strvec_pushf(&sv, "%s=%d", "K", 1);
	assert_int_equal(strvec_find_key(&sv, "K"), 3);
	assert_int_equal(strvec_find_key(&sv, "b"), -1);
	char *j = strvec_join(&sv, ",");
	assert_string_equal(j, "first,b, c,K=1");
	free(j);
	assert_null(sv.v[sv.nr]);
	strvec_clear(&sv);
	assert_int_equal(sv.nr, 0);
}

/* strvec_sort leaves what came before `from` alone; str_lower touches ASCII letters only. */
static void test_sort_and_lower(void **state)
{
	(void)state;
	struct strvec sv = STRVEC_INIT;
	strvec_split(&sv, "z b a B", " ");
	strvec_sort(&sv, 1);
	char *j = strvec_join(&sv, " ");
	assert_string_equal(j, "z B a b");
	free(j);
	strvec_sort(&sv, sv.nr); /* an empty range is fine */
	strvec_clear(&sv);

	char word[] = "Gfx1250-B0.\xc3\x89";
	assert_ptr_equal(str_lower(word), word);
	assert_string_equal(word, "gfx1250-b0.\xc3\x89");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_strbuf_basics),
	    cmocka_unit_test(test_shell_quote),
	    cmocka_unit_test(test_strvec),
	    cmocka_unit_test(test_sort_and_lower),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
