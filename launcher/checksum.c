/* Parsing of the SHA-256 digests users type; hashing itself lives in libmirage_fetch.so. */
#include "checksum.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

int sha256_parse_hex(const char *in, char *out)
{
	if (!strncasecmp(in, "sha256:", 7))
		in += 7;
	if (strlen(in) != SHA256_HEX_LEN)
		return -1;
	for (size_t i = 0; i < SHA256_HEX_LEN; i++) {
		if (!isxdigit((unsigned char)in[i]))
			return -1;
		out[i] = (char)tolower((unsigned char)in[i]);
	}
	out[SHA256_HEX_LEN] = '\0';
	return 0;
}
