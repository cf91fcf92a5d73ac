/* SHA-256 of a file (OpenSSL EVP) as lowercase hex, inside libmirage_fetch.so (see fetch.h). */
#ifndef MIRAGE_FETCH_SHA256_H
#define MIRAGE_FETCH_SHA256_H

#include "fetch.h"

/* Hashes the file at path into hex (SHA256_HEX_LEN + 1 bytes).  Returns 0, or -1 with err set. */
int sha256_file_hex(const char *path, char *hex, struct diag *err);

#endif
