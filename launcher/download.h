/*
 * Fetching a HotSwap tree archive with libcurl: http(s):// and file:// only,
 * TLS verification on, redirects followed (to http(s) only), HTTP errors
 * reported with their status, connect and low-speed timeouts.
 */
#ifndef MIRAGE_DOWNLOAD_H
#define MIRAGE_DOWNLOAD_H

#include "diag.h"
#include "progress.h"

#include <signal.h>

enum download_kind {
	DOWNLOAD_PATH = 0,        /* not a URL: a local path */
	DOWNLOAD_URL = 1,         /* http://, https:// or file:// */
	DOWNLOAD_BAD_SCHEME = -1, /* looks like scheme://... with a scheme we do not fetch */
};

/* Classifies a command-line source; scheme matching ignores case. */
enum download_kind download_kind(const char *source);

struct download_opts {
	struct progress *progress; /* meter to feed; NULL for none */
	const volatile sig_atomic_t
	    *cancel; /* the transfer stops once *cancel is non-zero; may be NULL */
};

/*
 * Downloads url into a new file at path (created 0600; must not exist).  On
 * failure returns -1 with err naming the URL and how to fix it; a partial file
 * may remain at path for the caller to remove.  Set CURL_CA_BUNDLE to trust a
 * private CA, as with the curl tool; proxies come from the usual variables.
 */
int download_to_file(const char *url, const char *path, const struct download_opts *opts,
                     struct diag *err);

#endif
