/* Growable, always NUL-terminated byte strings (after git's strbuf). */
#ifndef MIRAGE_STRBUF_H
#define MIRAGE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Invariants: buf is never NULL and buf[len] == '\0'.  A strbuf set up with
 * STRBUF_INIT points at a shared empty string and allocates on first growth.
 * Release with strbuf_release(); strbuf_detach() hands the buffer to the
 * caller, who frees it with free().  Allocation failure aborts: these are
 * small and a process that cannot allocate a path cannot do anything useful.
 */
struct strbuf {
	size_t alloc;
	size_t len;
	char *buf;
};

extern char strbuf_empty_[];
#define STRBUF_INIT                                                                                \
	{                                                                                          \
		0, 0, strbuf_empty_                                                                \
	}

void strbuf_init(struct strbuf *sb, size_t hint);
void strbuf_release(struct strbuf *sb);
char *strbuf_detach(struct strbuf *sb, size_t *len);
void strbuf_grow(struct strbuf *sb, size_t extra);
void strbuf_reset(struct strbuf *sb);
void strbuf_setlen(struct strbuf *sb, size_t len);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Appends s inside single quotes for sh/bash/zsh: ' becomes '\''. */
void strbuf_add_single_quoted(struct strbuf *sb, const char *s);
/* Appends s quoted for a POSIX shell: plain words stay bare, others get '...'. */
void strbuf_add_shell_quoted(struct strbuf *sb, const char *s);
/* Reads all of fd; returns 0 or -1 with errno set (sb keeps what was read). */
int strbuf_read_fd(struct strbuf *sb, int fd);
/* Like strbuf_read_fd(), but fails with EFBIG once fd gives more than max bytes. */
int strbuf_read_fd_max(struct strbuf *sb, int fd, size_t max);
/* Reads the whole file at path; returns 0 or -1 with errno set. */
int strbuf_read_file(struct strbuf *sb, const char *path);
/* Removes trailing whitespace. */
void strbuf_rtrim(struct strbuf *sb);

/* Lowercases the ASCII letters of s in place and returns s. */
char *str_lower(char *s);

/* Allocating helpers that abort on failure (git's x*). */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
