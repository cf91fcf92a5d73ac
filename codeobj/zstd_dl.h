/*
 * libzstd, loaded the first time a zstd-compressed bundle is read.  Every process the
 * intercept core is loaded into would otherwise map it at start-up, and most never meet a
 * compressed fat binary (clang writes them only under --offload-compress); a library's load
 * is about a tenth of a millisecond of each program's start.  Its types are zstd.h's own.
 */
#ifndef MIRAGE_CODEOBJ_ZSTD_DL_H
#define MIRAGE_CODEOBJ_ZSTD_DL_H

#include <stddef.h>

struct cob_zstd {
	size_t (*find_frame_compressed_size)(const void *src, size_t src_size);
	size_t (*decompress)(void *dst, size_t dst_capacity, const void *src, size_t src_size);
	unsigned (*is_error)(size_t code);
	const char *(*get_error_name)(size_t code);
};

/* The library's functions (loaded once, kept for the process's life), or NULL with *why
 * saying what is missing and how to get it. */
const struct cob_zstd *cob_zstd(const char **why);

#endif
