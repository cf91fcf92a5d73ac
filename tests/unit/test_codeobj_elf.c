/* libmirage_codeobj's looks at a code object's ELF: the processor its header names and the
 * extent of an object nobody sized (elf_isa.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "elf_isa.h"

static void *slurp(const char *name, size_t *size)
{
	char path[1024];
	FILE *f;
	void *buf;
	long n;

	snprintf(path, sizeof(path), "%s/%s", getenv("FIXTURES"), name);
	f = fopen(path, "rb");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*size = (size_t)n;
	return buf;
}

static void test_processor_and_extent(void **state)
{
	size_t n942, n1250;
	void *gfx942 = slurp("gfx942.co", &n942), *hello = slurp("hello.co", &n1250);
	char junk[64] = "not an elf";
	const struct gfx_info *g;
	(void)state;

	g = cob_elf_processor(hello, n1250);
	assert_non_null(g);
	assert_string_equal(g->name, "gfx1250");
	assert_null(cob_elf_processor(hello, 16)); /* shorter than the header */
	g = cob_elf_processor(gfx942, n942);
	assert_non_null(g);
	assert_string_equal(g->name, "gfx942");
	assert_null(cob_elf_processor(junk, sizeof(junk)));
	/* The deprecated route's size: the whole linked file. */
	assert_int_equal(cob_elf_extent(hello), n1250);
	assert_int_equal(cob_elf_extent(gfx942), n942);
	assert_int_equal(cob_elf_extent(junk), 0);
	free(gfx942);
	free(hello);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_processor_and_extent),
	};
	if (!getenv("FIXTURES"))
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
