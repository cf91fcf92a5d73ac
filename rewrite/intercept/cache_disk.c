/* On-disk translation cache entries: verified reads, atomic writes. */
#include "cache_disk.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cache_root.h"
#include "read_whole.h"
#include "sha.h"
#include "truthy.h"

char *hsi_disk_root(void)
{
	const char *dir = getenv("HSA_HOTSWAP_CACHE_DIR");

	if (env_flag("HSA_HOTSWAP_CACHE_DISABLE"))
		return NULL;
	if (dir)
		return *dir ? strdup(dir) : NULL;
	return translation_cache_default_root();
}

/* <root>/<kk>/<key><suffix>; caller frees. */
static char *entry_path(const char *root, const char *key, const char *suffix)
{
	size_t n = strlen(root) + strlen(key) + strlen(suffix) + 5;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%.2s/%s%s", root, key, key, suffix);
	return p;
}

/* Whole file into malloc'ed memory; 0, or -1 with errno (ENOENT = absent). */
static int slurp(const char *path, void **data, size_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;

	if (fd < 0)
		return -1;
	*data = read_whole_fd(fd, size);
	saved = errno;
	close(fd);
	errno = saved;
	return *data ? 0 : -1;
}

static bool json_str_is(const cJSON *obj, const char *name, const char *want)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	return cJSON_IsString(v) && !strcmp(v->valuestring, want);
}

static bool json_num(const cJSON *obj, const char *name, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
	if (!cJSON_IsNumber(v))
		return false;
	*out = v->valuedouble;
	return true;
}

/* Checks the object bytes against the sidecar; fills kernels. */
static bool verify(const char *key, const char *expect_version, const char *meta_text,
                   size_t meta_size, const void *co, size_t co_size, uint32_t *kernels)
{
	cJSON *meta = cJSON_ParseWithLength(meta_text, meta_size);
	uint8_t digest[HSI_SHA_LEN];
	char hex[HSI_SHA_HEX];
	double size = -1, k = 0;
	bool ok = false;

	if (!meta)
		return false;
	if (!json_str_is(meta, "key", key) ||
	    !json_str_is(meta, "rewriter_version", expect_version) ||
	    !json_num(meta, "output_size", &size) || size != (double)co_size)
		goto out;
	if (hsi_sha256(co, co_size, digest) < 0)
		goto out;
	hsi_hex(digest, sizeof(digest), hex);
	if (!json_str_is(meta, "output_sha256", hex))
		goto out;
	if (json_num(meta, "kernels", &k) && k >= 0 && k < 1e9)
		*kernels = (uint32_t)k;
	ok = true;
out:
	cJSON_Delete(meta);
	return ok;
}

enum hsi_disk_result hsi_disk_lookup(const char *root, const char *key_hex,
                                     const char *expect_version, struct hsi_blob *out)
{
	char *co_path = entry_path(root, key_hex, ".co");
	char *meta_path = entry_path(root, key_hex, ".json");
	void *co = NULL, *meta = NULL;
	size_t co_size = 0, meta_size = 0;
	uint32_t kernels = 0;
	enum hsi_disk_result res = HSI_DISK_MISS;

	if (!co_path || !meta_path)
		goto out;
	if (slurp(co_path, &co, &co_size) < 0) {
		/* No object: a miss (a lone sidecar is a write in progress or a leftover). */
		res = errno == ENOENT ? HSI_DISK_MISS : HSI_DISK_INVALID;
		goto out;
	}
	if (slurp(meta_path, &meta, &meta_size) < 0 ||
	    !verify(key_hex, expect_version, meta, meta_size, co, co_size, &kernels)) {
		res = HSI_DISK_INVALID;
		goto out;
	}
	out->data = co;
	out->size = co_size;
	out->kernels = kernels;
	co = NULL;
	res = HSI_DISK_HIT;
out:
	if (res == HSI_DISK_INVALID) {
		/* Never serve it again; failure to remove (read-only dir) is harmless. */
		unlink(co_path);
		unlink(meta_path);
	}
	free(co);
	free(meta);
	free(co_path);
	free(meta_path);
	return res;
}

static char *sidecar_text(const char *key_hex, const struct hsi_blob *blob,
                          const struct hsi_disk_meta *m)
{
	uint8_t digest[HSI_SHA_LEN];
	char hex[HSI_SHA_HEX], flags[24], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	cJSON *o;
	char *text = NULL;

	if (hsi_sha256(blob->data, blob->size, digest) < 0)
		return NULL;
	hsi_hex(digest, sizeof(digest), hex);
	snprintf(flags, sizeof(flags), "0x%llx", (unsigned long long)m->flags);
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(stamp, sizeof(stamp), "%lld", (long long)now);
	o = cJSON_CreateObject();
	if (!o)
		return NULL;
	if (cJSON_AddStringToObject(o, "key", key_hex) &&
	    cJSON_AddStringToObject(o, "input_sha256", m->input_sha256) &&
	    cJSON_AddNumberToObject(o, "input_size", (double)m->input_size) &&
	    cJSON_AddStringToObject(o, "output_sha256", hex) &&
	    cJSON_AddNumberToObject(o, "output_size", (double)blob->size) &&
	    cJSON_AddStringToObject(o, "source_isa", m->source_isa) &&
	    cJSON_AddStringToObject(o, "target_isa", m->target_isa) &&
	    cJSON_AddStringToObject(o, "flags", flags) &&
	    cJSON_AddStringToObject(o, "rewriter_version", m->rewriter_version) &&
	    cJSON_AddStringToObject(o, "rewriter_build",
	                            m->rewriter_build ? m->rewriter_build : "") &&
	    cJSON_AddNumberToObject(o, "kernels", m->kernels) &&
	    cJSON_AddStringToObject(o, "created", stamp))
		text = cJSON_Print(o);
	cJSON_Delete(o);
	return text;
}

int hsi_disk_store(const char *root, const char *key_hex, const struct hsi_blob *blob,
                   const struct hsi_disk_meta *meta)
{
	char *co_path = entry_path(root, key_hex, ".co");
	char *meta_path = entry_path(root, key_hex, ".json");
	char *text = NULL, *slash;
	int ret = -1, saved;

	if (!co_path || !meta_path)
		goto out;
	text = sidecar_text(key_hex, blob, meta);
	if (!text)
		goto out;
	slash = strrchr(co_path, '/');
	*slash = '\0';
	if (mkdir_parents(co_path, 0700) < 0)
		goto out;
	*slash = '/';
	/* No fsync: a torn entry fails verify() and is recomputed, and the loading thread (with
	 * every thread waiting on this key) should not wait for the disk. */
	if (atomic_write_file(meta_path, text, strlen(text), 0644, ATOMIC_REPLACE_NOSYNC) < 0 ||
	    atomic_write_file(co_path, blob->data, blob->size, 0644, ATOMIC_REPLACE_NOSYNC) < 0)
		goto out;
	ret = 0;
out:
	saved = errno;
	cJSON_free(text);
	free(co_path);
	free(meta_path);
	errno = saved;
	return ret;
}
