/*
 * Whole-file writes that never leave a half-written file behind: the bytes go
 * to a temporary file in the same directory ("<path>.tmp.XXXXXX", created
 * O_EXCL|O_CLOEXEC), are fsync'ed, and are renamed (or linked) into place; the
 * directory is fsync'ed last.  New files get mode as open() gives it: the
 * umask applies, as for any file a program creates.  No allocation that can
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

/* What every temp file's name carries between the target's name and its random part. */
#define ATOMIC_TEMP_TAG ".tmp."

/*
 * Writes data to path as one whole file of mode (minus the umask; pass 0666 for a user file).
 * Replacing a character device, FIFO or socket (/dev/null, /dev/stdout) writes into it instead:
 * not atomic, and a FIFO without a reader fails with ENXIO rather than block.
 */
int atomic_write_file(const char *path, const void *data, size_t len, mode_t mode,
                      enum atomic_write_mode how);
/*
 * Like mkostemp(tmpl, O_CLOEXEC), but the file gets mode minus the umask (mkstemp forces
 * 0600): replaces the trailing "XXXXXX" of tmpl with random letters and digits and creates
 * the file O_WRONLY|O_EXCL|O_CLOEXEC.  Returns the descriptor, or -1 with errno set (EINVAL:
 * tmpl does not end in XXXXXX).
 */
int atomic_open_temp(char *tmpl, mode_t mode);
/*
 * Removes the temp files a killed atomic_write_file() left in dir: names
 * "<x><suffix>.tmp.XXXXXX" (suffix may be NULL for any), and of those only regular files
 * (never a symlink or what it points at) owned by the caller and not modified for
 * min_age_seconds, so a writer still at work keeps its own.  A missing dir is success.
 */
int atomic_sweep_temps(const char *dir, const char *suffix, unsigned min_age_seconds);
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
