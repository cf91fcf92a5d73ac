/*
 * Fetching a HotSwap tree archive with libcurl: http(s):// and file:// only,
 * TLS verification on, redirects followed (to http(s) only), HTTP errors
 * reported with their status; the body capped in size and the transfer in
 * time (download_opts), besides connect and stall timeouts.  Inside
 * libmirage_fetch.so; the launcher reaches it through fetch.h.
 */
#ifndef MIRAGE_DOWNLOAD_H
#define MIRAGE_DOWNLOAD_H

#include "fetch.h"

/*
 * Downloads url by writing to fd (see fetch.h's download_to_fd).  On failure
 * returns -1 with err naming the URL (userinfo redacted), the limit it hit
 * and how to fix it; fd may hold a partial body.  Set CURL_CA_BUNDLE to trust
 * a private CA, as with the curl tool; proxies come from the usual variables.
 */
int download_to_fd(const char *url, int fd, const struct download_opts *opts, struct diag *err);

#endif
