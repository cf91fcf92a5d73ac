/* SHA-256 through OpenSSL's EVP interface. */
#include "sha.h"

#include <openssl/evp.h>

int hsi_sha256(const void *data, size_t size, uint8_t out[HSI_SHA_LEN])
{
	return hsi_sha256_parts(&data, &size, 1, out);
}

int hsi_sha256_parts(const void *const *parts, const size_t *sizes, size_t n,
                     uint8_t out[HSI_SHA_LEN])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int len = 0;
	int ok;

	if (!ctx)
		return -1;
	ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	for (size_t i = 0; ok && i < n; i++) {
		uint64_t framed = sizes[i];
		/* Only multi-part keys are framed, so hsi_sha256 is plain SHA-256 of the bytes. */
		if (n > 1)
			ok = EVP_DigestUpdate(ctx, &framed, sizeof(framed));
		if (ok)
			ok = EVP_DigestUpdate(ctx, parts[i], sizes[i]);
	}
	if (ok)
		ok = EVP_DigestFinal_ex(ctx, out, &len);
	EVP_MD_CTX_free(ctx);
	return ok && len == HSI_SHA_LEN ? 0 : -1;
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
