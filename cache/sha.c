/* SHA-256 (common/sha256.c) for the cache: one buffer, or framed parts. */
#include "sha.h"

#include "sha256.h"

int hsi_sha256(const void *data, size_t size, uint8_t out[HSI_SHA_LEN])
{
	return hsi_sha256_parts(&data, &size, 1, out);
}

int hsi_sha256_parts(const void *const *parts, const size_t *sizes, size_t n,
                     uint8_t out[HSI_SHA_LEN])
{
	struct sha256 s;

	sha256_init(&s);
	for (size_t i = 0; i < n; i++) {
		uint64_t framed = sizes[i];
		/* Only multi-part keys are framed, so hsi_sha256 is plain SHA-256 of the bytes. */
		if (n > 1)
			sha256_update(&s, &framed, sizeof(framed));
		sha256_update(&s, parts[i], sizes[i]);
	}
	sha256_final(&s, out);
	return 0;
}

void hsi_hex(const uint8_t *bytes, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * len] = '\0';
}
