/*
 * Whole-file writes that never leave a half-written file behind: the bytes go
 * to a temporary file in the same directory, are fsync'ed, and are renamed (or
 * linked) into place; the directory is fsync'ed last.  No allocation that can
 * abort, so the libraries may use it too.  Functions return 0 or -1 with errno
 * set.
 */
#ifndef MIRAGE_ATOMIC_FILE_H
#define MIRAGE_ATOMIC_FILE_H

#include <stddef.h>
#include <sys/types.h>

enum atomic_write_mode {
	ATOMIC_REPLACE = 0, /* replace whatever is at path */
	ATOMIC_EXCLUSIVE,   /* fail with EEXIST if path exists; of N racers exactly one wins */
	/*
	 * Replace, still whole files for readers, but no fsync: for a cache that verifies what it
	 * reads, where losing an entry to a crash costs a recomputation, not data.
	 */
	ATOMIC_REPLACE_NOSYNC,
};

int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
                      enum atomic_write_mode how);
/*
 * fsyncs the file or directory at path (opened read-only, so never a FIFO).
 * EINVAL (a filesystem that cannot sync a directory) counts as success.
 */
int fsync_path(const char *path);
/* fsyncs the directory holding path, so a rename or link into it survives a crash. */
int fsync_parent_dir(const char *path);
/* Creates dir and its missing parents with mode (like mkdir -p). */
int mkdir_parents(const char *dir, mode_t mode);

#endif
