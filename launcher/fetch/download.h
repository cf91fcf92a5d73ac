/*
 * Fetching a HotSwap tree archive with libcurl: http(s):// and file:// only,
 * TLS verification on, redirects followed (to http(s) only), HTTP errors
 * reported with their status, connect and low-speed timeouts.  Inside
 * libmirage_fetch.so; the launcher reaches it through fetch.h.
 */
#ifndef MIRAGE_DOWNLOAD_H
#define MIRAGE_DOWNLOAD_H

#include "fetch.h"

/*
 * Downloads url into a new file at path (created 0600; must not exist).  On
 * failure returns -1 with err naming the URL and how to fix it; a partial file
 * may remain at path for the caller to remove.  Set CURL_CA_BUNDLE to trust a
 * private CA, as with the curl tool; proxies come from the usual variables.
 */
int download_to_file(const char *url, const char *path, const struct download_opts *opts,
                     struct diag *err);

#endif
