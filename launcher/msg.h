/*
 * Every message the launcher prints to the user goes through here, so the
 * prefix, --json and NO_COLOR are one switch each.  Formats carry no
 * trailing newline.  Style: lowercase, no full stop, what failed first, paths
 * quoted, then an optional "hint: " line that says how to fix it.
 */
#ifndef MIRAGE_MSG_H
#define MIRAGE_MSG_H

#include <stdarg.h>
#include <stdbool.h>

#define MSG_PRINTF(f, a) __attribute__((format(printf, f, a)))

/*
 * Sets up the output mode, from main and the option parser: json errors, colour.  color is
 * --color's WHEN: "always", "never", or "auto"/NULL: colour on a terminal unless NO_COLOR is set
 * or TERM is "dumb" (as git and GNU ls decide).  Never colour under --json.
 */
void msg_setup(bool json, const char *color);
/* Whether output on fd is coloured, by that rule. */
bool msg_color_on(int fd);

/* "mirage: <msg>" on stderr (or {"error": ...} under --json).  Returns -1 for `return error(...)`.
 */
int error(const char *fmt, ...) MSG_PRINTF(1, 2);
/* Same, with ": <strerror(errno at entry)>" appended. */
int error_errno(const char *fmt, ...) MSG_PRINTF(1, 2);
/* "mirage: warning: <msg>" on stderr. */
void warning(const char *fmt, ...) MSG_PRINTF(1, 2);
/* "mirage: <msg>" on stderr: a status line that is not the result (callers skip it under --json).
 */
void inform(const char *fmt, ...) MSG_PRINTF(1, 2);
/* "mirage: <msg>" on stderr, only at -v and above. */
void note(const char *fmt, ...) MSG_PRINTF(1, 2);
/* "hint: <msg>" on stderr; under --json it is attached to the last error as "hint". */
void hint(const char *fmt, ...) MSG_PRINTF(1, 2);
/* "mirage: <msg>" for command-line mistakes; returns EXIT_USAGE's value (2). */
int usage_error(const char *fmt, ...) MSG_PRINTF(1, 2);
/* Error then exit(1); only for main-level code. */
_Noreturn void die(const char *fmt, ...) MSG_PRINTF(1, 2);

struct strbuf;
/*
 * Appends text to out as a terminal shows it without acting on it: each line through
 * stderr_escape (common/stderr_line.h: control bytes, DEL, C1 and bad UTF-8 become \xHH, \t,
 * \r), the newlines between lines and backslashes kept as they are.  Every human-readable line the
 * launcher prints goes through here (messages in emit(), stdout text in print_text()), because
 * names from code objects and paths from the file system are not ours to trust.
 */
void msg_escape(struct strbuf *out, const char *text);

struct diag;
/* Prints a lower layer's diagnostic (message, then its hint), releases it, and returns code. */
int report_diag(struct diag *d, int code);
/*
 * Asks "<question> [y/N] " on stderr and reads one line from stdin.
 * Returns 1 for y/yes (any case), 0 for anything else, -1 when stdin ended
 * without an answer (the caller must treat that as an error, not a "no").
 */
int ask_yes_no(const char *question);

void msg_set_verbose(int level);
/* Flushes a pending JSON error document (called once before exit). */
void msg_finish(void);

/* The colours' escape sequences; print them only where msg_color_on() says so. */
const char *color_ok(void);
const char *color_warn(void);
const char *color_fail(void);
const char *color_reset(void);

#endif
