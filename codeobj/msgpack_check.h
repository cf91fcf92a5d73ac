/*
 * Whether bytes are one msgpack value msgpack-c may unpack (libmirage_codeobj): its C unpacker
 * sizes each container from its declared count, with no limit to set, so every metadata note is
 * checked first.  Pure: allocates nothing.
 */
#ifndef MIRAGE_CODEOBJ_MSGPACK_CHECK_H
#define MIRAGE_CODEOBJ_MSGPACK_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* 0 if p[0..size) is exactly one well-formed msgpack value whose declared counts fit in its
 * bytes, else -1. */
int cob_msgpack_check(const uint8_t *p, size_t size);

#endif
