/* SHA-256 of a file (common/sha256.c, the project's one SHA-256) as lowercase hex. */
#include "file_sha256.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sha256.h"

int sha256_fd_hex(int fd, const char *origin, char *hex, struct diag *err)
{
	unsigned char buf[65536], md[SHA256_LEN];
	struct sha256 s;
	off_t off = 0;
	ssize_t n;

	sha256_init(&s);
	while ((n = pread(fd, buf, sizeof(buf), off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			diag_set(err, "cannot read '%s': %s", origin, strerror(errno));
			return -1;
		}
		sha256_update(&s, buf, (size_t)n);
		off += n;
	}
	sha256_final(&s, md);
	for (unsigned i = 0; i < SHA256_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	return 0;
}
