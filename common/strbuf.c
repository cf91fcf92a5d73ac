/* Growable string buffers and the aborting allocators they rest on. */
#include "strbuf.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char strbuf_empty_[1];

static void die_oom(size_t n)
{
	fprintf(stderr, "mirage: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		die_oom(n);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *xstrfmt(const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	return strbuf_detach(&sb, NULL);
}

void strbuf_init(struct strbuf *sb, size_t hint)
{
	sb->alloc = 0;
	sb->len = 0;
	sb->buf = strbuf_empty_;
	if (hint)
		strbuf_grow(sb, hint);
}

void strbuf_release(struct strbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	strbuf_init(sb, 0);
}

char *strbuf_detach(struct strbuf *sb, size_t *len)
{
	char *res;
	strbuf_grow(sb, 0);
	res = sb->buf;
	if (len)
		*len = sb->len;
	strbuf_init(sb, 0);
	return res;
}

void strbuf_grow(struct strbuf *sb, size_t extra)
{
	size_t want;
	if (extra > SIZE_MAX - sb->len - 1)
		die_oom(SIZE_MAX);
	want = sb->len + extra + 1;
	if (sb->alloc && want <= sb->alloc)
		return;
	if (!sb->alloc) {
		size_t n = want < 64 ? 64 : want;
		char *p = xmalloc(n);
		memcpy(p, sb->buf, sb->len + 1);
		sb->buf = p;
		sb->alloc = n;
		return;
	}
	size_t n = sb->alloc;
	while (n < want)
		n = n > SIZE_MAX / 2 ? want : n * 2;
	sb->buf = xrealloc(sb->buf, n);
	sb->alloc = n;
}

void strbuf_reset(struct strbuf *sb)
{
	strbuf_setlen(sb, 0);
}

void strbuf_setlen(struct strbuf *sb, size_t len)
{
	if (!sb->alloc)
		return; /* only length 0 is possible */
	sb->len = len;
	sb->buf[len] = '\0';
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	strbuf_grow(sb, len);
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;
	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	strbuf_grow(sb, (size_t)n);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

static int is_shell_safe(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("_-./:=+,@%", c)))
			return 0;
	}
	return 1;
}

void strbuf_add_single_quoted(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '\'');
}

void strbuf_add_shell_quoted(struct strbuf *sb, const char *s)
{
	if (is_shell_safe(s))
		strbuf_addstr(sb, s);
	else
		strbuf_add_single_quoted(sb, s);
}

int strbuf_read_fd(struct strbuf *sb, int fd)
{
	return strbuf_read_fd_max(sb, fd, SIZE_MAX);
}

int strbuf_read_fd_max(struct strbuf *sb, int fd, size_t max)
{
	size_t start = sb->len;
	for (;;) {
		ssize_t n;
		size_t room;
		if (sb->len - start > max) {
			/* One byte past max was read: the input is longer than the caller takes. */
			strbuf_setlen(sb, start + max);
			errno = EFBIG;
			return -1;
		}
		strbuf_grow(sb, 8192);
		room = sb->alloc - sb->len - 1;
		/* Never read more than one byte past max, so /dev/zero costs max + 1 bytes. */
		if (max - (sb->len - start) < room)
			room = max - (sb->len - start) + 1;
		n = read(fd, sb->buf + sb->len, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			sb->buf[sb->len] = '\0';
			return -1;
		}
		if (n == 0)
			break;
		sb->len += (size_t)n;
	}
	sb->buf[sb->len] = '\0';
	return 0;
}

int strbuf_read_file(struct strbuf *sb, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret, saved;
	if (fd < 0)
		return -1;
	ret = strbuf_read_fd(sb, fd);
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

void strbuf_rtrim(struct strbuf *sb)
{
	while (sb->len && strchr(" \t\r\n", sb->buf[sb->len - 1]))
		sb->len--;
	if (sb->alloc)
		sb->buf[sb->len] = '\0';
}

char *str_lower(char *s)
{
	for (char *c = s; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return s;
}
