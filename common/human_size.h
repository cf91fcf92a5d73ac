/*
 * Byte counts as people write them: "4 GiB" in messages, "4G", "500MiB" or
 * "1000" on the command line (`hotswap install --max-size`).  One pair, so a
 * limit a message names can be typed back as it reads.  Never allocates.
 */
#ifndef MIRAGE_HUMAN_SIZE_H
#define MIRAGE_HUMAN_SIZE_H

#include <stdint.h>

#define HUMAN_SIZE_LEN 32 /* buffer size for human_size_format() */

/*
 * Writes n in the largest binary unit that divides it exactly ("4 GiB",
 * "1536 KiB", "1000 bytes") into buf.  Returns buf.
 */
const char *human_size_format(uint64_t n, char buf[static HUMAN_SIZE_LEN]);
/*
 * Parses a positive size: digits, then optionally K, M, G or T (binary:
 * 1024-based), with or without "iB" or "B", any case, no space ("4G",
 * "512MiB", "100k", "1000").  Returns 0 and sets *out, or -1 when s is not
 * such a size, is 0 or overflows 64 bits.
 */
int human_size_parse(const char *s, uint64_t *out);

#endif
