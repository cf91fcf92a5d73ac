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

#endif
