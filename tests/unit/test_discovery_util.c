/* File-system helpers for the discovery unit tests (they abort on failure: a broken fixture is a
 * bug). */
#include "test_discovery_util.h"

#include "atomic_file.h"
#include "strbuf.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void fail(const char *what, const char *path)
{
	fprintf(stderr, "test fixture: %s '%s' failed\n", what, path);
	abort();
}

char *tu_mkdtemp(void)
{
	const char *tmp = getenv("TMPDIR");
	char *path = xstrfmt("%s/mirage-disc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(path))
		fail("mkdtemp", path);
	/* Canonical, so expected messages can compare against realpath()'d roots. */
	char *real = realpath(path, NULL);
	free(path);
	return real;
}

void tu_mkdirs(const char *dir, const char *rel)
{
	char *path = xstrfmt("%s/%s", dir, rel);
	if (mkdir_parents(path, 0755))
		fail("mkdir", path);
	free(path);
}

static char *prepare(const char *dir, const char *rel)
{
	char *path = xstrfmt("%s/%s", dir, rel);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	if (mkdir_parents(path, 0755))
		fail("mkdir", path);
	*slash = '/';
	return path;
}

/* Plain writes: fixtures need no fsync, and hundreds of them should stay fast. */
static void write_file(const char *path, const void *data, size_t len, mode_t mode)
{
	unlink(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len || fchmod(fd, mode) || close(fd))
		fail("write", path);
}

void tu_write(const char *dir, const char *rel, const char *text, mode_t mode)
{
	char *path = prepare(dir, rel);
	write_file(path, text, strlen(text), mode);
	free(path);
}

void tu_copy(const char *src, const char *dir, const char *rel, mode_t mode)
{
	struct strbuf data = STRBUF_INIT;
	if (strbuf_read_file(&data, src))
		fail("read", src);
	char *path = prepare(dir, rel);
	write_file(path, data.buf, data.len, mode);
	free(path);
	strbuf_release(&data);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void tu_rmtree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
