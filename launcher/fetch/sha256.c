/* SHA-256 of a file through OpenSSL's EVP interface, the launcher's only use of libcrypto. */
#include "sha256.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sha256_file_hex(const char *path, char *hex, struct diag *err)
{
	unsigned char buf[65536], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = NULL;
	int fd = -1, ret = -1;
	ssize_t n;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_set(err, "cannot read '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		diag_set(err, "cannot compute SHA-256: OpenSSL could not set up a digest");
		goto cleanup;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			diag_set(err, "cannot read '%s': %s", path, strerror(errno));
			goto cleanup;
		}
		EVP_DigestUpdate(ctx, buf, (size_t)n);
	}
	if (!EVP_DigestFinal_ex(ctx, md, &mdlen) || mdlen * 2 != SHA256_HEX_LEN) {
		diag_set(err, "cannot compute SHA-256 of '%s'", path);
		goto cleanup;
	}
	for (unsigned i = 0; i < mdlen; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	ret = 0;
cleanup:
	EVP_MD_CTX_free(ctx);
	if (fd >= 0)
		close(fd);
	return ret;
}
