/* The intercept's reader map (counted references) and its ELF header peeks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "elf_peek.h"
#include "readers.h"

static void test_add_get_remove(void **state)
{
	struct hsi_reader *r, *r2;

	assert_null(hsi_readers_get(0x1000));
	assert_int_equal(hsi_readers_add(0x1000, strdup("bytes"), 6, strdup("memory://x")), 0);
	r = hsi_readers_get(0x1000);
	assert_non_null(r);
	assert_string_equal(r->bytes, "bytes");
	assert_string_equal(r->uri, "memory://x");
	/* Removed while referenced: gone from the map, still readable until put. */
	hsi_readers_remove(0x1000);
	assert_null(hsi_readers_get(0x1000));
	assert_string_equal(r->bytes, "bytes");
	hsi_readers_put(r);
	/* A reused handle replaces the stale entry. */
	assert_int_equal(hsi_readers_add(0x2000, strdup("old"), 4, NULL), 0);
	assert_int_equal(hsi_readers_add(0x2000, strdup("new"), 4, NULL), 0);
	r2 = hsi_readers_get(0x2000);
	assert_string_equal(r2->bytes, "new");
	hsi_readers_put(r2);
	hsi_readers_remove(0x2000);
	hsi_readers_put(NULL);
}

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

static void test_elf_peek(void **state)
{
	size_t n942, n1250;
	void *gfx942 = slurp("gfx942.co", &n942), *hello = slurp("hello.co", &n1250);
	char junk[64] = "not an elf";

	assert_true(hsi_elf_maybe_gfx125x(hello, n1250));
	assert_false(hsi_elf_maybe_gfx125x(hello, 16));
	assert_false(hsi_elf_maybe_gfx125x(gfx942, n942));
	assert_false(hsi_elf_maybe_gfx125x(junk, sizeof(junk)));
	/* The deprecated route's size: the whole linked file. */
	assert_int_equal(hsi_elf_extent(hello), n1250);
	assert_int_equal(hsi_elf_extent(gfx942), n942);
	assert_int_equal(hsi_elf_extent(junk), 0);
	free(gfx942);
	free(hello);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_add_get_remove),
	    cmocka_unit_test(test_elf_peek),
	};
	if (!getenv("FIXTURES"))
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
