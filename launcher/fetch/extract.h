/*
 * Safe extraction of a HotSwap tree archive (tar, compressed tar, zip) with
 * libarchive.  Every entry is checked before anything is written: no absolute
 * paths, no '..' components, no device nodes, FIFOs or sockets, no symlink or
 * hardlink that leads out of the tree, nothing written through a symlink; and
 * libarchive's ARCHIVE_EXTRACT_SECURE_* flags check again on disk.  Archive
 * bombs stop at extract_opts' caps on entries and bytes, counted both from the
 * headers and from the data actually written.  A single top-level directory
 * shared by every entry is stripped.  Each entry costs O(its depth): earlier
 * symlinks and files are looked up in hash sets (path_set.h).  Inside
 * libmirage_fetch.so; the launcher reaches it through fetch.h.
 */
#ifndef MIRAGE_EXTRACT_H
#define MIRAGE_EXTRACT_H

#include "fetch.h"
#include "strbuf.h"

/*
 * Extracts the archive open at fd (seekable; each pass reads it from offset
 * 0) into the existing, empty directory dest.  Returns 0, or -1 with err
 * naming the archive and the offending entry (control characters escaped);
 * dest may then hold a partial tree the caller removes.  Changes the working
 * directory while it runs and restores it before returning.
 */
int extract_archive_fd(int fd, const char *dest, const struct extract_opts *opts,
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
