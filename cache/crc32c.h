/*
 * CRC-32C (Castagnoli, RFC 3720's iSCSI checksum), the check a cache hit runs on its entry's
 * bytes before serving them (cache_disk.h).  It is there against torn or damaged files, not
 * against someone who can write the cache: such a writer rewrites the sidecar too, and the
 * cache's trust rules keep everyone else out.  SSE4.2's crc32 instruction makes it about five
 * times as fast as SHA-256 here, and a hit is on every rank's start-up path.
 */
#ifndef MIRAGE_CACHE_CRC32C_H
#define MIRAGE_CACHE_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The CRC-32C of size bytes at data (crc32c("123456789", 9) is 0xe3069283). */
uint32_t crc32c(const void *data, size_t size);

/* For the unit test only: true makes every CRC take the portable path. */
extern bool crc32c_portable_only;

#endif
