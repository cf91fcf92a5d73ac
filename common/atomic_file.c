/* Temp file + fsync + rename/link, so readers only ever see whole files. */
#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

int fsync_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0, saved;
	if (fd < 0)
		return -1;
	if (fsync(fd) < 0 && errno != EINVAL)
		ret = -1;
	saved = errno;
	close(fd);
	errno = saved;
	return ret;
}

int fsync_parent_dir(const char *path)
{
	char *dir = dir_of(path);
	int ret, saved;
	if (!dir)
		return -1;
	ret = fsync_path(dir);
	saved = errno;
	free(dir);
	errno = saved;
	return ret;
}

int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
                      enum atomic_write_mode how)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + sizeof(".tmp.XXXXXX"));
	int fd = -1, saved, ret = -1;

	if (!tmp)
		return -1;
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
	fd = mkstemp(tmp);
	if (fd < 0) {
		saved = errno;
		free(tmp);
		errno = saved;
		return -1;
	}
	if (fchmod(fd, mode) < 0 || write_all(fd, data, len) < 0 ||
	    (how != ATOMIC_REPLACE_NOSYNC && fsync(fd) < 0))
		goto out;
	if (close(fd) < 0) {
		fd = -1;
		goto out;
	}
	fd = -1;
	if (how == ATOMIC_EXCLUSIVE) {
		/* link() fails with EEXIST if the name is taken: the name is claimed atomically. */
		if (link(tmp, path) < 0)
			goto out;
		unlink(tmp);
	} else if (rename(tmp, path) < 0) {
		goto out;
	}
	if (how != ATOMIC_REPLACE_NOSYNC)
		fsync_parent_dir(path);
	ret = 0;
out:
	saved = errno;
	if (fd >= 0)
		close(fd);
	if (ret)
		unlink(tmp);
	free(tmp);
	errno = saved;
	return ret;
}

int mkdir_parents(const char *dir, mode_t mode)
{
	char *copy = strdup(dir);
	int ret = 0;
	if (!copy)
		return -1;
	for (char *p = copy + 1;; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(copy, mode) < 0 && errno != EEXIST) {
				ret = -1;
				break;
			}
			*p = c;
			if (!c)
				break;
		}
	}
	if (!ret) {
		struct stat st;
		if (stat(dir, &st) < 0)
			ret = -1;
		else if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			ret = -1;
		}
	}
	int saved = errno;
	free(copy);
	errno = saved;
	return ret;
}
