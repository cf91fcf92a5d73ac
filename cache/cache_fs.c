/* The cache's files as it trusts them (cache_fs.h). */
#include "cache_fs.h"

#include "cache_disk.h"
#include "read_whole.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((format(printf, 3, 4))) void cache_say(char *why, size_t why_size, const char *fmt,
                                                     ...)
{
	va_list ap;
	int saved = errno;
	va_start(ap, fmt);
	vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	errno = saved;
}

/* The trust rule for the root and the shards (see cache_disk.h); what names the dir in why. */
int cache_check_dir(int fd, const char *what, char *why, size_t why_size)
{
	struct stat st;

	if (fstat(fd, &st) < 0) {
		cache_say(why, why_size, "cannot stat %s: %s", what, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		cache_say(why, why_size, "%s is not a directory", what);
		return -1;
	}
	if (st.st_uid != geteuid()) {
		cache_say(why, why_size, "%s is owned by uid %u, not by uid %u", what,
		          (unsigned)st.st_uid, (unsigned)geteuid());
		return -1;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		cache_say(why, why_size, "%s is writable by group or other (mode %03o)", what,
		          (unsigned)(st.st_mode & 07777));
		return -1;
	}
	return 0;
}

/* Why an O_NOFOLLOW|O_DIRECTORY open of name under dirfd failed (ELOOP/ENOTDIR say little).
 */
void cache_say_not_dir(int dirfd, const char *name, const char *what, char *why, size_t why_size)
{
	struct stat st;
	int err = errno;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		cache_say(why, why_size, "%s is a symbolic link", what);
	else if (err == ENOTDIR || err == ELOOP)
		cache_say(why, why_size, "%s is not a directory", what);
	else
		cache_say(why, why_size, "cannot open %s: %s", what, strerror(err));
}

/* The verified shard of key: a descriptor, -1 untrusted (why says it), -2 absent. */
int cache_open_shard(const struct hsi_disk *disk, const char *key, enum shard_open how, char *why,
                     size_t why_size)
{
	char name[3] = {key[0], key[1], '\0'}, what[32];
	int fd;

	snprintf(what, sizeof(what), "shard '%s'", name);
	fd = openat(disk->fd, name, CACHE_DIR_FLAGS);
	if (fd < 0 && errno == ENOENT) {
		if (how == SHARD_LOOKUP)
			return -2;
		if (mkdirat(disk->fd, name, 0700) < 0 && errno != EEXIST) {
			cache_say(why, why_size, "cannot create %s: %s", what, strerror(errno));
			return -1;
		}
		fd = openat(disk->fd, name, CACHE_DIR_FLAGS);
	}
	if (fd < 0) {
		cache_say_not_dir(disk->fd, name, what, why, why_size);
		return -1;
	}
	if (cache_check_dir(fd, what, why, why_size) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Opens the entry file name in shard and checks it is a regular file of ours
 * without reading a byte: a descriptor (st filled), -2 absent, -1 rejected
 * (why says it).
 */
int cache_open_entry(int shard, const char *name, struct stat *st, char *why, size_t why_size)
{
	int fd = openat(shard, name, CACHE_ENTRY_FLAGS);

	if (fd < 0) {
		if (errno == ENOENT)
			return -2;
		if (errno == ELOOP)
			cache_say(why, why_size, "'%s' is a symbolic link", name);
		else
			cache_say(why, why_size, "cannot open '%s': %s", name, strerror(errno));
		return -1;
	}
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || st->st_uid != geteuid()) {
		cache_say(why, why_size, "'%s' is not a regular file of uid %u", name,
		          (unsigned)geteuid());
		close(fd);
		return -1;
	}
	return fd;
}

/* The whole entry behind fd, refused unread when it is larger than max. */
void *cache_read_entry(int fd, const char *name, size_t max, size_t *size, char *why,
                       size_t why_size)
{
	void *data = read_whole_fd_max(fd, max, size);

	if (!data)
		cache_say(why, why_size, "cannot read '%s': %s", name,
		          errno == EFBIG ? "larger than expected" : strerror(errno));
	return data;
}
