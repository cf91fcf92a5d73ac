/* One stderr line for code that runs inside someone else's process (the intercept). */
#ifndef MIRAGE_STDERR_LINE_H
#define MIRAGE_STDERR_LINE_H

#include <stdarg.h>

/*
 * Writes prefix, the formatted text and a newline with a single write(2), so lines from
 * concurrent threads never interleave, without the host's stdio buffers and with errno kept.
 * Lines are cut at 1 KiB.  libc only: the shim uses it.
 */
__attribute__((format(printf, 2, 0))) void stderr_line_v(const char *prefix, const char *fmt,
                                                         va_list ap);

#endif
