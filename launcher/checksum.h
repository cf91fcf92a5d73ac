/* SHA-256 of downloaded archives (OpenSSL EVP), as lowercase hex. */
#ifndef MIRAGE_CHECKSUM_H
#define MIRAGE_CHECKSUM_H

#include "diag.h"

#define SHA256_HEX_LEN 64

/* Hashes the file at path into hex (SHA256_HEX_LEN + 1 bytes).  Returns 0, or -1 with err set. */
int sha256_file_hex(const char *path, char *hex, struct diag *err);
/*
 * Checks a user-given digest (64 hex digits, any case, optional "sha256:"
 * prefix) and writes its lowercase form to out (SHA256_HEX_LEN + 1 bytes).
 * Returns 0, or -1 when it is not a SHA-256 digest.
 */
int sha256_parse_hex(const char *in, char *out);

#endif
