#include "read_whole.h"
#include "prefault.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void *read_whole_fd(int fd, size_t *size)
{
	return read_whole_fd_max(fd, SIZE_MAX, size);
}

void *read_whole_fd_max(int fd, size_t max, size_t *size)
{
	struct stat st;
	char *buf;
	size_t want;
	int saved;

	if (fstat(fd, &st) < 0)
		return NULL;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return NULL;
	}
	if ((uintmax_t)st.st_size > (uintmax_t)max) {
		errno = EFBIG;
		return NULL;
	}
	want = (size_t)st.st_size;
	buf = malloc(want ? want : 1);
	if (!buf)
		return NULL;
	prefault_write(buf, want);
	if (read_exact_fd(fd, buf, want) < 0) {
		saved = errno;
		free(buf);
		errno = saved;
		return NULL;
	}
	*size = want;
	return buf;
}

int read_exact_fd(int fd, void *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		ssize_t n = pread(fd, (char *)buf + got, size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		got += (size_t)n;
	}
	return 0;
}
