/* Whole-file reads for the libraries: no allocation that aborts (strbuf_read_file does). */
#ifndef MIRAGE_READ_WHOLE_H
#define MIRAGE_READ_WHOLE_H

#include <stddef.h>

/*
 * The whole regular file behind fd, read with pread so the descriptor's position never moves
 * (it may be the caller's).  Returns malloc'ed memory (at least one byte, even for an empty
 * file) and its size, or NULL with errno set (EINVAL: not a regular file; EIO: it shrank).
 */
void *read_whole_fd(int fd, size_t *size);

/*
 * read_whole_fd, but a file larger than max is refused with EFBIG before anything is
 * allocated or read, and at most max bytes are ever read (a planted multi-GiB sparse file
 * costs one fstat).
 */
void *read_whole_fd_max(int fd, size_t max, size_t *size);

/*
 * Exactly size bytes from the start of fd into buf, with pread: 0, or -1 with errno (EIO:
 * the file is shorter).
 */
int read_exact_fd(int fd, void *buf, size_t size);

#endif
