/* libcurl transfer of one URL into a file, with the meter and cancellation wired into curl's
 * callbacks. */
#include "download.h"
#include "hotswap_contract.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef MIRAGE_VERSION
#define MIRAGE_VERSION "unknown"
#endif

/* Give up when a server accepts nothing for this long, or sends under 1 byte/s for this long. */
#define CONNECT_TIMEOUT_S 30L
#define LOW_SPEED_TIME_S  60L

struct sink {
	int fd;
	int write_errno; /* why the last write failed, for the message */
	const struct download_opts *opts;
};

static size_t on_data(char *data, size_t size, size_t nmemb, void *user)
{
	struct sink *s = user;
	size_t len = size * nmemb, off = 0;
	while (off < len) {
		ssize_t n = write(s->fd, data + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			s->write_errno = errno;
			return 0; /* anything short of len makes curl fail with CURLE_WRITE_ERROR */
		}
		off += (size_t)n;
	}
	return len;
}

static int on_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal,
                       curl_off_t ulnow)
{
	const struct sink *s = user;
	(void)ultotal;
	(void)ulnow;
	if (s->opts->cancel && *s->opts->cancel)
		return 1;
	if (s->opts->progress)
		s->opts->progress(s->opts->progress_arg, dlnow > 0 ? (uint64_t)dlnow : 0,
		                  dltotal > 0 ? (uint64_t)dltotal : 0);
	return 0;
}

/* Turns a failed transfer into a message that names the URL and a fix. */
static int explain(CURLcode rc, CURL *h, const char *url, const char *path, const char *errbuf,
                   const struct sink *s, struct diag *err)
{
	const char *why = *errbuf ? errbuf : curl_easy_strerror(rc);
	long status = 0;

	switch (rc) {
	case CURLE_HTTP_RETURNED_ERROR:
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
		diag_set(err, "cannot download '%s': the server answered HTTP %ld", url, status);
		diag_hint(err, status == 404
		                   ? "check the URL: there is no file at that address"
		                   : "check the URL and that you may fetch it, then retry");
		break;
	case CURLE_WRITE_ERROR:
		diag_set(err, "cannot save the download of '%s' to '%s': %s", url, path,
		         strerror(s->write_errno ? s->write_errno : EIO));
		diag_hint(err, "free some space in the data directory (see `mirage paths`), or "
		               "set " MIRAGE_ENV_DATA " elsewhere");
		break;
	case CURLE_ABORTED_BY_CALLBACK:
		diag_set(err, "%s", FETCH_INTERRUPTED); /* only *cancel aborts from the callback */
		break;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CACERT_BADFILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CERTPROBLEM:
		diag_set(err, "cannot download '%s': TLS failed: %s", url, why);
		diag_hint(err, "mirage verifies certificates; to trust a private CA, set "
		               "CURL_CA_BUNDLE=/path/to/ca.pem");
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
		diag_set(err, "cannot download '%s': %s", url, why);
		diag_hint(err, "check the address and the network; proxies come from https_proxy, "
		               "http_proxy and no_proxy");
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
		diag_set(err, "cannot download '%s': %s", url, why);
		diag_hint(err, "mirage fetches http://, https:// and file:// and follows redirects "
		               "to http(s) only");
		break;
	case CURLE_FILE_COULDNT_READ_FILE:
		diag_set(err, "cannot read '%s': %s", url, why);
		diag_hint(err, "check the path; a file:// URL needs an absolute path "
		               "(file:///abs/tree.tar.gz)");
		break;
	default:
		diag_set(err, "cannot download '%s': %s", url, why);
		diag_hint(err, "retry; if it keeps failing, download the file yourself and run "
		               "`mirage hotswap install FILE`");
		break;
	}
	return -1;
}

int download_to_file(const char *url, const char *path, const struct download_opts *opts,
                     struct diag *err)
{
	static const struct download_opts no_opts;
	char errbuf[CURL_ERROR_SIZE] = "";
	struct sink s = {.fd = -1, .opts = opts ? opts : &no_opts};
	const char *ca = getenv("CURL_CA_BUNDLE");
	CURL *h = NULL;
	CURLcode rc;
	int ret = -1;

	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		diag_set(err, "cannot download '%s': libcurl failed to initialise", url);
		return -1;
	}
	s.fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (s.fd < 0) {
		diag_set(err, "cannot create '%s': %s", path, strerror(errno));
		goto cleanup;
	}
	h = curl_easy_init();
	if (!h) {
		diag_set(err, "cannot download '%s': libcurl failed to initialise", url);
		goto cleanup;
	}
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	/* A redirect must never turn an http(s) download into a read of a local file. */
#if LIBCURL_VERSION_NUM >= 0x075500
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https,file");
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
#else
	curl_easy_setopt(h, CURLOPT_PROTOCOLS,
	                 (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS | CURLPROTO_FILE));
	curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
	curl_easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	if (ca && *ca)
		curl_easy_setopt(h, CURLOPT_CAINFO, ca);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, CONNECT_TIMEOUT_S);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, LOW_SPEED_TIME_S);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "mirage/" MIRAGE_VERSION);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &s);
	/* The callback runs even without a meter: it is also how an interrupt stops the transfer.
	 */
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, &s);

	rc = curl_easy_perform(h);
	if (rc != CURLE_OK) {
		explain(rc, h, url, path, errbuf, &s, err);
		goto cleanup;
	}
	if (close(s.fd) < 0) {
		s.fd = -1;
		diag_set(err, "cannot save the download of '%s' to '%s': %s", url, path,
		         strerror(errno));
		goto cleanup;
	}
	s.fd = -1;
	ret = 0;
cleanup:
	if (h)
		curl_easy_cleanup(h);
	if (s.fd >= 0)
		close(s.fd);
	curl_global_cleanup();
	return ret;
}
