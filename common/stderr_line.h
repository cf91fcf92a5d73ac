/* One stderr line for code that runs inside someone else's process (the intercept). */
#ifndef MIRAGE_STDERR_LINE_H
#define MIRAGE_STDERR_LINE_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Writes prefix, the formatted text and a newline with a single write(2), so lines from
 * concurrent threads never interleave, without the host's stdio buffers and with errno kept.
 * The formatted text goes through stderr_escape (its arguments may quote a code object or a
 * path), the prefix as is.  Lines are cut at 1 KiB, never inside an escape.  libc only: the
 * shim uses it.
 */
__attribute__((format(printf, 2, 0))) void stderr_line_v(const char *prefix, const char *fmt,
                                                         va_list ap);

/*
 * Copies s into out[0..size) (size > 0; always NUL-terminated) so that a terminal shows it
 * as one line of text and acts on none of it: a control character (C0, DEL, C1) or a byte
 * that is not valid UTF-8 becomes \n, \r, \t or \xHH, a backslash becomes \\, so the text
 * reads back unambiguously; valid UTF-8 of printable characters stays.  Stops before an
 * escape that would not fit.  Returns the length written.
 */
size_t stderr_escape(char *out, size_t size, const char *s);

/*
 * One step of that escaping, for callers that build the text elsewhere (a strbuf): at s
 * (NUL-terminated, *s != '\0'), sets *piece to what to print, either s itself or esc (a
 * NUL-terminated escape written there), and returns how many bytes of s it stands for.  When
 * *piece is s, print exactly the returned number of bytes.
 */
size_t text_escape_step(const char *s, char esc[static 5], const char **piece);

#endif
