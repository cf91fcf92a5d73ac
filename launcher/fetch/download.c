/* libcurl transfer of one URL into a file, with the meter and cancellation wired into curl's
 * callbacks. */
#include "download.h"
#include "hotswap_contract.h"

#include "human_size.h"
#include "printable.h"

#include <curl/curl.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef MIRAGE_VERSION
#define MIRAGE_VERSION "unknown"
#endif

/* Give up when a server accepts nothing for this long. */
#define CONNECT_TIMEOUT_S 30L

/* Which of download_opts' limits stopped the transfer, decided here rather than guessed from curl.
 */
enum limit_hit {
	LIMIT_NONE,
	LIMIT_SIZE, /* the body grew past max_bytes */
	LIMIT_TIME, /* the transfer ran past timeout_s */
};

struct sink {
	int fd;
	int write_errno; /* why the last write failed, for the message */
	const struct download_opts *opts;
	uint64_t max_bytes, received;
	uint64_t deadline_ms, timeout_s;
	enum limit_hit limit;
};

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static size_t on_data(char *data, size_t size, size_t nmemb, void *user)
{
	struct sink *s = user;
	size_t len = size * nmemb, off = 0;
	/*
	 * Counted here, not with CURLOPT_MAXFILESIZE alone, which (before curl
	 * 8.4) only refuses a size the server announces: an endless body or
	 * file:///dev/zero announces none.  Nothing past the limit is written.
	 */
	if (len > s->max_bytes - s->received) {
		s->limit = LIMIT_SIZE;
		return 0;
	}
	s->received += len;
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
	struct sink *s = user;
	(void)ultotal;
	(void)ulnow;
	if (s->opts->cancel && *s->opts->cancel)
		return 1;
	/* curl calls this at least once a second even when no byte arrives, so a trickle ends too.
	 */
	if (now_ms() >= s->deadline_ms) {
		s->limit = LIMIT_TIME;
		return 1;
	}
	if (s->opts->progress)
		s->opts->progress(s->opts->progress_arg, dlnow > 0 ? (uint64_t)dlnow : 0,
		                  dltotal > 0 ? (uint64_t)dltotal : 0);
	return 0;
}

/* The message for a limit download_opts set, naming it and the flag that raises it. */
static int limit_hit(const struct sink *s, const char *url, struct diag *err)
{
	char words[HUMAN_SIZE_LEN];
	if (s->limit == LIMIT_SIZE) {
		diag_set(err, "cannot download '%s': it is larger than the limit of %s", url,
		         human_size_format(s->max_bytes, words));
		diag_hint(err, FETCH_RAISE_SIZE_HINT);
	} else {
		diag_set(err,
		         "cannot download '%s': it took longer than the limit of %" PRIu64
		         " seconds (%s received)",
		         url, s->timeout_s, human_size_format(s->received, words));
		diag_hint(err, "the server or the network is too slow; raise the limit with "
		               "--" FETCH_TIMEOUT_FLAG " SECONDS, or download the file yourself "
		               "and run `mirage hotswap install FILE`");
	}
	return -1;
}

/*
 * Turns a failed transfer into a message that names the URL (shown: redacted
 * and escaped) and a fix.  curl's own words may quote the URL, or one it was
 * redirected to, so they are redacted too.
 */
static int explain(CURLcode rc, CURL *h, const char *url, const char *errbuf, const struct sink *s,
                   struct diag *err)
{
	char *why = printable_text(*errbuf ? errbuf : curl_easy_strerror(rc));
	char words[HUMAN_SIZE_LEN];
	long status = 0;

	if (s->limit != LIMIT_NONE) {
		free(why);
		return limit_hit(s, url, err);
	}
	switch (rc) {
	case CURLE_HTTP_RETURNED_ERROR:
		curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
		diag_set(err, "cannot download '%s': the server answered HTTP %ld", url, status);
		diag_hint(err, status == 404
		                   ? "check the URL: there is no file at that address"
		                   : "check the URL and that you may fetch it, then retry");
		break;
	case CURLE_WRITE_ERROR:
		diag_set(err, "cannot save the download of '%s' in '%s': %s", url,
		         s->opts->dest ? s->opts->dest : "the data directory",
		         strerror(s->write_errno ? s->write_errno : EIO));
		diag_hint(err, "free some space in the data directory (see `mirage paths`), or "
		               "set " MIRAGE_ENV_DATA " elsewhere");
		break;
	case CURLE_FILESIZE_EXCEEDED:
		/* The server announced a size over CURLOPT_MAXFILESIZE_LARGE: refused before any
		 * byte. */
		diag_set(err,
		         "cannot download '%s': the server announces a size over the limit of %s",
		         url, human_size_format(s->max_bytes, words));
		diag_hint(err, FETCH_RAISE_SIZE_HINT);
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
	case CURLE_OPERATION_TIMEDOUT:
		/* Our own deadline is LIMIT_TIME above: this is the connect or the stall timeout.
		 */
		diag_set(err, "cannot download '%s': %s", url, why);
		diag_hint(
		    err,
		    "mirage gives up on a server that accepts nothing for %ld seconds or sends "
		    "under %ld bytes/s for %ld seconds; check the address and the network "
		    "and retry",
		    CONNECT_TIMEOUT_S, DOWNLOAD_STALL_BYTES_PER_S, DOWNLOAD_STALL_TIME_S);
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_CONNECT:
		diag_set(err, "cannot download '%s': %s", url, why);
		diag_hint(err, "check the address and the network; proxies come from https_proxy, "
		               "http_proxy and no_proxy");
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
		diag_set(err, "cannot download '%s': %s", url, why);
		diag_hint(err, "mirage fetches http://, https:// and file:// and follows redirects "
		               "to http(s) only");
		break;
	case CURLE_URL_MALFORMAT:
		diag_set(err, "cannot download '%s': %s", url, why);
		diag_hint(err, "check the URL; a file:// URL needs an absolute path "
		               "(file:///abs/tree.tar.gz)");
		break;
	case CURLE_FILE_COULDNT_READ_FILE:
		diag_set(err, "cannot read '%s': %s", url, why);
		/* file:///x names an absolute path already: then the file is missing or unreadable.
		 */
		if (!strncmp(url, "file:///", 8))
			diag_hint(err, "check that the file exists and is readable; a plain path "
			               "works too (mirage hotswap install /abs/tree.tar.gz)");
		else
			diag_hint(err, "check the path; a file:// URL needs an absolute path "
			               "(file:///abs/tree.tar.gz)");
		break;
	default:
		diag_set(err, "cannot download '%s': %s", url, why);
		diag_hint(err, "retry; if it keeps failing, download the file yourself and run "
		               "`mirage hotswap install FILE`");
		break;
	}
	free(why);
	return -1;
}

int download_to_fd(const char *url, int fd, const struct download_opts *opts, struct diag *err)
{
	static const struct download_opts no_opts;
	char errbuf[CURL_ERROR_SIZE] = "";
	struct sink s = {.fd = fd, .opts = opts ? opts : &no_opts};
	const char *ca = getenv("CURL_CA_BUNDLE");
	char *shown = printable_text(url);
	CURL *h = NULL;
	CURLcode rc;
	int ret = -1;

	s.max_bytes = s.opts->max_bytes ? s.opts->max_bytes : DOWNLOAD_DEFAULT_MAX_BYTES;
	s.timeout_s = s.opts->timeout_s ? s.opts->timeout_s : DOWNLOAD_DEFAULT_TIMEOUT_S;
	s.deadline_ms = now_ms() + s.timeout_s * 1000;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		diag_set(err, "cannot download '%s': libcurl failed to initialise", shown);
		free(shown);
		return -1;
	}
	h = curl_easy_init();
	if (!h) {
		diag_set(err, "cannot download '%s': libcurl failed to initialise", shown);
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
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, DOWNLOAD_STALL_BYTES_PER_S);
	curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, DOWNLOAD_STALL_TIME_S);
	/* An announced size over the limit is refused before the first byte (on_data counts the
	 * rest). */
	curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE,
	                 (curl_off_t)(s.max_bytes > INT64_MAX ? INT64_MAX : s.max_bytes));
	curl_easy_setopt(h, CURLOPT_USERAGENT, "mirage/" MIRAGE_VERSION);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &s);
	/*
	 * The callback runs even without a meter: it is also how an interrupt
	 * and the deadline stop the transfer.
	 */
	curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(h, CURLOPT_XFERINFODATA, &s);

	rc = curl_easy_perform(h);
	if (rc != CURLE_OK) {
		explain(rc, h, shown, errbuf, &s, err);
		goto cleanup;
	}
	ret = 0;
cleanup:
	if (h)
		curl_easy_cleanup(h);
	curl_global_cleanup();
	free(shown);
	return ret;
}
