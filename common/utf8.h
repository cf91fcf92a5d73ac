/* UTF-8 validation: what mirage stores as text must be text a JSON document can carry. */
#ifndef MIRAGE_UTF8_H
#define MIRAGE_UTF8_H

#include <stddef.h>

/*
 * The offset of the first byte of s[0..len) that does not start a well-formed UTF-8 sequence
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF, no truncated
 * sequence), or len when all of it is valid.  NUL is valid UTF-8; callers that want text
 * refuse it themselves.  libc only.
 */
size_t utf8_invalid_at(const char *s, size_t len);

/*
 * The length (2 to 4) of the well-formed multi-byte UTF-8 sequence at s[0..avail), or 0 when
 * s[0] is ASCII or starts no well-formed sequence.  Bytes are read in order and reading stops
 * at the first one out of range, so a NUL-terminated string may pass avail = 4.
 */
size_t utf8_seq_len(const unsigned char *s, size_t avail);

#endif
