/*
 * MD5 (RFC 1321), for the one place a format asks for it: the hash of a compressed offload
 * bundle (bundle.h).  Not for security.  Ours so that every program reading bundles (mirage
 * itself included) does not map libcrypto for 16 bytes.
 */
#ifndef MIRAGE_MD5_H
#define MIRAGE_MD5_H

#include <stddef.h>
#include <stdint.h>

void md5(const void *data, size_t size, uint8_t digest[16]);

#endif
