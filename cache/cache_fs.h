/*
 * The cache's files as it trusts them (docs/parallel.md, "Trust"): descriptors that never
 * follow a link, never block on a FIFO and are never inherited; directories of this uid that
 * group and other cannot write; entry files that are regular files of this uid; and the
 * reason, said into the caller's buffer, when one is not.  cache_disk.c and the walk of
 * `mirage cache` open everything under the root through these.
 */
#ifndef MIRAGE_CACHE_FS_H
#define MIRAGE_CACHE_FS_H

#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>

#define CACHE_DIR_FLAGS   (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define CACHE_ENTRY_FLAGS (O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC)

struct hsi_disk;

/* vsnprintf into why, errno kept. */
__attribute__((format(printf, 3, 4))) void cache_say(char *why, size_t why_size, const char *fmt,
                                                     ...);
/* The trust rule for the root and the shards; what names the directory in why. 0 or -1. */
int cache_check_dir(int fd, const char *what, char *why, size_t why_size);
/* Why an O_NOFOLLOW|O_DIRECTORY open of name under dirfd failed (ELOOP/ENOTDIR say little). */
void cache_say_not_dir(int dirfd, const char *name, const char *what, char *why, size_t why_size);

enum shard_open {
	SHARD_LOOKUP, /* an absent shard is a miss */
	SHARD_CREATE, /* an absent shard is made 0700 */
};
/* The verified shard of key: a descriptor, -1 untrusted (why says it), -2 absent. */
int cache_open_shard(const struct hsi_disk *disk, const char *key, enum shard_open how, char *why,
                     size_t why_size);
/*
 * Opens the entry file name in shard and checks it is a regular file of ours without reading
 * a byte: a descriptor (st filled), -2 absent, -1 rejected (why says it).
 */
int cache_open_entry(int shard, const char *name, struct stat *st, char *why, size_t why_size);
/* The whole entry behind fd, refused unread when it is larger than max. */
void *cache_read_entry(int fd, const char *name, size_t max, size_t *size, char *why,
                       size_t why_size);

#endif
