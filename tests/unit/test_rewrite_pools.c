/* Pools and provenance: no stacking, no certifying another stepping, no forged stubs. */
#include "test_rewrite_util.h"

/* A stubbed copy of a fixture (caller frees .data). */
static struct blob stubbed(const char *name)
{
	struct blob in = fixture(name);
	struct hs_rewrite_output out = rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL);
	free(in.data);
	return (struct blob){out.data, out.size};
}

/* The first descriptor ("hello.kd") of a stubbed hello; lld puts .rodata at vaddr == offset. */
static uint8_t *hello_kd(struct blob b)
{
	return b.data + rd64(shdr(b, ".rodata") + 24);
}

static void test_provenance_note(void **state)
{
	struct blob b = stubbed("hello");
	uint8_t *sh = shdr(b, ".note.hotswap");
	const uint8_t *rec = b.data + rd64(sh + SH(sh_offset));
	uint8_t *pool = shdr(b, ".hotswap.text");

	assert_int_equal(rd32(sh + SH(sh_type)), SHT_NOTE);
	assert_int_equal(rd64(sh + SH(sh_flags)), 0); /* not allocated */
	assert_int_equal(rd32(rec), 7);
	assert_memory_equal(rec + 12, "AMDGPU", 7);
	assert_int_equal(rd32(rec + 8), 0x48535750);
	assert_int_equal(rd32(rec + 20), 1); /* format version */
	assert_int_equal(rd32(rec + 24), 1); /* transforms: entry trampolines */
	assert_int_equal(rd32(rec + 28), 0); /* target state: neutral */
	assert_int_equal(rd64(rec + 36), rd64(pool + 16));
	assert_true(rd64(rec + 44) >= rd64(pool + 32));
	/* The pool section: PROGBITS, ALLOC|EXECINSTR, 256-aligned, at a page boundary. */
	assert_int_equal(rd32(pool + 4), SHT_PROGBITS);
	assert_int_equal(rd64(pool + 8), SHF_ALLOC | SHF_EXECINSTR);
	assert_int_equal(rd64(pool + 48), 256);
	assert_int_equal(rd64(pool + 16) % 4096, 0);
	assert_int_equal(rd64(pool + 24) % 4096, 0);
	free(b.data);
}

/* A pool made for another stepping is never certified. */
static void test_foreign_stepping_pool(void **state)
{
	struct blob b = stubbed("hello");
	uint8_t *rec = b.data + rd64(shdr(b, ".note.hotswap") + 24);
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
	struct hs_rewrite_output out = {0};

	wr32(rec + 28, 1); /* A0 */
	assert_int_equal(hs_rewrite(b.data, b.size, NULL, NULL, &opts, &out, NULL), HS_ERROR);
	assert_non_null(strstr(hs_last_error(), "stepping A0"));
	/* An A0 -> A0 request may use it. */
	assert_int_equal(hs_rewrite(b.data, b.size, "gfx1250:gfx1250-b0-specific-",
	                            "gfx1250:gfx1250-b0-specific-", &opts, &out, NULL),
	                 HS_OK);
	hs_rewrite_output_release(&out);
	/* A state no rewrite writes is named as unknown, by rewrite and inspect alike. */
	wr32(rec + 28, 7);
	assert_int_equal(hs_rewrite(b.data, b.size, NULL, NULL, &opts, &out, NULL), HS_ERROR);
	assert_non_null(strstr(hs_last_error(), "made for stepping unknown"));
	{
		char *json = NULL;
		assert_int_equal(hs_inspect(b.data, b.size, 0, NULL, &json), HS_OK);
		assert_non_null(strstr(json, "\"target_state\":\"unknown\""));
		free(json);
	}
	wr32(rec + 20, 2); /* unknown provenance version */
	assert_int_equal(hs_rewrite(b.data, b.size, NULL, NULL, &opts, &out, NULL),
	                 HS_INVALID_ARGUMENT);
	assert_non_null(strstr(hs_last_error(), "provenance"));
	free(b.data);
}

/* A kernel that needs a stub although an entry-trampoline pool exists: no second pool. */
static void test_no_second_pool(void **state)
{
	struct blob orig = fixture("hello");
	struct blob b = stubbed("hello");
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
	struct hs_rewrite_output out = {0};

	/* Point the descriptor back at the original entry, as if the stub were never added. */
	memcpy(hello_kd(b) + 16, hello_kd(orig) + 16, 8);
	assert_int_equal(hs_rewrite(b.data, b.size, NULL, NULL, &opts, &out, NULL), HS_ERROR);
	assert_non_null(strstr(hs_last_error(), "second pool"));
	assert_null(out.data);
	free(b.data);
	free(orig.data);
}

/*
 * An input with no program headers may state any e_phentsize (it is unused);
 * a pool adds one, so the output must say 56 or its own second rewrite fails
 * (found by fuzz/rewrite_short).
 */
static void test_pool_without_program_headers(void **state)
{
	struct blob in = fixture("hello");
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
	struct hs_rewrite_output out = {0}, again = {0};

	wr16(in.data + EH(e_phnum), 0); /* e_phnum */
	wr16(in.data + EH(e_phentsize),
	     52); /* e_phentsize: an ELF32 size, ignored with no entries */
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &opts, &out, NULL), HS_OK);
	assert_int_equal(rd16((uint8_t *)out.data + EH(e_phentsize)), 56);
	assert_int_equal(rd16((uint8_t *)out.data + EH(e_phnum)), 1);
	assert_int_equal(hs_rewrite(out.data, out.size, NULL, NULL, &opts, &again, NULL), HS_OK);
	assert_int_equal(again.size, out.size);
	assert_memory_equal(again.data, out.data, out.size);
	hs_rewrite_output_release(&again);
	hs_rewrite_output_release(&out);
	free(in.data);
}

/*
 * The writer copies the section names past the end of the file with its own appended.  An
 * allocated name table ending where the pool opens would grow over the pool, an output the
 * loader refuses on its second rewrite (found by fuzz/rewrite_short).  The loader refuses
 * the input instead, with the same message on every path: rewrite, no-op rewrite, inspect.
 */
static void test_allocated_section_names(void **state)
{
	static const uint64_t flags[] = {HS_REWRITE_ENTRY_DEFAULT, 0};
	struct blob in = fixture("hello");
	uint8_t *names = in.data + rd64(in.data + EH(e_shoff)) +
	                 (uint64_t)rd16(in.data + EH(e_shstrndx)) * sizeof(Elf64_Shdr);
	char want[160];
	char *json = NULL;

	snprintf(want, sizeof(want),
	         "section name table [%u] '.shstrtab' is allocated (SHF_ALLOC); section names "
	         "are not part of the loaded image",
	         rd16(in.data + EH(e_shstrndx)));
	wr64(names + SH(sh_flags), SHF_ALLOC);
	/* It ends on a page boundary above every other allocated byte: where the pool opens. */
	wr64(names + SH(sh_addr), 0x100000 - rd64(names + SH(sh_size)));
	for (size_t i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		HS_OPTS(hs_rewrite_opts, opts, .flags = flags[i]);
		struct hs_rewrite_output out = {0};

		assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &opts, &out, NULL),
		                 HS_INVALID_ARGUMENT);
		assert_string_equal(hs_last_error(), want);
		assert_null(out.data);
	}
	assert_int_equal(hs_inspect(in.data, in.size, 0, NULL, &json), HS_INVALID_ARGUMENT);
	assert_string_equal(hs_last_error(), want);
	assert_null(json);
	free(in.data);
}

/* Entries in the pool must be exactly our stubs, jumping into .text. */
static void test_forged_stubs(void **state)
{
	static const struct {
		size_t off;
		uint8_t flip;
		const char *what;
	} cases[] = {
	    {35, 0x80, "target far outside .text"},
	    {24, 0x40, "target moved by 0x40 bytes past .text's end or before it"},
	    {18, 0x02, "get_pc on another pair than the adds"},
	    {22, 0x01, "s_add_co_u32 dst != src0"},
	    {21, 0x7f, "inline constant instead of a literal"},
	    {12, 0x01, "no v_nop"},
	    {2, 0x01, "another VMEM prefix"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct blob b = stubbed("hello");
		uint8_t *pool = b.data + rd64(shdr(b, ".hotswap.text") + 24);
		HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
		struct hs_rewrite_output out = {0};
		enum hs_status st;

		pool[cases[i].off] ^= cases[i].flip;
		if (cases[i].off == 24)
			wr32(pool + 24, rd32(pool + 24) + 0x10000); /* lands past .text */
		st = hs_rewrite(b.data, b.size, NULL, NULL, &opts, &out, NULL);
		if (st != HS_ERROR)
			fail_msg("%s: expected ERROR, got %s", cases[i].what, hs_status_str(st));
		assert_non_null(strstr(hs_last_error(), "not one of our entry stubs"));
		free(b.data);
	}
}

static int log_calls;
static char log_last[512];
static void log_cb(enum hs_log_level level, const char *msg, void *ctx)
{
	(void)level;
	*(int *)ctx += 1;
	snprintf(log_last, sizeof(log_last), "%s", msg);
}

static void test_log_callback(void **state)
{
	struct blob in = fixture("sgpr109");
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
	struct hs_rewrite_output out = {0};

	assert_null(hs_set_log_fn(log_cb, &log_calls));
	assert_int_equal(hs_rewrite(in.data, in.size, NULL, NULL, &opts, &out, NULL), HS_ERROR);
	assert_true(log_calls > 0);
	assert_string_equal(log_last, hs_last_error());
	assert_ptr_equal(hs_set_log_fn(NULL, NULL), log_cb); /* back to the default */
	free(in.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_provenance_note),
	    cmocka_unit_test(test_foreign_stepping_pool),
	    cmocka_unit_test(test_no_second_pool),
	    cmocka_unit_test(test_forged_stubs),
	    cmocka_unit_test(test_log_callback),
	    cmocka_unit_test(test_pool_without_program_headers),
	    cmocka_unit_test(test_allocated_section_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
