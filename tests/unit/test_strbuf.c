/* strbuf and strvec: invariants, growth, quoting, splitting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "strbuf.h"
#include "strvec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A cap on what a descriptor may give: exactly max is fine, one byte more is EFBIG. */
static void test_read_fd_max(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	strbuf_addstr(&sb, "kept");
	errno = 0;
	assert_int_equal(strbuf_read_fd_max(&sb, fd, 100000), -1);
	assert_int_equal(errno, EFBIG);
	assert_int_equal(sb.len, 4 + 100000); /* what was there, plus max bytes */
	close(fd);

	int pipefd[2];
	assert_int_equal(pipe(pipefd), 0);
	assert_int_equal(write(pipefd[1], "12345", 5), 5);
	close(pipefd[1]);
	strbuf_reset(&sb);
	assert_int_equal(strbuf_read_fd_max(&sb, pipefd[0], 5), 0);
	assert_string_equal(sb.buf, "12345");
	close(pipefd[0]);
	strbuf_release(&sb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_strbuf_basics), cmocka_unit_test(test_shell_quote),
	    cmocka_unit_test(test_strvec),        cmocka_unit_test(test_sort_and_lower),
	    cmocka_unit_test(test_read_fd_max),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
