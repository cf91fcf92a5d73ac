/*
 * The SHA-256 digests users type (`hotswap install --sha256`).  Checked in the
 * launcher, before libmirage_fetch.so (which does the hashing) is loaded, so a
 * mistyped digest is a usage error that needs no module.
 */
#ifndef MIRAGE_CHECKSUM_H
#define MIRAGE_CHECKSUM_H

#include "fetch.h" /* SHA256_HEX_LEN */

/*
 * Checks a user-given digest (64 hex digits, any case, optional "sha256:"
 * prefix) and writes its lowercase form to out (SHA256_HEX_LEN + 1 bytes).
 * Returns 0, or -1 when it is not a SHA-256 digest.
 */
int sha256_parse_hex(const char *in, char *out);

#endif
