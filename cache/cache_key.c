/* The translation cache's key (cache_key.h). */
#include "cache_key.h"

#include <string.h>

int hsi_cache_key(const void *in, size_t in_size, const char *src_key, const char *tgt_key,
                  uint64_t flags, const char *build_identity, struct hsi_cache_key *out)
{
	uint8_t in_sha[HSI_SHA_LEN];
	const void *parts[] = {in_sha, src_key, tgt_key, &flags, build_identity};
	size_t sizes[] = {sizeof(in_sha), strlen(src_key), strlen(tgt_key), sizeof(flags),
	                  strlen(build_identity)};

	if (hsi_sha256(in, in_size, in_sha) < 0 ||
	    hsi_sha256_parts(parts, sizes, sizeof(parts) / sizeof(parts[0]), out->key) < 0)
		return -1;
	hsi_hex(in_sha, sizeof(in_sha), out->in_hex);
	hsi_hex(out->key, sizeof(out->key), out->key_hex);
	return 0;
}
