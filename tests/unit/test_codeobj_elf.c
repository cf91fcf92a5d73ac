/* libmirage_codeobj's reading of a code object's ELF: the processor its header names and the
 * extent of an object nobody sized (elf_isa.h), the object opened and validated (elf_view.h),
 * its metadata notes read merged (meta_read.h) and its kernels by descriptor address joined to
 * them (kernels.h), on the fixtures. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "elf_isa.h"
#include "elf_view.h"
#include "kernels.h"
#include "meta_read.h"

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
	assert_true(cob_elf_is_amdgpu(hello, n1250));
	assert_true(cob_elf_is_amdgpu(gfx942, 64)); /* the header is enough */
	assert_false(cob_elf_is_amdgpu(gfx942, 63));
	assert_false(cob_elf_is_amdgpu(junk, sizeof(junk)));
	/* The deprecated route's size: the whole linked file. */
	assert_int_equal(cob_elf_extent(hello), n1250);
	assert_int_equal(cob_elf_extent(gfx942), n942);
	assert_int_equal(cob_elf_extent(junk), 0);
	free(gfx942);
	free(hello);
}

static const char *meta_name(const struct cob_meta *m, int k, char *buf, size_t size)
{
	const msgpack_object *o = codeobj_map_get(cob_meta_kernel(m, (size_t)k), ".name");

	assert_non_null(o);
	snprintf(buf, size, "%.*s", (int)o->via.str.size, o->via.str.ptr);
	return buf;
}

/* Kernels by descriptor address, each joined to its merged metadata kernel by .symbol. */
static void check_kernels(const char *fixture, size_t left_out, const char *const *names,
                          const int *joined, size_t n)
{
	struct cob_kernels ks = {0};
	struct cob_meta m = COB_META_INIT;
	struct cob_meta_where *where;
	struct cob_elf e;
	char why[512], buf[64];
	size_t size;
	void *bytes = slurp(fixture, &size);

	if (cob_elf_open(&e, bytes, size, why, sizeof(why)))
		fail_msg("%s: %s", fixture, why);
	free(bytes); /* the model keeps its own copy */
	assert_int_equal(cob_elf_meta_read(&e, &m, &where, NULL, NULL, why, sizeof(why)), 0);
	assert_int_equal(m.n_left_out, left_out);
	for (size_t i = 0; i < m.n_rec; i++) {
		/* Where each record taken lies: inside its note section, in the file. */
		const GElf_Shdr *sh = &e.sec[where[i].sec].sh;
		assert_int_equal(sh->sh_type, SHT_NOTE);
		assert_true(where[i].rec_off >= sh->sh_offset &&
		            where[i].rec_off + where[i].rec_size <= sh->sh_offset + sh->sh_size);
	}
	assert_int_equal(cob_kernels_find(&e, &ks, why, sizeof(why)), 0);
	assert_int_equal(cob_kernels_join(&ks, &m), 0);
	assert_int_equal(ks.n, n);
	for (size_t i = 0; i < n; i++) {
		const struct cob_kernel *k = &ks.k[i];
		assert_string_equal(k->name, names[i]);
		assert_true(i == 0 || ks.k[i - 1].kd_vaddr < k->kd_vaddr);
		/* The entry is the descriptor's address plus its decoded entry offset, in .text. */
		assert_int_equal(k->entry, k->kd_vaddr + (uint64_t)k->desc.entry_offset);
		assert_int_equal(k->entry_sec, e.text);
		if (!joined[i]) {
			assert_int_equal(k->meta, -1);
			continue;
		}
		assert_true(k->meta >= 0);
		assert_string_equal(meta_name(&m, k->meta, buf, sizeof(buf)), names[i]);
	}
	cob_kernels_free(&ks);
	cob_meta_free(&m);
	free(where);
	cob_elf_close(&e);
}

static void test_kernels_joined(void **state)
{
	static const char *const hello[] = {"hello"}, *const two[] = {"ka", "kb"},
	                         *const versions[] = {"ka", "kv"};
	static const int one[] = {1}, both[] = {1, 1}, first_only[] = {1, 0};
	(void)state;

	check_kernels("hello.co", 0, hello, one, 1);
	check_kernels("two_notes.co", 0, two, both, 2);
	/* The second note has another amdhsa.version: left out, its kernel joins nothing. */
	check_kernels("two_versions.co", 1, versions, first_only, 2);
}

/* A bad object fails closed, with the reason. */
static void test_open_refuses(void **state)
{
	char junk[64] = "not an elf", why[512];
	struct cob_elf e;
	(void)state;

	assert_int_equal(cob_elf_open(&e, junk, sizeof(junk), why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "not an ELF file (bad magic)");
	assert_null(e.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_processor_and_extent),
	    cmocka_unit_test(test_kernels_joined),
	    cmocka_unit_test(test_open_refuses),
	};
	if (!getenv("FIXTURES"))
		return 77;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
