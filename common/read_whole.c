#include "read_whole.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void *read_whole_fd(int fd, size_t *size)
{
	struct stat st;
	char *buf;
	size_t got = 0;
	int saved;

	if (fstat(fd, &st) < 0)
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return NULL;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf)
		return NULL;
	while (got < (size_t)st.st_size) {
		ssize_t n = pread(fd, buf + got, (size_t)st.st_size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			saved = n < 0 ? errno : EIO;
			free(buf);
			errno = saved;
			return NULL;
		}
		got += (size_t)n;
	}
	*size = got;
	return buf;
}
