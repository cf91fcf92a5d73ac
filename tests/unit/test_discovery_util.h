/* File-system helpers shared by the discovery unit tests: temp dirs, fixture files, cleanup. */
#ifndef TEST_DISCOVERY_UTIL_H
#define TEST_DISCOVERY_UTIL_H

#include <sys/types.h>

/* A fresh directory under $TMPDIR (or /tmp); caller frees the string and calls tu_rmtree(). */
char *tu_mkdtemp(void);
/* Writes text to dir/rel, creating parent directories. */
void tu_write(const char *dir, const char *rel, const char *text, mode_t mode);
/* Copies the file src to dir/rel, creating parent directories. */
void tu_copy(const char *src, const char *dir, const char *rel, mode_t mode);
void tu_mkdirs(const char *dir, const char *rel);
void tu_rmtree(const char *dir);

#endif
