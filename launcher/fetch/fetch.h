/*
 * Interface between the launcher and libmirage_fetch.so, the only object that
 * links libcurl, libarchive and libcrypto.  `mirage hotswap install` dlopen()s
 * it from <mirage dir>/../lib/mirage/ (fetch_dl.h) when it first needs to
 * download, hash or extract, so every other command starts without mapping
 * their dependency trees (gnutls, krb5, ldap, ICU, ...).  Not a public ABI:
 * both objects are built and shipped together, and the version field below
 * must match exactly; bump it whenever anything in this file changes.
 *
 * Errors follow the launcher's lower-layer convention: -1 and a struct diag
 * (message plus optional hint) that the caller prints and releases with
 * diag_release().  The module fills it through its own static copy of
 * common/diag.c; strbuf decides ownership by .alloc alone and both sides share
 * the process's malloc, so a DIAG_INIT from either side is fine.  The module
 * never prints, never exits and never touches signal handlers.
 */
#ifndef MIRAGE_FETCH_H
#define MIRAGE_FETCH_H

#include "diag.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define FETCH_API_VERSION  4
#define FETCH_LIBRARY_NAME "libmirage_fetch.so"
#define FETCH_ENTRY_SYMBOL "mirage_fetch_get_api"

#define SHA256_HEX_LEN 64

/*
 * The `hotswap install` flags that raise the limits below: the option table
 * (cmd_hotswap.c) and the module's hints spell them from here.
 */
#define FETCH_SIZE_FLAG    "max-size"
#define FETCH_TIMEOUT_FLAG "timeout"
/* The hint for an archive over the size limit, downloaded or local. */
#define FETCH_RAISE_SIZE_HINT                                                                      \
	"a HotSwap tree archive is at most a few hundred MB; if this one is bigger, raise the "    \
	"limit with --" FETCH_SIZE_FLAG " SIZE (e.g. 8G)"
#define FETCH_STR_(x) #x
#define FETCH_STR(x)  FETCH_STR_(x)

/*
 * All err says when *cancel stopped a call: the caller set *cancel (from its
 * signal handler) and knows what it interrupted, so it words the message.
 */
#define FETCH_INTERRUPTED "interrupted"

/*
 * What download_opts' limits are when left 0.  A tree archive is tens to a
 * few hundred MB, so what extraction unpacks at most (4 GiB) is far above any
 * real one, and half an hour is far above fetching one on any link that can
 * install it at all; both are far below a full disk or forever.
 */
#define DOWNLOAD_DEFAULT_MAX_BYTES EXTRACT_DEFAULT_MAX_BYTES
#define DOWNLOAD_DEFAULT_TIMEOUT_S 1800 /* a bare number: help text stringifies it */
/* A transfer slower than this for DOWNLOAD_STALL_TIME_S is given up: the server stalled. */
#define DOWNLOAD_STALL_BYTES_PER_S 1024L
#define DOWNLOAD_STALL_TIME_S      60L

struct download_opts {
	/*
	 * Called from the transfer with the bytes received so far and the size
	 * the server announced (0 when unknown); NULL for none.  The launcher
	 * feeds its meter (progress.h) from here, so the module never draws.
	 */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
	/* The transfer stops once *cancel is non-zero (err: FETCH_INTERRUPTED); may be NULL. */
	const volatile sig_atomic_t *cancel;
	/*
	 * Limits (0: the DOWNLOAD_DEFAULT_* above): the bytes the body may have,
	 * whatever the server announces, and the seconds the whole transfer may
	 * take.  The hints name FETCH_SIZE_FLAG and FETCH_TIMEOUT_FLAG.
	 */
	uint64_t max_bytes;
	uint64_t timeout_s;
	/* How messages name where fd lies (a directory), for a write that fails; may be NULL. */
	const char *dest;
};

/*
 * What extract_opts' caps are when left 0: far above a real tree (tens to a
 * few hundred MB in a few thousand files), far below a full disk.
 */
#define FETCH_DEFAULT_MAX_GIB       4 /* a bare number: help text stringifies it */
#define EXTRACT_DEFAULT_MAX_BYTES   ((uint64_t)FETCH_DEFAULT_MAX_GIB << 30)
#define EXTRACT_DEFAULT_MAX_ENTRIES UINT64_C(100000)

struct extract_opts {
	const char *origin; /* how messages name the archive (its URL or path) */
	/*
	 * A path that, when the archive has it at its root, means nothing is
	 * stripped ("lib/libhotswap_intercept.so": a tree whose only top-level
	 * directory is lib/ keeps it).  May be NULL.
	 */
	const char *anchor;
	/* Stops once *cancel is non-zero (err: FETCH_INTERRUPTED); may be NULL. */
	const volatile sig_atomic_t *cancel;
	/*
	 * Caps against archive bombs; 0 means the EXTRACT_DEFAULT_* above
	 * (max_bytes is raised with FETCH_SIZE_FLAG, like the download's).
	 * max_bytes bounds the sizes the headers declare, summed before anything
	 * is written, and also the data actually unpacked, counted as it is
	 * written, since a header may lie or give no size.  max_entries bounds
	 * the number of entries of any kind.
	 */
	uint64_t max_bytes;
	uint64_t max_entries;
};

struct extract_result {
	char *top_dir;  /* the stripped top-level directory, or NULL; free() it */
	size_t entries; /* entries written */
};

struct fetch_api {
	uint32_t version; /* FETCH_API_VERSION */

	/*
	 * The calls below work on one descriptor the caller opened once (a
	 * private copy of the archive, see hotswap_install.c), never on a path
	 * that could be swapped between the hash and the unpacking.  None closes
	 * it.  Every URL in err has its userinfo redacted (printable.h).
	 */

	/*
	 * Downloads url (http://, https:// or file://) by appending to fd, an
	 * empty file open for writing.  Returns 0, or -1 with err naming the
	 * URL, the limit it hit and how to fix it; fd may then hold a partial
	 * body the caller drops.  TLS verification is on; CURL_CA_BUNDLE and the
	 * usual proxy variables apply, as with the curl tool.
	 */
	int (*download_to_fd)(const char *url, int fd, const struct download_opts *opts,
	                      struct diag *err);
	/*
	 * Hashes the whole file open at fd (read with pread from offset 0) into
	 * hex (SHA256_HEX_LEN + 1 bytes).  origin names it in err.  Returns 0,
	 * or -1.
	 */
	int (*sha256_fd_hex)(int fd, const char *origin, char *hex, struct diag *err);
	/*
	 * Safely extracts the archive open at fd (read from offset 0, seekable)
	 * into the existing, empty directory dest (see extract.h for what is
	 * refused).  Returns 0 and fills res, or -1 with err naming the archive
	 * and the offending entry; dest may then hold a partial tree the caller
	 * removes.  Changes the working directory while it runs and restores it
	 * before returning.
	 */
	int (*extract_archive_fd)(int fd, const char *dest, const struct extract_opts *opts,
	                          struct extract_result *res, struct diag *err);
};

/* The one exported symbol of libmirage_fetch.so. */
typedef const struct fetch_api *(*fetch_get_api_fn)(void);

#endif
