/* SHA-256 of a file through OpenSSL's EVP interface, the launcher's only use of libcrypto. */
#include "sha256.h"

#include <errno.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sha256_fd_hex(int fd, const char *origin, char *hex, struct diag *err)
{
	unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = NULL;
	off_t off = 0;
	int ret = -1;
	ssize_t n;

	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		diag_set(err, "cannot compute SHA-256: OpenSSL could not set up a digest");
		goto cleanup;
	}
	while ((n = pread(fd, buf, sizeof(buf), off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			diag_set(err, "cannot read '%s': %s", origin, strerror(errno));
			goto cleanup;
		}
		EVP_DigestUpdate(ctx, buf, (size_t)n);
		off += n;
	}
	if (!EVP_DigestFinal_ex(ctx, md, &mdlen) || mdlen * 2 != SHA256_HEX_LEN) {
		diag_set(err, "cannot compute SHA-256 of '%s'", origin);
		goto cleanup;
	}
	for (unsigned i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	ret = 0;
cleanup:
	EVP_MD_CTX_free(ctx);
	return ret;
}
