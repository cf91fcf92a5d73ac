/* The download meter: fixed-width size, rate and time formatting, the line, and redraw throttling.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define GiB (1024ull * MiB)

static void expect_size(uint64_t n, const char *want)
{
	char buf[PROGRESS_SIZE_WIDTH + 1];
	assert_string_equal(progress_format_size(n, buf), want);
}

static void test_size_examples(void **state)
{
	(void)state;
	expect_size(0, "   0 B");
	expect_size(1, "   1 B");
	expect_size(999, " 999 B");
	expect_size(1000, "1000 B");
	expect_size(1023, "1023 B");
	expect_size(1024, "1.00 K");
	expect_size(1536, "1.50 K");
	expect_size(10 * KiB - 1, "9.99 K"); /* truncated, never rounded up to a wider "10.00" */
	expect_size(10 * KiB, "10.0 K");
	expect_size(100 * KiB, " 100 K");
	expect_size(MiB - 1, "1023 K");
	expect_size(MiB, "1.00 M");
	expect_size(10 * MiB, "10.0 M");
	expect_size(5 * GiB, "5.00 G");
	expect_size(1024 * GiB, "1.00 T");
	expect_size(UINT64_MAX, "15.9 E");
}

/* Every value, including each unit boundary and its neighbours, is exactly the fixed width. */
static void test_size_width(void **state)
{
	char buf[PROGRESS_SIZE_WIDTH + 1];
	(void)state;
	for (unsigned shift = 0; shift < 64; shift++) {
		uint64_t base = 1ull << shift;
		uint64_t vals[] = {base - 1, base, base + 1, base * 10 / 9, base / 10 * 9};
		for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
			assert_int_equal(strlen(progress_format_size(vals[i], buf)),
			                 PROGRESS_SIZE_WIDTH);
	}
	for (uint64_t p = 1; p < UINT64_MAX / 10; p *= 10)
		for (int d = -1; d <= 1; d++)
			assert_int_equal(strlen(progress_format_size(p + (uint64_t)d, buf)),
			                 PROGRESS_SIZE_WIDTH);
}

static void test_rate(void **state)
{
	char buf[PROGRESS_RATE_WIDTH + 1];
	(void)state;
	assert_string_equal(progress_format_rate(0, buf), "   0 B/s");
	assert_string_equal(progress_format_rate(999, buf), " 999 B/s");
	assert_string_equal(progress_format_rate(1024, buf), "1.00 K/s");
	assert_string_equal(progress_format_rate(3 * MiB / 2, buf), "1.50 M/s");
	assert_string_equal(progress_format_rate(110 * MiB, buf), " 110 M/s");
	assert_string_equal(progress_format_rate(5 * GiB, buf), "5.00 G/s");
	assert_int_equal(strlen(progress_format_rate(UINT64_MAX, buf)), PROGRESS_RATE_WIDTH);
}

static void test_time(void **state)
{
	char buf[PROGRESS_TIME_WIDTH + 1];
	(void)state;
	assert_string_equal(progress_format_time(0, buf), "00:00:00");
	assert_string_equal(progress_format_time(59, buf), "00:00:59");
	assert_string_equal(progress_format_time(3661, buf), "01:01:01");
	assert_string_equal(progress_format_time(100 * 3600 - 1, buf), "99:59:59");
	assert_string_equal(progress_format_time(100 * 3600, buf), "  4d 04h");
	assert_string_equal(progress_format_time(-1, buf), "--:--:--");
	assert_string_equal(progress_format_time(1000ll * 86400, buf), "--:--:--");
	assert_string_equal(progress_format_time(INT64_MAX, buf), "--:--:--");
}

static void test_line(void **state)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT, c = STRBUF_INIT;
	(void)state;
	progress_format_line(&a, 512 * KiB, MiB, KiB, 512, "eta");
	assert_string_equal(a.buf, " 50%   512 K / 1.00 M  1.00 K/s  eta 00:08:32");
	progress_format_line(&b, 512 * KiB, 0, KiB, -1, "eta");
	assert_string_equal(b.buf, " --%   512 K /      ?  1.00 K/s  eta --:--:--");
	/* More bytes than announced still says 100%. */
	progress_format_line(&c, 2 * MiB, MiB, 0, 3, "time");
	assert_string_equal(c.buf, "100%  2.00 M / 1.00 M     0 B/s  time 00:00:03");
	assert_int_equal(a.len, b.len);
	strbuf_release(&a);
	strbuf_release(&b);
	strbuf_release(&c);
}

static size_t count(const char *s, size_t len, char ch)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		n += s[i] == ch;
	return n;
}

static void test_meter_throttles(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct progress p;
	(void)state;

	assert_non_null(f);
	progress_init(&p, true, f, 1000);
	assert_false(progress_update(&p, 1100, 100, 10000)); /* too soon */
	assert_true(progress_update(&p, 1500, 5000, 10000));
	assert_false(progress_update(&p, 1900, 6000, 10000));
	assert_true(progress_update(&p, 2000, 8000, 10000));
	progress_finish(&p, 3000);
	fclose(f);
	/* Two redraws and the final line, each starting with '\r'; one newline, at the very end. */
	assert_int_equal(count(text, len, '\r'), 3);
	assert_int_equal(count(text, len, '\n'), 1);
	assert_int_equal(text[len - 1], '\n');
	/* The final line reports what arrived, with the average rate and the elapsed time. */
	assert_non_null(strstr(text, " 80%  7.81 K / 9.76 K  3.90 K/s  time 00:00:02"));
	free(text);
}

static void test_meter_disabled(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct progress p;
	(void)state;

	progress_init(&p, false, f, 0);
	assert_false(progress_update(&p, 5000, 100, 200));
	progress_finish(&p, 6000);
	progress_abort(&p);
	fclose(f);
	assert_int_equal(len, 0);
	free(text);
}

static void test_meter_abort_ends_line(void **state)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct progress p;
	(void)state;

	progress_init(&p, true, f, 0);
	progress_update(&p, 600, 100, 0);
	progress_abort(&p);
	fclose(f);
	/* An error message printed next starts on its own line. */
	assert_int_equal(count(text, len, '\n'), 1);
	assert_int_equal(text[len - 1], '\n');
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_size_examples),  cmocka_unit_test(test_size_width),
	    cmocka_unit_test(test_rate),           cmocka_unit_test(test_time),
	    cmocka_unit_test(test_line),           cmocka_unit_test(test_meter_throttles),
	    cmocka_unit_test(test_meter_disabled), cmocka_unit_test(test_meter_abort_ends_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
