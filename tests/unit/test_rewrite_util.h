/* Helpers for the libhotswap_rewrite tests: fixtures, temp files and LLVM's tools as judges. */
#ifndef TEST_REWRITE_UTIL_H
#define TEST_REWRITE_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elf.h>

#include "hotswap/rewrite.h"

struct blob {
	uint8_t *data;
	size_t size;
};

static inline struct blob read_file(const char *path)
{
	struct blob b = {0};
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		fail_msg("cannot open '%s': %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	b.data = malloc(n > 0 ? (size_t)n : 1);
	assert_non_null(b.data);
	b.size = fread(b.data, 1, (size_t)n, f);
	fclose(f);
	assert_int_equal(b.size, (size_t)n);
	return b;
}

/* A fixture by name ("hello" -> $FIXTURES/hello.co). */
static inline struct blob fixture(const char *name)
{
	char path[4096];
	const char *dir = getenv("FIXTURES");

	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/%s.co", dir, name);
	return read_file(path);
}

static inline void write_file(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, size, f), size);
	assert_int_equal(fclose(f), 0);
}

static char tmp_dir_path[256];

static inline int tmp_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void tmp_cleanup(void)
{
	if (tmp_dir_path[0] && !getenv("HS_TEST_KEEP"))
		nftw(tmp_dir_path, tmp_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* A per-process scratch directory, removed at exit (HS_TEST_KEEP=1 keeps it). */
static inline const char *tmp_dir(void)
{
	if (!tmp_dir_path[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(tmp_dir_path, sizeof(tmp_dir_path), "%s/hs-rewrite-test-XXXXXX",
		         t ? t : "/tmp");
		assert_non_null(mkdtemp(tmp_dir_path));
		atexit(tmp_cleanup);
	}
	return tmp_dir_path;
}

static inline void tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%.255s/%.200s", tmp_dir(), name);
}

/* Runs cmd through the shell; returns its stdout (caller frees) and stderr in *err_out. */
static inline char *run_capture(const char *cmd, char **err_out)
{
	char errpath[512], full[8192];
	struct blob out, err;
	char *s;
	FILE *p;
	size_t cap = 1 << 16, len = 0, n;

	tmp_path(errpath, sizeof(errpath), "stderr.txt");
	snprintf(full, sizeof(full), "%s 2>'%s'", cmd, errpath);
	p = popen(full, "r");
	assert_non_null(p);
	s = malloc(cap);
	assert_non_null(s);
	while ((n = fread(s + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 4096) {
			cap *= 2;
			s = realloc(s, cap);
			assert_non_null(s);
		}
	}
	s[len] = '\0';
	assert_int_equal(pclose(p), 0);
	out.data = (uint8_t *)s;
	err = read_file(errpath);
	if (err_out) {
		*err_out = malloc(err.size + 1);
		memcpy(*err_out, err.data, err.size);
		(*err_out)[err.size] = '\0';
	}
	free(err.data);
	return (char *)out.data;
}

static inline const char *tool(const char *var)
{
	const char *t = getenv(var);
	if (!t)
		fail_msg("%s is not set (run through ctest)", var);
	return t;
}

/* Rewrites b with flags (default ISAs); asserts status st; returns the output. */
static inline struct hs_rewrite_output
rewrite_flags(struct blob b, uint64_t flags, enum hs_status st, struct hs_rewrite_report *rep)
{
	HS_OPTS(hs_rewrite_opts, opts, .flags = flags);
	HS_OPTS(hs_rewrite_report, local);
	struct hs_rewrite_output out = {0};
	enum hs_status got;

	if (!rep)
		rep = &local;
	got = hs_rewrite(b.data, b.size, NULL, NULL, &opts, &out, rep);
	if (got != st)
		fail_msg("expected %s, got %s: %s", hs_status_str(st), hs_status_str(got),
		         hs_last_error());
	return out;
}

/* Where an ELF64 header field lies, by name (the tree never spells these offsets out). */
#define EH(field) offsetof(Elf64_Ehdr, field)
#define SH(field) offsetof(Elf64_Shdr, field)
#define PH(field) offsetof(Elf64_Phdr, field)

/* Little-endian field access and section lookup for building bad or altered inputs. */
static inline uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16;
}
static inline uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}
static inline void wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static inline void wr32(uint8_t *p, uint32_t v)
{
	wr16(p, (uint16_t)v);
	wr16(p + 2, (uint16_t)(v >> 16));
}
static inline void wr64(uint8_t *p, uint64_t v)
{
	wr32(p, (uint32_t)v);
	wr32(p + 4, (uint32_t)(v >> 32));
}

/* The section header of the section named name in a well-formed fixture. */
static inline uint8_t *shdr(struct blob b, const char *name)
{
	uint64_t shoff = rd64(b.data + EH(e_shoff));
	uint16_t shnum = rd16(b.data + EH(e_shnum)), shstrndx = rd16(b.data + EH(e_shstrndx));
	const uint8_t *strsh = b.data + shoff + (uint64_t)shstrndx * sizeof(Elf64_Shdr);
	const char *strs = (const char *)b.data + rd64(strsh + SH(sh_offset));

	for (uint16_t i = 0; i < shnum; i++) {
		uint8_t *sh = b.data + shoff + (uint64_t)i * sizeof(Elf64_Shdr);
		if (!strcmp(strs + rd32(sh), name))
			return sh;
	}
	fail_msg("no section '%s'", name);
	return NULL;
}

#endif
