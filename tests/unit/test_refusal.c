/* refusal_format: the one sentence for a refused kernel, its defaults and its truncation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "refusal.h"

#include <string.h>

static void test_sentence(void **state)
{
	char buf[REFUSAL_MAX];
	int n;
	(void)state;
	n = refusal_format(buf, sizeof(buf),
	                   &(struct refusal){"xk2", 0x1a40, "v_wmma_f32", "unsupported-instruction",
	                                     "no gfx942 form", "wave32 only"});
	assert_string_equal(buf, "kernel 'xk2' is refused at 0x1a40 (v_wmma_f32): "
	                         "unsupported-instruction: no gfx942 form: wave32 only");
	assert_int_equal(n, (int)strlen(buf));
}

static void test_defaults(void **state)
{
	char buf[REFUSAL_MAX];
	(void)state;
	/* An entry-state refusal has no mnemonic and may have no detail: "-" and nothing. */
	refusal_format(buf, sizeof(buf),
	               &(struct refusal){"k", 0x1500, "", "entry-sgpr", "an entry SGPR", ""});
	assert_string_equal(buf, "kernel 'k' is refused at 0x1500 (-): entry-sgpr: an entry SGPR");
	refusal_format(buf, sizeof(buf), &(struct refusal){0});
	assert_string_equal(buf, "kernel '?' is refused at 0x0 (-): refused: no reason given");
}

static void test_truncated(void **state)
{
	char buf[16];
	int n;
	(void)state;
	n = refusal_format(buf, sizeof(buf),
	                   &(struct refusal){.kernel = "kernel_with_a_long_name"});
	assert_int_equal(strlen(buf), sizeof(buf) - 1);
	assert_true(n > (int)sizeof(buf));
	assert_memory_equal(buf, "kernel 'kernel_", 15);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sentence),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_truncated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
