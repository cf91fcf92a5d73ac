/* Text made safe to print: control characters escaped, URL userinfo redacted; and sizes in words.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "diag.h"
#include "human_size.h"
#include "printable.h"

#include <stdlib.h>
#include <string.h>

static void expect_printable(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add_printable(&sb, in);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_escapes(void **state)
{
	(void)state;
	expect_printable("lib/libhotswap_intercept.so", "lib/libhotswap_intercept.so");
	expect_printable("", "");
	expect_printable("\033]0;title\007", "\\x1b]0;title\\x07");
	expect_printable("a\nb\tc\rd\177", "a\\nb\\tc\\rd\\x7f");
	expect_printable("back\\slash", "back\\\\slash");
	/* UTF-8 text stays; C1 controls (U+009B is CSI) and broken sequences do not. */
	expect_printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
	                 "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	expect_printable("\xc2\x9b"
	                 "31m",
	                 "\\xc2\\x9b31m");
	expect_printable("\x9b"
	                 "31m",
	                 "\\x9b31m");
	expect_printable("\xc3", "\\xc3");                            /* truncated */
	expect_printable("\xc0\xaf", "\\xc0\\xaf");                   /* overlong '/' */
	expect_printable("\xed\xa0\x80", "\\xed\\xa0\\x80");          /* a surrogate */
	expect_printable("\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80"); /* past U+10FFFF */
}

static void expect_redacted(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_add_redacted(&sb, in);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_redaction(void **state)
{
	(void)state;
	expect_redacted("https://user:token@host/x.tar.gz", "https://***@host/x.tar.gz");
	expect_redacted("http://TOKEN@host:8080", "http://***@host:8080");
	expect_redacted("http://u:p@ss@host/a@b",
	                "http://***@host/a@b"); /* the last '@' of the host part */
	expect_redacted("http://host/path@x?q=a@b#f@g", "http://host/path@x?q=a@b#f@g");
	expect_redacted("cannot get 'http://a:b@h/x': redirected to https://c:d@i/y",
	                "cannot get 'http://***@h/x': redirected to https://***@i/y");
	expect_redacted("file:///tmp/a@b", "file:///tmp/a@b");
	expect_redacted("no url, just user@host and ://x@y", "no url, just user@host and ://x@y");
	expect_redacted("git+ssh://me@host/r", "git+ssh://***@host/r");
	expect_redacted("9http://u@h/", "9http://***@h/"); /* a scheme starts at a letter */
	expect_redacted("", "");
}

static void test_printable_text(void **state)
{
	char *s = printable_text("http://u:\033[2J@host/\033x");
	(void)state;
	assert_string_equal(s, "http://***@host/\\x1bx");
	free(s);
}

/* Names quoted in messages (name_rule's, the installer's) are escaped too. */
static void test_quoted_name(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	strbuf_add_quoted_name(&sb, "\033[31mred");
	assert_string_equal(sb.buf, "'\\x1b[31mred'");
	strbuf_reset(&sb);
	strbuf_add_quoted_name(&sb, "0123456789012345678901234567890123456789012345678901234");
	assert_string_equal(
	    sb.buf, "'012345678901234567890123456789012345678901234567...' (55 characters)");
	strbuf_release(&sb);
}

static void expect_size(const char *in, uint64_t want)
{
	uint64_t got = 0;
	assert_int_equal(human_size_parse(in, &got), 0);
	assert_true(got == want);
}

static void test_sizes(void **state)
{
	char buf[HUMAN_SIZE_LEN];
	uint64_t v;
	(void)state;
	expect_size("1", 1);
	expect_size("1000", 1000);
	expect_size("4G", UINT64_C(4) << 30);
	expect_size("4g", UINT64_C(4) << 30);
	expect_size("4GiB", UINT64_C(4) << 30);
	expect_size("4GB", UINT64_C(4) << 30);
	expect_size("512M", UINT64_C(512) << 20);
	expect_size("100k", 102400);
	expect_size("2T", UINT64_C(2) << 40);
	expect_size("7b", 7);
	expect_size("16777215T", UINT64_C(16777215) << 40);
	static const char *const bad[] = {"",     "0",    "0K",        "-1",
	                                  "1.5G", "1 G",  "G",         "1X",
	                                  "1Gi",  "4GB2", "16777216T", "99999999999999999999"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(human_size_parse(bad[i], &v), -1);
	assert_string_equal(human_size_format(UINT64_C(4) << 30, buf), "4 GiB");
	assert_string_equal(human_size_format(1536 * 1024, buf), "1536 KiB");
	assert_string_equal(human_size_format(1000, buf), "1000 bytes");
	assert_string_equal(human_size_format(0, buf), "0 bytes");
	assert_string_equal(human_size_format(UINT64_C(5) << 50, buf), "5120 TiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escapes),        cmocka_unit_test(test_redaction),
	    cmocka_unit_test(test_printable_text), cmocka_unit_test(test_quoted_name),
	    cmocka_unit_test(test_sizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
