/*
 * Installing HotSwap trees under <data>/hotswap/<name>/ (`mirage hotswap
 * install`): fetch (download.h) or copy a local archive, opened once, into a
 * file only this process can reach; verify its SHA-256 (checksum.h) and
 * extract it safely (extract.h) from that same file into a private temp
 * directory; require hotswap_check_root() to call it complete, flush it, and
 * rename it into place so discovery never sees a half-installed tree.  Any
 * failure removes every temp file and installs nothing.  Messages show the
 * source with its userinfo redacted and its control characters escaped.
 */
#ifndef MIRAGE_HOTSWAP_INSTALL_H
#define MIRAGE_HOTSWAP_INSTALL_H

#include "checksum.h"
#include "diag.h"
#include "hotswap_tree.h"

#include <stdbool.h>
#include <stdint.h>

enum download_kind {
	DOWNLOAD_PATH = 0,        /* not a URL: a local path */
	DOWNLOAD_URL = 1,         /* http://, https:// or file:// */
	DOWNLOAD_BAD_SCHEME = -1, /* looks like scheme://... with a scheme we do not fetch */
};

/* Classifies a command-line source; scheme matching ignores case. */
enum download_kind download_kind(const char *source);

struct hotswap_install_opts {
	const char *self_exe; /* the running mirage: libmirage_fetch.so is found from it */
	const char *source;   /* http(s):// or file:// URL, or a local archive path */
	const char *sha256;   /* expected digest (sha256_parse_hex() form), or NULL */
	const char *name;     /* tree name (checked with hotswap_name_check()), or NULL:
	                         the archive's top directory, else the file name */
	bool progress;        /* draw the download meter on stderr */
	/*
	 * Limits, 0 for the defaults (fetch.h): the archive's size (downloaded
	 * or local) and what it unpacks to; the seconds a download may take.
	 */
	uint64_t max_bytes;
	uint64_t timeout_s;
};

struct hotswap_installed {
	char *name;
	char *root; /* canonical <data>/hotswap/<name> */
	enum hotswap_flavour flavour;
	char sha256[SHA256_HEX_LEN + 1]; /* of the archive */
};

/*
 * Installs one tree.  Returns 0 and fills out (release with
 * hotswap_installed_release()), or -1 with err saying what failed and how to
 * fix it.  SIGINT/SIGTERM/SIGHUP during the install clean up first, then
 * terminate the process with that signal.
 */
int hotswap_install(const struct hotswap_install_opts *opts, struct hotswap_installed *out,
                    struct diag *err);
void hotswap_installed_release(struct hotswap_installed *inst);

/*
 * Checks a tree name like a profile name: 1-128 bytes of [a-z0-9._+-], not
 * starting with '.', lowercase (so never '/' or '..').  Returns 0 or -1.
 */
int hotswap_name_check(const char *name, struct diag *err);
/* The default name for a source: its file name without archive suffixes, lowercased; or NULL. */
char *hotswap_name_from_source(const char *source);
/* Removes path and everything below it, never following symlinks.  Returns 0 or -1 with errno. */
int hotswap_remove_tree(const char *path);

#endif
