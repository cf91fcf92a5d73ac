/* SHA-256 of a file as lowercase hex, inside libmirage_fetch.so (see fetch.h). */
#ifndef MIRAGE_FETCH_FILE_SHA256_H
#define MIRAGE_FETCH_FILE_SHA256_H

#include "fetch.h"

/*
 * Hashes the whole file open at fd, read with pread() from offset 0 (the file
 * offset is left alone), into hex (SHA256_HEX_LEN + 1 bytes).  origin names
 * the file in err.  Returns 0, or -1 with err set.
 */
int sha256_fd_hex(int fd, const char *origin, char *hex, struct diag *err);

#endif
