/* libmirage_fetch.so's only export: the const table of its download, hash and extract calls. */
#include "fetch.h"

#include "download.h"
#include "extract.h"
#include "file_sha256.h"

__attribute__((visibility("default"))) const struct fetch_api *mirage_fetch_get_api(void);

const struct fetch_api *mirage_fetch_get_api(void)
{
	static const struct fetch_api api = {
	    .version = FETCH_API_VERSION,
	    .download_to_fd = download_to_fd,
	    .sha256_fd_hex = sha256_fd_hex,
	    .extract_archive_fd = extract_archive_fd,
	};
	return &api;
}
