/*
 * Safe extraction of a HotSwap tree archive (tar, compressed tar, zip) with
 * libarchive.  Every entry is checked before anything is written: no absolute
 * paths, no '..' components, no device nodes, FIFOs or sockets, no symlink or
 * hardlink that leads out of the tree, nothing written through a symlink; and
 * libarchive's ARCHIVE_EXTRACT_SECURE_* flags check again on disk.  A single
 * top-level directory shared by every entry is stripped.
 */
#ifndef MIRAGE_EXTRACT_H
#define MIRAGE_EXTRACT_H

#include "diag.h"
#include "strbuf.h"

#include <signal.h>
#include <stddef.h>

struct extract_result {
	char *top_dir;  /* the stripped top-level directory, or NULL; free() it */
	size_t entries; /* entries written */
};

struct extract_opts {
	const char *origin; /* how messages name the archive (its URL or path) */
	/*
	 * A path that, when the archive has it at its root, means nothing is
	 * stripped ("lib/libhotswap_intercept.so": a tree whose only top-level
	 * directory is lib/ keeps it).  May be NULL.
	 */
	const char *anchor;
	const volatile sig_atomic_t *cancel; /* stops once *cancel is non-zero; may be NULL */
};

/*
 * Extracts the archive at path into the existing, empty directory dest.
 * Returns 0, or -1 with err naming the archive and the offending entry; dest
 * may then hold a partial tree the caller removes.  Changes the working
 * directory while it runs and restores it before returning.
 */
int extract_archive(const char *path, const char *dest, const struct extract_opts *opts,
                    struct extract_result *res, struct diag *err);

/*
 * Normalises an entry path into out ("./a//b/" -> "a/b").  Returns 0, or -1
 * with *why set when it is absolute or has a '..' component.  out is empty
 * for the archive root itself ("./").
 */
int extract_check_path(const char *path, struct strbuf *out, const char **why);
/*
 * Checks a symlink at entry (normalised, relative to the tree root) pointing
 * at target: it must be relative, and may use '..' only as leading components
 * that stay inside the tree.  Returns 0, or -1 with *why set.
 */
int extract_check_symlink(const char *entry, const char *target, const char **why);

#endif
