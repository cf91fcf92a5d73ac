/*
 * A profile's bytes, read as if someone else had planted the file: regular files only (a FIFO
 * never blocks, /dev/zero is never read), at most PROFILE_FILE_MAX bytes, and text that is
 * UTF-8 without NUL bytes.  Used for profile files and for `profile import`.
 */
#ifndef MIRAGE_PROFILE_FILE_H
#define MIRAGE_PROFILE_FILE_H

#include "diag.h"

#include <stddef.h>

/* The most a profile file (or an imported document) may hold: a profile is a few lines. */
#define PROFILE_FILE_MAX (1u << 20)

/*
 * Appends the regular file at path (symlinks followed: a linked profile is fine) to out.
 * kind names it in messages ("profile" gives "cannot read profile '<path>': ...", NULL gives
 * "cannot read '<path>': ...").  Returns 0, or -1 with err filled, nothing appended and errno
 * saying why: ENOENT no such file, EISDIR a directory, EINVAL another kind of special file,
 * EFBIG larger than PROFILE_FILE_MAX, or what open/read failed with.
 */
int profile_read_file(const char *path, const char *kind, struct strbuf *out, struct diag *err);
/* Appends all of fd (standard input) to out, refusing more than PROFILE_FILE_MAX bytes. */
int profile_read_stream(int fd, const char *origin, struct strbuf *out, struct diag *err);
/*
 * Checks that text[0..len) is UTF-8 without NUL bytes.  Fails with
 * "<origin>:<line>: NUL byte at column N" or "...: invalid UTF-8 at column N (byte 0xNN)".
 */
int profile_text_check(const char *text, size_t len, const char *origin, struct diag *err);

#endif
