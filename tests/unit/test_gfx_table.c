/* The gfx table: internal consistency, and every row checked against LLVM 22 itself. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "elf_header.h"
#include "gfx_table.h"
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_bijection(void **state)
{
	size_t n;
	const struct gfx_info *t = gfx_table(&n);
	assert_true(n > 30);
	for (size_t i = 0; i < n; i++) {
		assert_ptr_equal(gfx_by_name(t[i].name), &t[i]);
		if (t[i].mach)
			assert_ptr_equal(gfx_by_mach(t[i].mach), &t[i]);
		if (t[i].kfd_version) {
			char buf[32];
			assert_ptr_equal(gfx_by_kfd_version(t[i].kfd_version), &t[i]);
			assert_non_null(
			    gfx_name_from_kfd_version(t[i].kfd_version, buf, sizeof(buf)));
			assert_string_equal(buf, t[i].name);
		}
		assert_true(t[i].wavefront_size == 32 || t[i].wavefront_size == 64);
		if (t[i].generic) {
			const struct gfx_info *g = gfx_by_name(t[i].generic);
			assert_non_null(g);
			assert_true(g->is_generic);
			assert_string_equal(g->family, t[i].family);
		}
	}
}

static void test_kfd_formula(void **state)
{
	char buf[32];
	static const struct {
		uint32_t v;
		const char *name;
	} cases[] = {{90402, "gfx942"},   {90500, "gfx950"},   {90010, "gfx90a"},
	             {110000, "gfx1100"}, {120001, "gfx1201"}, {120500, "gfx1250"},
	             {90011, "gfx90b"}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_non_null(gfx_name_from_kfd_version(cases[i].v, buf, sizeof(buf)));
		assert_string_equal(buf, cases[i].name);
	}
	assert_null(gfx_name_from_kfd_version(120500, buf, 4));
	assert_null(gfx_by_kfd_version(0));
	assert_null(gfx_by_mach(0));
	assert_null(gfx_by_name("gfx9999"));
}

/* Compiles an empty translation unit for -mcpu=name; returns e_flags, or -1 if clang refused. */
static long llvm_e_flags(const char *name, const char *dir)
{
	struct strbuf cmd = STRBUF_INIT, obj = STRBUF_INIT, bytes = STRBUF_INIT;
	long flags = -1;
	Elf64_Ehdr eh;
	const char *clang = getenv("CLANG") ? getenv("CLANG") : "clang-22";
	strbuf_addf(&obj, "%s/%s.o", dir, name);
	strbuf_addf(
	    &cmd,
	    "%s -target amdgcn-amd-amdhsa -mcpu=%s -nogpulib -c -x c /dev/null -o %s 2>/dev/null",
	    clang, name, obj.buf);
	if (system(cmd.buf) == 0 && strbuf_read_file(&bytes, obj.buf) == 0 &&
	    elf64_header_read(bytes.buf, bytes.len, &eh))
		flags = (long)eh.e_flags;
	unlink(obj.buf);
	strbuf_release(&cmd);
	strbuf_release(&obj);
	strbuf_release(&bytes);
	return flags;
}

static void test_rows_match_llvm22(void **state)
{
	size_t n;
	const struct gfx_info *t = gfx_table(&n);
	char dir[] = "/tmp/mirage-gfx-XXXXXX";
	assert_non_null(mkdtemp(dir));
	for (size_t i = 0; i < n; i++) {
		long flags = llvm_e_flags(t[i].name, dir);
		if (!t[i].llvm22_known) {
			if (flags >= 0)
				fail_msg("%s: LLVM 22 knows it now (mach 0x%lx): update the row",
				         t[i].name, flags & 0xff);
			continue;
		}
		if (flags < 0)
			fail_msg("%s: clang-22 -mcpu=%s failed", t[i].name, t[i].name);
		if ((flags & 0xff) != t[i].mach)
			fail_msg("%s: table says mach 0x%02x, LLVM 22 says 0x%02lx", t[i].name,
			         t[i].mach, flags & 0xff);
	}
	rmdir(dir);
}

/*
 * Every gfx processor clang-22 lists for amdgcn has a row: an object built for any of them
 * is described, never refused as an unknown EF_AMDGPU_MACH.  (Aliases such as "fiji" name
 * a gfx row; "generic" and "generic-hsa" are no processor.)
 */
static void test_table_covers_llvm22(void **state)
{
	const char *clang = getenv("CLANG") ? getenv("CLANG") : "clang-22";
	struct strbuf cmd = STRBUF_INIT;
	char line[256];
	size_t seen = 0;
	FILE *p;

	(void)state;
	strbuf_addf(&cmd, "%s --target=amdgcn-amd-amdhsa --print-supported-cpus 2>&1", clang);
	p = popen(cmd.buf, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *name = line + strspn(line, " \t");
		name[strcspn(name, " \t\r\n")] = '\0';
		if (strncmp(name, "gfx", 3))
			continue;
		seen++;
		if (!gfx_by_name(name))
			fail_msg("LLVM 22 knows %s, the gfx table does not: add its row", name);
	}
	pclose(p);
	strbuf_release(&cmd);
	assert_true(seen > 40);
}

/* A target id's processor: the triple and the features go; the name is not looked up. */
static void test_target_processor(void **state)
{
	char buf[16];
	static const struct {
		const char *id, *proc;
	} cases[] = {{"gfx1250", "gfx1250"},
	             {"gfx1250:32", "gfx1250"},
	             {"amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", "gfx942"},
	             {"gfx9-4-generic:xnack+", "gfx9-4-generic"},
	             {"gfx9999", "gfx9999"},
	             {"", ""}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_non_null(gfx_target_processor(cases[i].id, buf, sizeof(buf)));
		assert_string_equal(buf, cases[i].proc);
	}
	assert_null(gfx_target_processor("gfx1250-far-too-long:32", buf, sizeof(buf)));
	assert_null(gfx_target_processor("gfx1250", buf, 7));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bijection),         cmocka_unit_test(test_kfd_formula),
	    cmocka_unit_test(test_rows_match_llvm22), cmocka_unit_test(test_table_covers_llvm22),
	    cmocka_unit_test(test_target_processor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
