/* libhotswap_mc: the entry-trampoline stub, assembled and decoded by LLVM 22, byte for byte. */
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "hs_mc.h"

#define STUB_SIZE       256
#define STUB_CODE_BYTES 40
#define VCC_LO          106

static void *mc_handle;
static const struct hs_mc_api *mc;

/* The same path libhotswap_rewrite takes: dlopen the staged .so and ask for the table. */
static int load_api(void **state)
{
	hs_mc_get_api_fn get;

	mc_handle = dlopen(HS_MC_TEST_PATH, RTLD_NOW | RTLD_LOCAL);
	if (!mc_handle) {
		fprintf(stderr, "dlopen %s: %s\n", HS_MC_TEST_PATH, dlerror());
		return -1;
	}
	*(void **)&get = dlsym(mc_handle, HS_MC_ENTRY_SYMBOL);
	if (!get)
		return -1;
	mc = get();
	return mc ? 0 : -1;
}

static int unload_api(void **state)
{
	/* libLLVM registers atexit handlers; unloading it early is not worth the risk. */
	return 0;
}

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* The stub's bytes straight from its layout (docs/rewriter.md, the entry pass); n is 106 for vcc.
 */
static void expected_stub(uint8_t out[STUB_SIZE], unsigned n, uint64_t delta)
{
	static const uint8_t prefetch[12] = {0x00, 0x40, 0x17, 0xee, 0x00, 0x00,
	                                     0x04, 0x00, 0x00, 0x00, 0x00, 0x00};
	uint8_t *p = out;

	memcpy(p, prefetch, 12);
	p += 12;
	put_u32(p, 0x7e000000); /* v_nop */
	p += 4;
	*p++ = 0x00; /* s_get_pc_i64 */
	*p++ = 0x47;
	*p++ = (uint8_t)(0x80 | n);
	*p++ = 0xbe;
	*p++ = (uint8_t)n; /* s_add_co_u32 */
	*p++ = 0xff;
	*p++ = (uint8_t)n;
	*p++ = 0x80;
	put_u32(p, (uint32_t)delta);
	p += 4;
	*p++ = (uint8_t)(n + 1); /* s_add_co_ci_u32 */
	*p++ = 0xff;
	*p++ = (uint8_t)(n + 1);
	*p++ = 0x82;
	put_u32(p, (uint32_t)(delta >> 32));
	p += 4;
	*p++ = (uint8_t)n; /* s_set_pc_i64 */
	*p++ = 0x48;
	*p++ = 0x80;
	*p++ = 0xbe;
	while (p < out + STUB_SIZE) {
		put_u32(p, 0xbf9f0000); /* s_code_end */
		p += 4;
	}
}

/* Register names as LLVM 22 spells them for the pair starting at SGPR n. */
static void pair_names(unsigned n, char *pair, char *lo, char *hi, size_t size)
{
	if (n == VCC_LO) {
		snprintf(pair, size, "vcc");
		snprintf(lo, size, "vcc_lo");
		snprintf(hi, size, "vcc_hi");
	} else {
		snprintf(pair, size, "s[%u:%u]", n, n + 1);
		snprintf(lo, size, "s%u", n);
		snprintf(hi, size, "s%u", n + 1);
	}
}

/* The stub's source, always with the 8-byte literal forms (lit() forces them for small values). */
static char *stub_source(unsigned n, uint64_t delta)
{
	char pair[16], lo[16], hi[16];
	size_t size = 4096, len;
	char *src = malloc(size);

	assert_non_null(src);
	pair_names(n, pair, lo, hi, sizeof(pair));
	len = (size_t)snprintf(src, size,
	                       "global_prefetch_b8 v0, s[0:1] scope:SCOPE_SE\n"
	                       "v_nop\n"
	                       "s_get_pc_i64 %s\n"
	                       "s_add_co_u32 %s, %s, lit(0x%x)\n"
	                       "s_add_co_ci_u32 %s, %s, lit(0x%x)\n"
	                       "s_set_pc_i64 %s\n",
	                       pair, lo, lo, (unsigned)(uint32_t)delta, hi, hi,
	                       (unsigned)(uint32_t)(delta >> 32), pair);
	for (int i = 0; i < (STUB_SIZE - STUB_CODE_BYTES) / 4; i++)
		len += (size_t)snprintf(src + len, size - len, "s_code_end\n");
	assert_true(len < size);
	return src;
}

/*
 * LLVM prints a literal that an inline constant could also encode as
 * lit(0x..), any other one as a bare 0x..; both name the same 32 bits.
 */
static void assert_literal_text(const char *text, const char *prefix, uint32_t value)
{
	char bare[128], lit[128];

	snprintf(bare, sizeof(bare), "%s0x%x", prefix, value);
	snprintf(lit, sizeof(lit), "%slit(0x%x)", prefix, value);
	if (strcmp(text, bare) != 0 && strcmp(text, lit) != 0)
		fail_msg("decoded '%s', expected '%s' or '%s'", text, bare, lit);
}

static const unsigned pairs[] = {8, 104, VCC_LO};
static const uint64_t deltas[] = {
    0,                           /* zero */
    0x1234,                      /* small positive: an inline constant without lit() */
    0x40,                        /* the largest positive inline integer */
    0x3f800000,                  /* 1.0f: an inline float constant */
    0x12345678,                  /* needs a literal anyway */
    0x0000000100000000ull,       /* carry into the high half */
    (uint64_t)-20,               /* negative: stub jumping to itself */
    (uint64_t)-4096,             /* negative, page back */
    (uint64_t)-0x7fffffffffffll, /* far negative */
    0x00007ffffffffff0ull,       /* far positive */
};

static void check_decode(struct hs_mc_disasm *dis, const uint8_t *code, unsigned n, uint64_t delta)
{
	char pair[16], lo[16], hi[16], want[128], text[256], prefix[64];
	const uint64_t base = 0x10000;
	size_t off = 0, k;

	pair_names(n, pair, lo, hi, sizeof(pair));

	k = mc->decode(dis, code + off, STUB_SIZE - off, base + off, text, sizeof(text));
	assert_int_equal(k, 12);
	assert_string_equal(text, "global_prefetch_b8 v0, s[0:1] scope:SCOPE_SE");
	off += k;

	k = mc->decode(dis, code + off, STUB_SIZE - off, base + off, text, sizeof(text));
	assert_int_equal(k, 4);
	assert_string_equal(text, "v_nop");
	off += k;

	k = mc->decode(dis, code + off, STUB_SIZE - off, base + off, text, sizeof(text));
	assert_int_equal(k, 4);
	snprintf(want, sizeof(want), "s_get_pc_i64 %s", pair);
	assert_string_equal(text, want);
	off += k;

	k = mc->decode(dis, code + off, STUB_SIZE - off, base + off, text, sizeof(text));
	assert_int_equal(k, 8);
	snprintf(prefix, sizeof(prefix), "s_add_co_u32 %s, %s, ", lo, lo);
	assert_literal_text(text, prefix, (uint32_t)delta);
	off += k;

	k = mc->decode(dis, code + off, STUB_SIZE - off, base + off, text, sizeof(text));
	assert_int_equal(k, 8);
	snprintf(prefix, sizeof(prefix), "s_add_co_ci_u32 %s, %s, ", hi, hi);
	assert_literal_text(text, prefix, (uint32_t)(delta >> 32));
	off += k;

	k = mc->decode(dis, code + off, STUB_SIZE - off, base + off, text, sizeof(text));
	assert_int_equal(k, 4);
	snprintf(want, sizeof(want), "s_set_pc_i64 %s", pair);
	assert_string_equal(text, want);
	off += k;
	assert_int_equal(off, STUB_CODE_BYTES);

	for (; off < STUB_SIZE; off += k) {
		k = mc->decode(dis, code + off, STUB_SIZE - off, base + off, text, sizeof(text));
		assert_int_equal(k, 4);
		assert_string_equal(text, "s_code_end");
	}
}

static void test_api_version(void **state)
{
	assert_int_equal(mc->version, HS_MC_API_VERSION);
	assert_non_null(mc->disasm_create);
	assert_non_null(mc->disasm_destroy);
	assert_non_null(mc->decode);
	assert_non_null(mc->assemble);
}

static void test_stub_bytes_and_decode(void **state)
{
	struct hs_mc_disasm *dis = mc->disasm_create("gfx1250");

	assert_non_null(dis);
	for (size_t i = 0; i < sizeof(pairs) / sizeof(*pairs); i++) {
		for (size_t j = 0; j < sizeof(deltas) / sizeof(*deltas); j++) {
			uint8_t want[STUB_SIZE];
			uint8_t *got = NULL;
			size_t got_size = 0;
			char err[512] = "";
			char *src = stub_source(pairs[i], deltas[j]);

			expected_stub(want, pairs[i], deltas[j]);
			if (mc->assemble("gfx1250", src, &got, &got_size, err, sizeof(err)) != 0)
				fail_msg("assemble pair %u delta %#llx: %s", pairs[i],
				         (unsigned long long)deltas[j], err);
			assert_int_equal(got_size, STUB_SIZE);
			if (memcmp(got, want, STUB_SIZE) != 0) {
				for (size_t b = 0; b < STUB_SIZE; b++) {
					if (got[b] != want[b])
						fail_msg("pair %u delta %#llx: byte %zu is %02x, "
						         "spec says %02x",
						         pairs[i], (unsigned long long)deltas[j], b,
						         got[b], want[b]);
				}
			}
			/* Decode what the formulas say, so the decoder is checked on its own. */
			check_decode(dis, want, pairs[i], deltas[j]);
			free(got);
			free(src);
		}
	}
	mc->disasm_destroy(dis);
}

static void test_stub_modelled_add_lands_on_entry(void **state)
{
	/* The arithmetic the stub performs, on the spec's definition of delta. */
	const uint64_t stub = 0x3000, entries[] = {0x1000, 0x3014, 0x7fff0000ull};

	for (size_t i = 0; i < sizeof(entries) / sizeof(*entries); i++) {
		uint64_t delta = entries[i] - (stub + 20);
		uint64_t pc = stub + 20;
		uint32_t lo = (uint32_t)pc + (uint32_t)delta;
		uint32_t carry = lo < (uint32_t)pc;
		uint32_t hi = (uint32_t)(pc >> 32) + (uint32_t)(delta >> 32) + carry;

		assert_int_equal(((uint64_t)hi << 32) | lo, entries[i]);
	}
}

static void test_decode_undecodable(void **state)
{
	static const uint8_t junk[][4] = {
	    {0xff, 0xff, 0xff, 0xff},
	    {0xff, 0xff, 0xff, 0xbf},
	    {0x00, 0x00, 0x00, 0xf4},
	};
	/* The first 4 bytes of the 12-byte global_prefetch_b8: cut short. */
	static const uint8_t truncated[4] = {0x00, 0x40, 0x17, 0xee};
	/* s_add_co_u32 s8, s8, <literal> without its literal. */
	static const uint8_t no_literal[4] = {0x08, 0xff, 0x08, 0x80};
	struct hs_mc_disasm *dis = mc->disasm_create("gfx1250");
	char text[64];

	assert_non_null(dis);
	for (size_t i = 0; i < sizeof(junk) / sizeof(*junk); i++) {
		strcpy(text, "unchanged");
		assert_int_equal(mc->decode(dis, junk[i], 4, 0, text, sizeof(text)), 0);
		assert_string_equal(text, "");
	}
	assert_int_equal(mc->decode(dis, truncated, sizeof(truncated), 0, text, sizeof(text)), 0);
	assert_int_equal(mc->decode(dis, no_literal, sizeof(no_literal), 0, text, sizeof(text)), 0);
	assert_int_equal(mc->decode(dis, junk[0], 0, 0, text, sizeof(text)), 0);
	/* A short text buffer truncates, the size is still reported. */
	{
		static const uint8_t get_pc[4] = {0x00, 0x47, 0x88, 0xbe};
		char small[6];

		assert_int_equal(mc->decode(dis, get_pc, 4, 0, small, sizeof(small)), 4);
		assert_string_equal(small, "s_get");
		assert_int_equal(mc->decode(dis, get_pc, 4, 0, NULL, 0), 4);
	}
	mc->disasm_destroy(dis);
	mc->disasm_destroy(NULL);
}

/* LLVM 22 crashes on, or misprints, a 16-bit K of 0x80..0xff; libhotswap_mc works around it. */
static void test_decode_fp16_k(void **state)
{
	static const struct {
		uint8_t bytes[8];
		const char *text;
	} cases[] = {
	    {{0x02, 0x07, 0x02, 0x6e, 0xff, 0x00, 0x00, 0x00}, "v_fmamk_f16 v1, v2, 0xff, v3"},
	    {{0x02, 0x07, 0x02, 0x70, 0xff, 0x00, 0x00, 0x00}, "v_fmaak_f16 v1, v2, v3, 0xff"},
	    {{0x02, 0x07, 0x02, 0x6e, 0x80, 0x00, 0x00, 0x00}, "v_fmamk_f16 v1, v2, 0x80, v3"},
	    {{0x02, 0x07, 0x02, 0x70, 0xf0, 0x00, 0x00, 0x00}, "v_fmaak_f16 v1, v2, v3, 0xf0"},
	    {{0x02, 0x07, 0x02, 0x6e, 0x34, 0x12, 0x00, 0x00}, "v_fmamk_f16 v1, v2, 0x1234, v3"},
	    {{0x02, 0x07, 0x02, 0x6e, 0x7f, 0x00, 0x00, 0x00}, "v_fmamk_f16 v1, v2, 0x7f, v3"},
	};
	struct hs_mc_disasm *dis = mc->disasm_create("gfx1250");
	char text[128];

	assert_non_null(dis);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		assert_int_equal(mc->decode(dis, cases[i].bytes, 8, 0, text, sizeof(text)), 8);
		assert_string_equal(text, cases[i].text);
		/* Cut inside K: never decoded, never handed to LLVM short. */
		assert_int_equal(mc->decode(dis, cases[i].bytes, 5, 0, text, sizeof(text)), 0);
	}
	mc->disasm_destroy(dis);
}

/* Encodings LLVM 22 crashes on are undecodable; their valid neighbours still decode. */
static void test_decode_llvm_crashers(void **state)
{
	static const uint8_t bad[][8] = {
	    {0xff, 0x4e, 0x84, 0xbe, 0x34, 0x12, 0x00, 0x00}, /* s_barrier_signal <literal> */
	    {0xff, 0x4f, 0x84, 0xbe, 0x34, 0x12, 0x00, 0x00}, /* s_barrier_signal_isfirst */
	    {0xff, 0x52, 0x84, 0xbe, 0x34, 0x12, 0x00, 0x00}, /* s_barrier_join */
	    {0xff, 0x57, 0x84, 0xbe, 0x34, 0x12, 0x00, 0x00}, /* s_wakeup_barrier */
	    {0x00, 0x10, 0x33, 0xcc, 0x04, 0x20, 0x82, 0x04}, /* v_wmma ..f8f6f4, FP6 A in SGPRs */
	    {0x00, 0x00, 0x33, 0xcc, 0x00, 0x09, 0x80, 0x1c}, /* B in SGPRs, BF6 */
	};
	static const struct {
		uint8_t bytes[8];
		size_t size;
		const char *text;
	} good[] = {
	    {{0x02, 0x4f, 0x84, 0xbe}, 4, "s_barrier_signal_isfirst s2"},
	    {{0xc1, 0x4e, 0x80, 0xbe}, 4, "s_barrier_signal -1"},
	    {{0x00, 0x10, 0x33, 0xcc, 0x00, 0x21, 0x82, 0x04},
	     8,
	     "v_wmma_f32_16x16x128_f8f6f4 v[0:7], v[0:11], v[16:31], v[32:39] "
	     "matrix_a_fmt:MATRIX_FMT_FP6"},
	};
	struct hs_mc_disasm *dis = mc->disasm_create("gfx1250");
	char text[256];

	assert_non_null(dis);
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		assert_int_equal(mc->decode(dis, bad[i], 8, 0, text, sizeof(text)), 0);
	for (size_t i = 0; i < sizeof(good) / sizeof(*good); i++) {
		assert_int_equal(mc->decode(dis, good[i].bytes, 8, 0, text, sizeof(text)),
		                 good[i].size);
		assert_string_equal(text, good[i].text);
	}
	mc->disasm_destroy(dis);
}

static void test_unknown_cpu(void **state)
{
	uint8_t *out = NULL;
	size_t out_size = 0;
	char err[256] = "";

	assert_null(mc->disasm_create("gfx9999"));
	assert_null(mc->disasm_create(""));
	assert_null(mc->disasm_create(NULL));
	assert_int_equal(mc->assemble("gfx9999", "v_nop\n", &out, &out_size, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "gfx9999"));
	assert_null(out);
}

/* Bad assembly fails with a message naming the line in the caller's source, never printing. */
static void test_bad_assembly(void **state)
{
	static const struct {
		const char *src;
		const char *want; /* substring of the message */
	} cases[] = {
	    {"v_nop\n  s_bogus s0\n", "line 2"},
	    {"s_add_co_u32 s8, s8, lit(0x123456789)\n", "line 1"},
	    {"s_add_co_u32 s200, s0, s1\n", "line 1"},
	    {"s_branch nowhere\n", "nowhere"},
	    {"v_nop\n.fill -1\n", "directives are not supported (line 2"},
	    {"x: .incbin \"/etc/passwd\"\n", "directives"},
	    {"\t.Lx: y:\t.text\n", "directives"},
	};
	char path[] = "/tmp/mirage_test_mc_XXXXXX";
	int fd = mkstemp(path), saved;
	off_t printed;

	assert_true(fd >= 0);
	unlink(path);
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fd, STDERR_FILENO) >= 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uint8_t *out = NULL;
		size_t out_size = 0;
		char err[512] = "";
		int rc = mc->assemble("gfx1250", cases[i].src, &out, &out_size, err, sizeof(err));

		if (rc != -1 || !strstr(err, cases[i].want) || out) {
			dup2(saved, STDERR_FILENO);
			fail_msg("'%s': rc %d, message '%s', want '%s'", cases[i].src, rc, err,
			         cases[i].want);
		}
		assert_null(strchr(err, '\n'));
	}
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	printed = lseek(fd, 0, SEEK_END);
	close(fd);
	assert_int_equal(printed, 0);
}

static void test_empty_source(void **state)
{
	uint8_t *out = NULL;
	size_t out_size = 99;
	char err[64];

	assert_int_equal(mc->assemble("gfx1250", "", &out, &out_size, err, sizeof(err)), 0);
	assert_int_equal(out_size, 0);
	free(out);
	assert_int_equal(mc->assemble("gfx1250", NULL, &out, &out_size, err, sizeof(err)), -1);
}

/* The map's "local: *" holds: nm -D --defined-only lists hs_mc_get_api and nothing else. */
static void test_exports(void **state)
{
	char cmd[1024], line[512], names[1024] = "";
	size_t len = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s' -D --defined-only '%s'", HS_MC_TEST_NM, HS_MC_TEST_PATH);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *name = strrchr(line, ' ');

		name = name ? name + 1 : line;
		name[strcspn(name, "\n")] = '\0';
		len += (size_t)snprintf(names + len, sizeof(names) - len, "%s ", name);
		assert_true(len < sizeof(names));
	}
	assert_int_equal(pclose(p), 0);
	assert_string_equal(names, HS_MC_ENTRY_SYMBOL " ");
}

/* Each call owns its LLVM context and target machine, so concurrent calls need no lock. */
static void *assemble_thread(void *arg)
{
	uintptr_t id = (uintptr_t)arg;
	struct hs_mc_disasm *dis = NULL;
	uintptr_t bad = 0;

	for (int iter = 0; iter < 3; iter++) {
		unsigned n = pairs[(id + (uintptr_t)iter) % 3];
		uint64_t delta = deltas[(id * 3 + (uintptr_t)iter) % 10];
		uint8_t want[STUB_SIZE], *got = NULL;
		size_t got_size = 0;
		char err[256], text[128];
		char *src = stub_source(n, delta);

		expected_stub(want, n, delta);
		if (mc->assemble("gfx1250", src, &got, &got_size, err, sizeof(err)) != 0 ||
		    got_size != STUB_SIZE || memcmp(got, want, STUB_SIZE) != 0)
			bad++;
		if (!dis)
			dis = mc->disasm_create("gfx1250");
		if (!dis || mc->decode(dis, want, STUB_SIZE, 0, text, sizeof(text)) != 12)
			bad++;
		free(got);
		free(src);
	}
	mc->disasm_destroy(dis);
	return (void *)bad;
}

static void test_threads(void **state)
{
	pthread_t t[4];

	for (uintptr_t i = 0; i < 4; i++)
		assert_int_equal(pthread_create(&t[i], NULL, assemble_thread, (void *)i), 0);
	for (int i = 0; i < 4; i++) {
		void *bad = NULL;

		assert_int_equal(pthread_join(t[i], &bad), 0);
		assert_int_equal((uintptr_t)bad, 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_api_version),
	    cmocka_unit_test(test_stub_bytes_and_decode),
	    cmocka_unit_test(test_stub_modelled_add_lands_on_entry),
	    cmocka_unit_test(test_decode_undecodable),
	    cmocka_unit_test(test_decode_fp16_k),
	    cmocka_unit_test(test_decode_llvm_crashers),
	    cmocka_unit_test(test_unknown_cpu),
	    cmocka_unit_test(test_bad_assembly),
	    cmocka_unit_test(test_empty_source),
	    cmocka_unit_test(test_threads),
	    cmocka_unit_test(test_exports),
	};
	return cmocka_run_group_tests(tests, load_api, unload_api);
}
