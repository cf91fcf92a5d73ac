/* The intercept's stderr lines: outside text is escaped, lines are whole and cut cleanly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "stderr_line.h"

static void expect_escaped(const char *in, const char *want)
{
	char out[128];
	size_t n = stderr_escape(out, sizeof(out), in);
	assert_string_equal(out, want);
	assert_int_equal(n, strlen(want));
}

static void test_escape_controls(void **state)
{
	(void)state;
	expect_escaped("plain text: 'k' (HS_ERROR)", "plain text: 'k' (HS_ERROR)");
	expect_escaped("k\033[31mred\a", "k\\x1b[31mred\\x07");
	expect_escaped("two\nlines\r\ttab", "two\\nlines\\r\\ttab");
	expect_escaped("del\x7f", "del\\x7f");
	expect_escaped("back\\slash", "back\\\\slash");
}

static void test_escape_utf8(void **state)
{
	(void)state;
	/* Printable UTF-8 stays; C1 controls (here CSI, U+009B) and broken sequences do not. */
	expect_escaped("Jos\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	               "Jos\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	expect_escaped("\xc2\x9b"
	               "31m",
	               "\\xc2\\x9b31m");
	expect_escaped("\x9b"
	               "31m",
	               "\\x9b31m");
	expect_escaped("cut \xe2\x82", "cut \\xe2\\x82");
	expect_escaped("overlong \xc0\xaf \xe0\x80\xaf", "overlong \\xc0\\xaf \\xe0\\x80\\xaf");
	expect_escaped("surrogate \xed\xa0\x80", "surrogate \\xed\\xa0\\x80");
	expect_escaped("beyond \xf4\x90\x80\x80", "beyond \\xf4\\x90\\x80\\x80");
}

static void test_escape_never_cut_inside(void **state)
{
	char out[8];
	(void)state;
	/* "abc\x1b" needs 3 + 4 bytes and a NUL: the escape does not fit and is left out whole. */
	assert_int_equal(stderr_escape(out, 7, "abc\033z"), 3);
	assert_string_equal(out, "abc");
	assert_int_equal(stderr_escape(out, 8, "abc\033z"), 7);
	assert_string_equal(out, "abc\\x1b");
	assert_int_equal(stderr_escape(out, 4, "ab\xc3\xa9"), 2);
	assert_string_equal(out, "ab");
	assert_int_equal(stderr_escape(out, 1, "x"), 0);
	assert_string_equal(out, "");
}

__attribute__((format(printf, 2, 3))) static void line(const char *prefix, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stderr_line_v(prefix, fmt, ap);
	va_end(ap);
}

/* What stderr_line_v writes, read back through a pipe in place of stderr. */
static size_t captured(char *buf, size_t size, const char *prefix, const char *arg)
{
	int fds[2], saved = dup(STDERR_FILENO);
	ssize_t n;

	assert_int_equal(pipe(fds), 0);
	dup2(fds[1], STDERR_FILENO);
	close(fds[1]);
	line(prefix, "name '%s'", arg);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = read(fds[0], buf, size - 1);
	close(fds[0]);
	assert_true(n > 0);
	buf[n] = '\0';
	return (size_t)n;
}

static void test_line_escapes_text_not_prefix(void **state)
{
	char buf[2048], arg[1100];
	(void)state;
	captured(buf, sizeof(buf), "hotswap: ", "a\nb\033[2J");
	assert_string_equal(buf, "hotswap: name 'a\\nb\\x1b[2J'\n");
	/* A long line is cut at 1 KiB and still ends in one newline, after a whole escape. */
	memset(arg, '\033', sizeof(arg) - 1);
	arg[sizeof(arg) - 1] = '\0';
	assert_true(captured(buf, sizeof(buf), "p: ", arg) <= 1024);
	assert_ptr_equal(strchr(buf, '\n'), buf + strlen(buf) - 1);
	assert_memory_equal(buf + strlen(buf) - 5, "\\x1b\n", 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escape_controls),
	    cmocka_unit_test(test_escape_utf8),
	    cmocka_unit_test(test_escape_never_cut_inside),
	    cmocka_unit_test(test_line_escapes_text_not_prefix),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
