/*
 * The offload bundle reader and writer (codeobj/bundle.h) and MD5 (codeobj/md5.h): the
 * formats, the HIP runtime's selection rule, and every malformed input named with its field.
 * The compressed bundles are made here with zlib's and zstd's own compressors; that the hash
 * and layout agree with clang's bundler is integration/hip_bundle's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>
#include <zstd.h>

#include "bundle.h"
#include "md5.h"

static void hex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

/* RFC 1321's test suite, covering one and two padding blocks. */
static void test_md5_rfc1321(void **state)
{
	static const struct {
		const char *in, *hex;
	} v[] = {
	    {"", "d41d8cd98f00b204e9800998ecf8427e"},
	    {"a", "0cc175b9c0f1b6a831c399e269772661"},
	    {"abc", "900150983cd24fb0d6963f7d28e17f72"},
	    {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
	    {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
	    {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
	     "d174ab98d277d9f5a5611c2c9f419d9f"},
	    {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
	     "57edf4a22be3c955ac49da2e2107b67a"},
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t d[16];
		char h[33];
		md5(v[i].in, strlen(v[i].in), d);
		hex(d, 16, h);
		assert_string_equal(h, v[i].hex);
	}
}

static const uint8_t CODE1[] = "\177ELF gfx1250 code object";
static const uint8_t CODE2[] = "\177ELF gfx942 code object, a little longer";

/* A three-entry bundle as clang writes one: host (empty), gfx1250, gfx942. */
static uint8_t *sample(size_t *size)
{
	const struct cob_out_entry e[] = {
	    {"host-x86_64-unknown-linux-gnu-", NULL, 0},
	    {"hipv4-amdgcn-amd-amdhsa--gfx1250", CODE1, sizeof(CODE1)},
	    {"hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-", CODE2, sizeof(CODE2)},
	};
	uint8_t *out;
	char *err = NULL;
	assert_int_equal(cob_bundle_write(e, 3, &out, size, &err), 0);
	assert_null(err);
	return out;
}

static void test_write_read(void **state)
{
	size_t size;
	uint8_t *buf = sample(&size);
	struct cob_bundle b = COB_BUNDLE_INIT;
	char *err = NULL;

	assert_true(cob_is_bundle(buf, size));
	assert_int_equal(cob_bundle_read(buf, size, &b, &err), 0);
	assert_int_equal(b.n, 3);
	assert_int_equal(b.ccob, 0);
	assert_int_equal(b.extent, size);
	assert_string_equal(b.e[0].kind, "host");
	assert_string_equal(b.e[0].triple, "x86_64-unknown-linux-gnu");
	assert_string_equal(b.e[0].target, "");
	assert_int_equal(b.e[0].size, 0);
	assert_string_equal(b.e[1].kind, "hipv4");
	assert_string_equal(b.e[1].triple, "amdgcn-amd-amdhsa-");
	assert_string_equal(b.e[1].target, "gfx1250");
	assert_int_equal(b.e[1].offset % COB_ENTRY_ALIGN, 0);
	assert_memory_equal(b.e[1].data, CODE1, sizeof(CODE1));
	assert_string_equal(b.e[2].target, "gfx942:sramecc+:xnack-");
	assert_memory_equal(b.e[2].data, CODE2, sizeof(CODE2));
	assert_true(cob_entry_is_amdgcn(&b.e[1]));
	assert_false(cob_entry_is_amdgcn(&b.e[0]));
	assert_int_equal(cob_bundle_select(&b, "gfx942:sramecc+:xnack-"), 2);
	assert_int_equal(cob_bundle_select(&b, "gfx942:sramecc-:xnack-"), -1);
	assert_int_equal(cob_bundle_select(&b, "gfx1250"), 1);
	assert_int_equal(cob_bundle_select(&b, "gfx950"), -1);
	cob_bundle_free(&b);
	free(buf);
}

/*
 * The two-step writer (the HIP hooks' path): a layout planned before the last id is known,
 * the last payload put in place first, then the rest filled around it, gives the bundle
 * cob_bundle_write gives, byte for byte.
 */
static void test_layout_then_fill_is_write(void **state)
{
	struct cob_out_entry e[] = {
	    {"host-x86_64-unknown-linux-gnu-", NULL, 0},
	    {"hipv4-amdgcn-amd-amdhsa--gfx1250", CODE1, sizeof(CODE1)},
	    {NULL, NULL, sizeof(CODE2)},
	};
	struct cob_layout plan, l;
	size_t size;
	uint8_t *want = sample(&size), *buf;
	char *err = NULL;

	assert_int_equal(cob_bundle_layout(e, 3, 0, &plan, &err), 0);
	assert_true(plan.header > 3 * 24 + COB_MAX_ID); /* room for any last id */
	assert_int_equal(plan.first % COB_ENTRY_ALIGN, 0);
	buf = malloc(plan.total);
	assert_non_null(buf);
	memset(buf, 0xa5, plan.total); /* every byte must be written */
	memcpy(buf + plan.last, CODE2, sizeof(CODE2));
	e[2].id = "hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-";
	e[2].data = buf + plan.last; /* already in place: left there */
	assert_int_equal(cob_bundle_layout(e, 3, plan.first, &l, &err), 0);
	assert_int_equal(l.last, plan.last);
	assert_int_equal(l.size, size);
	cob_bundle_fill(e, 3, &l, buf);
	assert_memory_equal(buf, want, size);
	for (size_t i = size; i < l.total; i++)
		assert_int_equal(buf[i], 0);
	/* A first payload asked higher than the header needs moves every payload up. */
	assert_int_equal(cob_bundle_layout(e, 3, 3 * COB_ENTRY_ALIGN + 1, &l, &err), 0);
	assert_int_equal(l.first, 4 * COB_ENTRY_ALIGN);
	assert_null(err);
	free(buf);
	free(want);
}

/* The HIP runtime's rule: same processor; a feature the entry names must be the device's. */
static void test_target_compatible(void **state)
{
	assert_true(cob_target_compatible("gfx942", "gfx942:sramecc+:xnack-"));
	assert_true(cob_target_compatible("gfx942:xnack-", "gfx942:sramecc+:xnack-"));
	assert_true(cob_target_compatible("gfx942:sramecc+:xnack-", "gfx942:sramecc+:xnack-"));
	assert_false(cob_target_compatible("gfx942:xnack+", "gfx942:sramecc+:xnack-"));
	assert_false(cob_target_compatible("gfx942:sramecc-", "gfx942:sramecc+:xnack-"));
	assert_false(cob_target_compatible("gfx942:xnack-", "gfx942")); /* device leaves it unset */
	assert_false(cob_target_compatible("gfx94", "gfx942"));
	assert_false(cob_target_compatible("gfx9420", "gfx942"));
	assert_false(cob_target_compatible("gfx1250", "gfx942"));
	assert_false(cob_target_compatible("", "gfx942"));
}

/* Reads buf and expects a failure whose message contains want. */
static void refused(const void *buf, size_t size, const char *want)
{
	struct cob_bundle b = COB_BUNDLE_INIT;
	char *err = NULL;
	if (cob_bundle_read(buf, size, &b, &err) != -1)
		fail_msg("read, although '%s' was expected", want);
	assert_non_null(err);
	if (!strstr(err, want))
		fail_msg("expected '%s' in: %s", want, err);
	assert_int_equal(b.n, 0);
	assert_null(b.e);
	free(err);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void test_plain_refusals(void **state)
{
	size_t size;
	uint8_t *buf = sample(&size), *bad = malloc(size);
	const size_t e0 = COB_MAGIC_LEN + 8; /* entry 0's offset field */
	const size_t e1 = e0 + 24 + strlen("host-x86_64-unknown-linux-gnu-");

	refused(buf, 20, "not an offload bundle");
	refused(buf, COB_MAGIC_LEN + 4, "too short for its header");
	refused(NULL, 0, "null pointer");
#define BREAK(stmt, want)                                                                          \
	do {                                                                                       \
		memcpy(bad, buf, size);                                                            \
		stmt;                                                                              \
		refused(bad, size, want);                                                          \
	} while (0)
	BREAK(put64(bad + COB_MAGIC_LEN, 0), "entry count 0");
	BREAK(put64(bad + COB_MAGIC_LEN, 1u << 20), "entry count 1048576");
	BREAK(put64(bad + COB_MAGIC_LEN, 200), "entry 3's id length 0"); /* the padding's zeros */
	refused(buf, e1 + 10, "entry 1's header at offset 0x56 runs past the end");
	BREAK(put64(bad + e0 + 16, 1u << 30), "entry 0's id length 1073741824");
	BREAK(put64(bad + e0 + 16, 0), "entry 0's id length 0");
	BREAK(put64(bad + e1, size - 4), "lies outside the bundle");
	BREAK(put64(bad + e1 + 8, UINT64_MAX), "lies outside the bundle");
	BREAK(put64(bad + e1, 8), "lies outside the bundle's"); /* into the header */
	BREAK(bad[e1 + 24 + 3] = 0, "has a NUL byte");
	BREAK(memset(bad + e1 + 24, 'x', 32), "is not <kind>-<triple>[-<target>]");
	/* Entry 2 moved onto entry 1's payload. */
	{
		struct cob_bundle b = COB_BUNDLE_INIT;
		char *err = NULL;
		assert_int_equal(cob_bundle_read(buf, size, &b, &err), 0);
		uint64_t off1 = b.e[1].offset;
		size_t e2 = e1 + 24 + strlen(b.e[1].id);
		cob_bundle_free(&b);
		BREAK(put64(bad + e2, off1 + 1), "entries 1 and 2 overlap");
	}
	/* Cut short anywhere: refused, never read past the end (ASan watches). */
	for (size_t n = 0; n < size; n += 97) {
		struct cob_bundle b = COB_BUNDLE_INIT;
		char *err = NULL;
		uint8_t *cut = malloc(n ? n : 1);
		memcpy(cut, buf, n);
		assert_int_equal(cob_bundle_read(cut, n, &b, &err), -1);
		free(err);
		free(cut);
	}
	free(bad);
	free(buf);
}

static void le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* A CCOB of the sample bundle: version, method, the sizes and hash as that version lays out. */
static uint8_t *ccob(unsigned version, unsigned method, size_t *out_size)
{
	size_t raw_size, header = version == 1 ? 20 : version == 2 ? 24 : 32, cap, csize;
	uint8_t *raw = sample(&raw_size), digest[16], *out;

	cap = header + ZSTD_compressBound(raw_size) + compressBound(raw_size);
	out = calloc(1, cap);
	if (method == 1) {
		csize = ZSTD_compress(out + header, cap - header, raw, raw_size, 3);
		assert_false(ZSTD_isError(csize));
	} else {
		uLongf n = cap - header;
		assert_int_equal(compress2(out + header, &n, raw, raw_size, 6), Z_OK);
		csize = n;
	}
	md5(raw, raw_size, digest);
	memcpy(out, "CCOB", 4);
	le(out + 4, version, 2);
	le(out + 6, method, 2);
	if (version == 1) {
		le(out + 8, raw_size, 4);
		memcpy(out + 12, digest, 8);
	} else if (version == 2) {
		le(out + 8, header + csize, 4);
		le(out + 12, raw_size, 4);
		memcpy(out + 16, digest, 8);
	} else {
		le(out + 8, header + csize, 8);
		le(out + 16, raw_size, 8);
		memcpy(out + 24, digest, 8);
	}
	*out_size = header + csize;
	free(raw);
	return out;
}

#ifndef TEST_WITHOUT_ZSTD
static void test_ccob(void **state)
{
	static const unsigned cases[][2] = {{1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 0}, {3, 1}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t size;
		uint8_t *buf = ccob(cases[i][0], cases[i][1], &size);
		struct cob_bundle b = COB_BUNDLE_INIT;
		char *err = NULL;
		if (cob_bundle_read(buf, size, &b, &err))
			fail_msg("v%u method %u: %s", cases[i][0], cases[i][1], err);
		assert_int_equal(b.ccob, cases[i][0]);
		assert_int_equal(b.method, cases[i][1]);
		assert_int_equal(b.extent, size);
		assert_int_equal(b.n, 3);
		assert_memory_equal(b.e[2].data, CODE2, sizeof(CODE2));
		cob_bundle_free(&b);
		free(buf);
	}
}

static void test_ccob_refusals(void **state)
{
	size_t size, v2size;
	uint8_t *buf = ccob(3, 1, &size), *v2 = ccob(2, 0, &v2size), *bad = malloc(size);

	BREAK(bad[24] ^= 1, "the hash at offset 0x18 does not match");
	BREAK(le(bad + 4, 4, 2), "version 4 at offset 0x4");
	BREAK(le(bad + 6, 2, 2), "method 2 at offset 0x6");
	BREAK(le(bad + 8, size + 1, 8), "total size");
	BREAK(le(bad + 8, 8, 8), "total size 8");
	BREAK(le(bad + 16, UINT64_C(8) << 30, 8), "it claims 8589934592 uncompressed bytes");
	BREAK(le(bad + 16, (uint64_t)size * 2000, 8), "times the compressed size");
	BREAK(le(bad + 16, 100, 8), "zstd"); /* claims fewer bytes than the frame holds */
	BREAK(bad[40] ^= 0xff, "");          /* corrupt frame: zstd's or the hash's refusal */
	refused(buf, 12, "too short for a version 3 header");
	/* zlib: a stream that gives more than claimed, or ends early. */
	{
		uint8_t *z = malloc(v2size);
		memcpy(z, v2, v2size);
		le(z + 12, 64, 4);
		refused(z, v2size, "gives more than the 64 bytes");
		memcpy(z, v2, v2size);
		le(z + 8, v2size - 10, 4);
		refused(z, v2size - 10, "zlib");
		free(z);
	}
	/* A small input that decompresses to 64 MiB of zeros: refused by its claim. */
	{
		size_t raw = (size_t)64 << 20;
		uint8_t *zeros = calloc(1, raw), *bomb;
		size_t cap = ZSTD_compressBound(raw), csize;
		bomb = malloc(32 + cap);
		csize = ZSTD_compress(bomb + 32, cap, zeros, raw, 1);
		free(zeros);
		assert_false(ZSTD_isError(csize));
		memcpy(bomb, "CCOB", 4);
		le(bomb + 4, 3, 2);
		le(bomb + 6, 1, 2);
		le(bomb + 8, 32 + csize, 8);
		le(bomb + 16, raw, 8);
		refused(bomb, 32 + csize, "times the compressed size");
		le(bomb + 16, 4096, 8); /* claims little, produces much more */
		refused(bomb, 32 + csize, "zstd");
		free(bomb);
	}
	free(v2);
	free(bad);
	free(buf);
}
#endif

/* Two bundles in a section with zero padding between, as the linker lays them out. */
#ifndef TEST_WITHOUT_ZSTD
static void test_fatbin_sequence(void **state)
{
	size_t s1, s2, off = 0;
	uint8_t *a = sample(&s1), *c = ccob(2, 1, &s2);
	size_t total = 4096 * 4 + s1 + s2;
	uint8_t *sec = calloc(1, total);
	struct cob_bundle b = COB_BUNDLE_INIT;
	char *err = NULL;

	memcpy(sec, a, s1);
	memcpy(sec + 4096 * 3, c, s2);
	assert_int_equal(cob_fatbin_next(sec, total, &off, &b, &err), 1);
	assert_int_equal(b.ccob, 0);
	cob_bundle_free(&b);
	assert_int_equal(cob_fatbin_next(sec, total, &off, &b, &err), 1);
	assert_int_equal(b.ccob, 2);
	assert_int_equal(b.n, 3);
	cob_bundle_free(&b);
	assert_int_equal(cob_fatbin_next(sec, total, &off, &b, &err), 0);
	sec[total - 3] = 0x42;
	off = 4096 * 3 + s2;
	assert_int_equal(cob_fatbin_next(sec, total, &off, &b, &err), -1);
	assert_non_null(strstr(err, "neither an offload bundle nor padding"));
	free(err);
	free(sec);
	free(a);
	free(c);
}
#endif

#ifdef TEST_WITHOUT_ZSTD
/* Built with COB_ZSTD_SONAME naming a library that is not there (codeobj.cmake): a zstd
 * bundle is refused with what to install, and a zlib one still reads. */
static void test_ccob_without_zstd(void **state)
{
	size_t size;
	uint8_t *zstd = ccob(3, 1, &size), *zlib;

	refused(zstd, size,
	        "cannot load " COB_ZSTD_SONAME " to decompress it (install the zstd "
	        "library, Debian's libzstd1)");
	refused(zstd, size, "cannot load " COB_ZSTD_SONAME); /* and again: no retry, same answer */
	free(zstd);
	zlib = ccob(2, 0, &size);
	{
		struct cob_bundle b = COB_BUNDLE_INIT;
		char *err = NULL;
		if (cob_bundle_read(zlib, size, &b, &err))
			fail_msg("zlib: %s", err);
		assert_int_equal(b.n, 3);
		cob_bundle_free(&b);
	}
	free(zlib);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_md5_rfc1321),
	    cmocka_unit_test(test_write_read),
	    cmocka_unit_test(test_layout_then_fill_is_write),
	    cmocka_unit_test(test_target_compatible),
	    cmocka_unit_test(test_plain_refusals),
#ifdef TEST_WITHOUT_ZSTD
	    cmocka_unit_test(test_ccob_without_zstd),
#else
	    cmocka_unit_test(test_ccob),
	    cmocka_unit_test(test_ccob_refusals),
	    cmocka_unit_test(test_fatbin_sequence),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
