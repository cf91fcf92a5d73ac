/* Internals of libhotswap_rewrite: scratch pairs, stub bytes (checked by LLVM's assembler),
 * metadata. */
#include "test_rewrite_util.h"

#include <dlfcn.h>

#include "hs_internal.h"
#include "hs_mc.h"
#include "stub_format.h"
#include "stub_match.h"
#include "pass.h"
#include "writer.h"

static void test_scratch_pair_table(void **state)
{
	static const struct {
		uint64_t count;
		int rc;
		unsigned pair;
		uint64_t recorded;
	} cases[] = {
	    {0, 0, 0, 4},       {1, 0, 2, 6},       {8, 0, 8, 12},          {9, 0, 10, 14},
	    {21, 0, 22, 26},    {100, 0, 100, 104}, {102, 0, 102, 106},     {103, 0, 104, 108},
	    {104, 0, 104, 108}, {105, 0, 106, 108}, {106, 0, 106, 108},     {107, 0, 106, 108},
	    {108, 0, 106, 108}, {109, -1, 0, 0},    {UINT64_MAX, -1, 0, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned pair = 0;
		uint64_t rec = 0;
		int rc = hs_scratch_pair(cases[i].count, &pair, &rec);
		assert_int_equal(rc, cases[i].rc);
		if (rc)
			continue;
		if (pair != cases[i].pair || rec != cases[i].recorded)
			fail_msg("count %llu: pair %u recorded %llu, want %u %llu",
			         (unsigned long long)cases[i].count, pair, (unsigned long long)rec,
			         cases[i].pair, (unsigned long long)cases[i].recorded);
	}
}

static void test_stub_bytes(void **state)
{
	static const uint8_t want[40] = {
	    0x00, 0x40, 0x17, 0xee, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, /* prefetch */
	    0x00, 0x00, 0x00, 0x7e,                                                 /* v_nop */
	    0x00, 0x47, 0x88, 0xbe,                         /* s_get_pc_i64 s[8:9] */
	    0x08, 0xff, 0x08, 0x80, 0xec, 0x00, 0xe1, 0xff, /* s_add_co_u32 */
	    0x09, 0xff, 0x09, 0x82, 0xff, 0xff, 0xff, 0xff, /* s_add_co_ci_u32 */
	    0x08, 0x48, 0x80, 0xbe,                         /* s_set_pc_i64 */
	};
	uint8_t stub[HS_STUB_SIZE];
	unsigned pair = 0;

	/* Entry 0x10100, stub 0x200000: delta = 0x10100 - 0x200014 = -0x1eff14. */
	hs_stub_encode(stub, 0x200000, 0x10100, 8);
	assert_memory_equal(stub, want, sizeof(want));
	for (size_t off = 40; off < HS_STUB_SIZE; off += 4)
		assert_int_equal(stub[off + 2] | stub[off + 3] << 8, 0xbf9f); /* s_code_end */
	assert_true(hs_stub_raw_match(stub, sizeof(stub), &pair));
	assert_int_equal(pair, 8);
	/* vcc form: byte 18 = 0x80 | 106. */
	hs_stub_encode(stub, 0x3000, 0x1500, 106);
	assert_int_equal(stub[18], 0xea);
	assert_true(hs_stub_raw_match(stub, sizeof(stub), &pair));
	assert_int_equal(pair, 106);
	/* The prefilter rejects near misses: odd pair, mismatched halves, no prefix, too short. */
	stub[18] = 0x80 | 9;
	assert_false(hs_stub_raw_match(stub, sizeof(stub), &pair));
	hs_stub_encode(stub, 0x3000, 0x1500, 8);
	stub[28] = 11;
	assert_false(hs_stub_raw_match(stub, sizeof(stub), &pair));
	hs_stub_encode(stub, 0x3000, 0x1500, 8);
	stub[0] = 0x01;
	assert_false(hs_stub_raw_match(stub, sizeof(stub), &pair));
	hs_stub_encode(stub, 0x3000, 0x1500, 8);
	assert_false(hs_stub_raw_match(stub, 39, &pair));
	assert_false(hs_entry_has_prologue(stub, 15));
}

static const struct hs_mc_api *load_mc(void)
{
	char path[4096];
	void *h;
	hs_mc_get_api_fn get;

	snprintf(path, sizeof(path), "%s/hotswap/lib/%s", tool("MIRAGE_BUILD"), HS_MC_LIBRARY_NAME);
	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		fail_msg("libhotswap_mc is required for this test: %s", dlerror());
	get = (hs_mc_get_api_fn)dlsym(h, HS_MC_ENTRY_SYMBOL);
	assert_non_null(get);
	return get();
}

/*
 * Every stub byte equals what LLVM 22's assembler emits for the same text
 * (literals forced).  The decoder side (hs_stub_match) runs through the shared
 * library in test_rewrite_entry, where libhotswap_mc.so sits next to it.
 */
static void test_stub_matches_llvm_assembler(void **state)
{
	static const struct {
		uint64_t stub, entry;
		unsigned pair;
	} cases[] = {
	    {0x200000, 0x10100, 8},       {0x3000, 0x1500, 104}, {0x3100, 0x1600, 106},
	    {0x1000, 0x123456789000, 20}, {0x7000, 0x7014, 2},
	};
	const struct hs_mc_api *api = load_mc();

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t stub[HS_STUB_SIZE], *bytes = NULL;
		size_t size = 0;
		char src[1024], err[256], pr[16], lo[16], hi[16];
		uint64_t d = cases[i].entry - (cases[i].stub + 20);
		unsigned n = cases[i].pair;

		if (n == 106) {
			snprintf(pr, sizeof(pr), "vcc");
			snprintf(lo, sizeof(lo), "vcc_lo");
			snprintf(hi, sizeof(hi), "vcc_hi");
		} else {
			snprintf(pr, sizeof(pr), "s[%u:%u]", n, n + 1);
			snprintf(lo, sizeof(lo), "s%u", n);
			snprintf(hi, sizeof(hi), "s%u", n + 1);
		}
		snprintf(src, sizeof(src),
		         "global_prefetch_b8 v0, s[0:1] scope:SCOPE_SE\nv_nop\ns_get_pc_i64 %s\n"
		         "s_add_co_u32 %s, %s, lit(0x%x)\ns_add_co_ci_u32 %s, %s, lit(0x%x)\n"
		         "s_set_pc_i64 %s\n",
		         pr, lo, lo, (unsigned)d, hi, hi, (unsigned)(d >> 32), pr);
		if (api->assemble("gfx1250", src, &bytes, &size, err, sizeof(err)))
			fail_msg("assemble: %s", err);
		hs_stub_encode(stub, cases[i].stub, cases[i].entry, n);
		assert_true(size >= 40);
		assert_memory_equal(bytes, stub, 40);
		free(bytes);
	}
}

/* Writes data to a temp file; returns llvm-readelf -a's output, asserting no warning. */
static char *readelf_clean(const char *name, const void *data, size_t size)
{
	char path[512], cmd[4096], *out, *err;

	tmp_path(path, sizeof(path), name);
	write_file(path, data, size);
	snprintf(cmd, sizeof(cmd), "'%s' -a '%s'", tool("LLVM_READELF"), path);
	out = run_capture(cmd, &err);
	assert_string_equal(err, "");
	assert_null(strcasestr(out, "warning"));
	free(err);
	return out;
}

/* The patch writer over a plan holding only metadata updates (as a later pass would add). */
static struct hs_written write_meta(const struct hs_object *o, const struct hs_meta_update *u,
                                    size_t n)
{
	struct hs_plan p;
	struct hs_written w;

	assert_int_equal(hs_plan_init(&p, o, HS_PLAN_DECLINE), HS_OK);
	p.meta = calloc(n, sizeof(*u));
	assert_non_null(p.meta);
	memcpy(p.meta, u, n * sizeof(*u));
	p.n_meta = n;
	assert_int_equal(hs_patch_writer.write(o, &p, &w), HS_OK);
	hs_plan_free(&p);
	return w;
}

/* Counts at 127 re-encode wider (fixint -> uint8): the note moves to the pool and stays readable.
 */
static void test_metadata_width_change(void **state)
{
	struct blob in = fixture("meta127");
	struct hs_object o;
	/* A key the kernel lacks changes nothing. */
	static const struct hs_meta_update u[] = {
	    {.kernel = 0, .key = ".vgpr_count", .value = 128},
	    {.kernel = 0, .key = ".kernarg_segment_size", .value = 70000}, /* uint32 */
	    {.kernel = 0, .key = ".no_such_key", .value = 1}};
	struct hs_written b;
	uint64_t v = 0;
	char *out;

	assert_int_equal(hs_object_load(&o, in.data, in.size), HS_OK);
	assert_non_null(o.meta);
	assert_int_equal(hs_meta_kernel_count(o.meta), 1);
	assert_true(hs_meta_get_uint(o.meta, 0, ".vgpr_count", &v));
	assert_int_equal(v, 127);
	b = write_meta(&o, u, 3);
	assert_true(b.pool_size > 0);
	out = readelf_clean("meta128.co", b.data, b.size);
	assert_null(strstr(out, "no_such_key"));
	assert_non_null(strstr(out, ".vgpr_count:     128"));
	assert_non_null(strstr(out, ".kernarg_segment_size: 70000"));
	free(out);
	/* The moved note is what a rewrite reads next; stubbing it again works and stays clean. */
	{
		struct blob moved = {b.data, b.size};
		HS_OPTS(hs_rewrite_report, rep);
		struct hs_rewrite_output r = rewrite_flags(moved, 0, HS_OK, &rep);
		assert_false(rep.changed);
		hs_rewrite_output_release(&r);
		/* Stubs go into a second pool (the first carries no entry transform). */
		r = rewrite_flags(moved, HS_REWRITE_ENTRY_DEFAULT, HS_OK, &rep);
		assert_int_equal(rep.kernels_stubbed, 1);
		out = readelf_clean("meta128-stubbed.co", r.data, r.size);
		assert_non_null(strstr(out, ".vgpr_count:     128"));
		assert_non_null(strstr(out, ".sgpr_count:     104"));
		free(out);
		hs_rewrite_output_release(&r);
	}
	free(b.data);
	hs_object_free(&o);
	free(in.data);
}

/*
 * The translation route's carry (hs_plan_meta_carry): a key takes another metadata's msgpack
 * value whole (xk's .args, five maps), is added when missing, and removed when that value is
 * NULL (xk2 has no .args in the source); keys are judged by llvm-readelf-22 afterwards.
 */
static void test_metadata_carry(void **state)
{
	struct blob src_in = fixture("xlat_src"), out_in = fixture("xlat_gfx942");
	struct hs_object src, out, again;
	struct hs_meta_update u[4];
	struct hs_written b;
	uint64_t v = 0;
	char *text;

	assert_int_equal(hs_object_load(&src, src_in.data, src_in.size), HS_OK);
	assert_int_equal(hs_object_load(&out, out_in.data, out_in.size), HS_OK);
	/* xk is metadata kernel 0 in both; xk2 is 1. */
	u[0] = (struct hs_meta_update){.kernel = 0,
	                               .key = ".args",
	                               .carry = true,
	                               .obj = hs_meta_get_value(src.meta, 0, ".args")};
	u[1] = (struct hs_meta_update){
	    .kernel = 0,
	    .key = ".kernarg_segment_align",
	    .carry = true,
	    .obj = hs_meta_get_value(src.meta, 0, ".kernarg_segment_align")};
	u[2] = (struct hs_meta_update){.kernel = 1, .key = ".args", .carry = true, .obj = NULL};
	/* A key the kernel lacks is added: the source's xk2 .sgpr_count (1) as .x_added. */
	u[3] = (struct hs_meta_update){.kernel = 1,
	                               .key = ".x_added",
	                               .carry = true,
	                               .obj = hs_meta_get_value(src.meta, 1, ".sgpr_count")};
	assert_non_null(u[0].obj);
	b = write_meta(&out, u, 4);
	text = readelf_clean("carried.co", b.data, b.size);
	assert_non_null(strstr(text, "hidden_grid_dims"));
	assert_non_null(strstr(text, ".x_added:"));
	free(text);
	assert_int_equal(hs_object_load(&again, b.data, b.size), HS_OK);
	assert_non_null(hs_meta_get_value(again.meta, 0, ".args"));
	assert_null(hs_meta_get_value(again.meta, 1, ".args"));
	assert_true(hs_meta_get_uint(again.meta, 1, ".x_added", &v));
	assert_int_equal(v, 1);
	assert_true(hs_meta_get_uint(again.meta, 0, ".kernarg_segment_align", &v));
	assert_int_equal(v, 8);
	assert_true(hs_meta_get_uint(again.meta, 0, ".kernarg_segment_size", &v));
	assert_int_equal(v, 272);
	hs_object_free(&again);
	free(b.data);
	hs_object_free(&out);
	hs_object_free(&src);
	free(src_in.data);
	free(out_in.data);
}

/*
 * A note section aligned to 8 pads its records as LLVM reads them: header and
 * name to 24 bytes, desc to 8.  hello's note is re-laid that way (its 372 bytes
 * become 376, which the 4-byte gap before .dynsym takes), then a count widens
 * the desc from 352 to 353 bytes: the re-encoded record must pad the same way
 * (24 + 360), or it reads as garbage to LLVM and to a second rewrite.
 */
static void test_metadata_note_aligned_8(void **state)
{
	struct blob in = fixture("hello");
	uint8_t *note = shdr(in, ".note"), *ph = in.data + rd64(in.data + EH(e_phoff));
	uint8_t *rec = in.data + rd64(note + 24);
	static const struct hs_meta_update u[] = {
	    {.kernel = 0, .key = ".vgpr_count", .value = 128}};
	struct hs_object o;
	struct hs_written b;
	char *out;

	assert_int_equal(rd64(note + 32), 20 + 352);
	assert_int_equal(rd64(shdr(in, ".dynsym") + 24), rd64(note + 24) + 376);
	memmove(rec + 24, rec + 20, 352);
	memset(rec + 20, 0, 4);
	wr64(note + 32, 376);
	wr64(note + 48, 8);
	for (uint16_t i = 0; i < rd16(in.data + EH(e_phnum)); i++) {
		uint8_t *p = ph + i * 56u;
		if (rd32(p) != PT_NOTE)
			continue;
		wr64(p + 32, 376); /* p_filesz */
		wr64(p + 40, 376); /* p_memsz */
		wr64(p + 48, 8);   /* p_align */
	}
	out = readelf_clean("note8-in.co", in.data, in.size);
	assert_non_null(strstr(out, ".vgpr_count:     2"));
	free(out);
	assert_int_equal(hs_object_load(&o, in.data, in.size), HS_OK);
	assert_non_null(o.meta);
	b = write_meta(&o, u, 1);
	{
		struct blob moved = {b.data, b.size};
		uint8_t *sh = shdr(moved, ".note");
		HS_OPTS(hs_rewrite_report, rep);
		struct hs_rewrite_output r;

		assert_int_equal(rd64(sh + SH(sh_addralign)), 8);
		assert_int_equal(rd64(sh + SH(sh_offset)) % 8, 0);
		assert_int_equal(rd64(sh + SH(sh_size)), 24 + 360); /* desc 353, padded to 8 */
		out = readelf_clean("note8.co", moved.data, moved.size);
		assert_non_null(strstr(out, ".vgpr_count:     128"));
		free(out);
		r = rewrite_flags(moved, HS_REWRITE_ENTRY_DEFAULT, HS_OK, &rep);
		assert_int_equal(rep.kernels_stubbed, 1);
		hs_rewrite_output_release(&r);
	}
	free(b.data);
	hs_object_free(&o);
	free(in.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_scratch_pair_table),
	    cmocka_unit_test(test_stub_bytes),
	    cmocka_unit_test(test_stub_matches_llvm_assembler),
	    cmocka_unit_test(test_metadata_width_change),
	    cmocka_unit_test(test_metadata_carry),
	    cmocka_unit_test(test_metadata_note_aligned_8),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
