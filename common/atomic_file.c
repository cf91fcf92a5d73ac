/* Temp file + fsync + rename/link, so readers only ever see whole files. */
#include "atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Every temp file is "<path>" ATOMIC_TEMP_TAG + TEMP_RANDOM letters or digits. */
#define TEMP_RANDOM 6
static const char temp_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

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

/* Random letters and digits; no state, so threads of a library may call it at once. */
static void fill_random(char *x, size_t n, unsigned attempt)
{
	unsigned char r[TEMP_RANDOM];

	if (getrandom(r, n, GRND_NONBLOCK) != (ssize_t)n) {
		/* No getrandom (old kernel, seccomp): O_EXCL still catches a collision. */
		struct timespec ts;
		uint64_t v;
		clock_gettime(CLOCK_REALTIME, &ts);
		v = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
		    ((uint64_t)getpid() << 12) ^ (uint64_t)(uintptr_t)&ts ^ attempt;
		for (size_t i = 0; i < n; i++) {
			v = v * 6364136223846793005u + 1442695040888963407u;
			r[i] = (unsigned char)(v >> 33);
		}
	}
	for (size_t i = 0; i < n; i++)
		x[i] = temp_alphabet[r[i] % (sizeof(temp_alphabet) - 1)];
}

int atomic_open_temp(char *tmpl, mode_t mode)
{
	size_t len = strlen(tmpl);
	char *x;

	if (len < TEMP_RANDOM || strcmp(x = tmpl + len - TEMP_RANDOM, "XXXXXX")) {
		errno = EINVAL;
		return -1;
	}
	for (unsigned attempt = 0; attempt < 100; attempt++) {
		int fd;
		fill_random(x, TEMP_RANDOM, attempt);
		/* mkstemp() would force 0600; open() lets the umask decide, as for any new file. */
		fd = open(tmpl, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1; /* errno is EEXIST */
}

/*
 * A character device, FIFO or socket (a symlink to one followed: /dev/stdout) is written
 * where it is, as `-o /dev/null` means; renaming over it would put a regular file in /dev.
 * O_NONBLOCK at open: a FIFO nobody reads fails with ENXIO instead of blocking forever.
 */
static int write_in_place(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC), flags, saved, ret;
	if (fd < 0)
		return -1;
	flags = fcntl(fd, F_GETFL);
	ret = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ? -1
	                                                               : write_all(fd, data, len);
	saved = errno;
	if (close(fd) < 0 && !ret)
		ret = -1;
	else
		errno = saved;
	return ret;
}

int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
                      enum atomic_write_mode how)
{
	size_t plen = strlen(path);
	static const char suffix[] = ATOMIC_TEMP_TAG "XXXXXX";
	char *tmp;
	int fd = -1, saved, ret = -1;
	struct stat st;

	if (how != ATOMIC_EXCLUSIVE && stat(path, &st) == 0 &&
	    (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return write_in_place(path, data, len);
	tmp = malloc(plen + sizeof(suffix));
	if (!tmp)
		return -1;
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, suffix, sizeof(suffix));
	fd = atomic_open_temp(tmp, mode);
	if (fd < 0) {
		saved = errno;
		free(tmp);
		errno = saved;
		return -1;
	}
	if (write_all(fd, data, len) < 0 || (how != ATOMIC_REPLACE_NOSYNC && fsync(fd) < 0))
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

/* Does name look like "<something><suffix>" ATOMIC_TEMP_TAG "<TEMP_RANDOM letters or digits>"? */
static bool is_temp_name(const char *name, const char *suffix)
{
	size_t len = strlen(name), tag = strlen(ATOMIC_TEMP_TAG), sl = suffix ? strlen(suffix) : 0;
	const char *random;

	if (len < 1 + sl + tag + TEMP_RANDOM)
		return false;
	random = name + len - TEMP_RANDOM;
	if (strspn(random, temp_alphabet) != TEMP_RANDOM ||
	    strncmp(random - tag, ATOMIC_TEMP_TAG, tag))
		return false;
	return !sl || !strncmp(random - tag - sl, suffix, sl);
}

int atomic_sweep_temps(const char *dir, const char *suffix, unsigned min_age_seconds)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), saved;
	time_t now = time(NULL);
	struct dirent *e;
	DIR *d;

	if (dfd < 0)
		return errno == ENOENT ? 0 : -1;
	if (!(d = fdopendir(dfd))) {
		saved = errno;
		close(dfd);
		errno = saved;
		return -1;
	}
	while ((e = readdir(d))) {
		struct stat st;
		if (!is_temp_name(e->d_name, suffix) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		/*
		 * Only what a killed writer of ours leaves: a regular file (never a link, whose
		 * target is not ours to judge), owned by us, and old enough that no running
		 * writer can still be filling it.  unlinkat() removes the name, never a target.
		 */
		if (S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    st.st_mtime <= now - (time_t)min_age_seconds)
			unlinkat(dfd, e->d_name, 0);
	}
	closedir(d);
	return 0;
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
