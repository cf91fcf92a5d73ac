/* On-disk translation cache entries: trusted directories, verified reads, atomic writes. */
#include "cache_disk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cache_fs.h"
#include "cache_root.h"
#include "crc32c.h"
#include "hotswap_contract.h"
#include "read_whole.h"
#include "sha.h"
#include "sidecar.h"
#include "truthy.h"

char *hsi_disk_root(void)
{
	const char *dir = getenv(HOTSWAP_ENV_CACHE_DIR);

	if (env_flag(HOTSWAP_ENV_CACHE_DISABLE))
		return NULL;
	if (dir)
		return *dir ? strdup(dir) : NULL;
	return translation_cache_default_root();
}

int hsi_disk_open(struct hsi_disk *disk, const char *root, char *why, size_t why_size)
{
	char what[600];
	int fd;

	disk->fd = -1;
	/* The name is the environment's: the log (stderr_line.h) escapes it where it is shown. */
	snprintf(what, sizeof(what), "cache root '%s'", root);
	fd = open(root, CACHE_DIR_FLAGS);
	if (fd < 0 && errno == ENOENT) {
		if (mkdir_parents(root, 0700) < 0) {
			cache_say(why, why_size, "cannot create %s: %s", what, strerror(errno));
			return -1;
		}
		fd = open(root, CACHE_DIR_FLAGS);
	}
	if (fd < 0) {
		cache_say_not_dir(AT_FDCWD, root, what, why, why_size);
		return -1;
	}
	if (cache_check_dir(fd, what, why, why_size) < 0) {
		close(fd);
		return -1;
	}
	disk->fd = fd;
	return 0;
}

void hsi_disk_close(struct hsi_disk *disk)
{
	if (disk->fd >= 0)
		close(disk->fd);
	disk->fd = -1;
}

/* The sidecar's description of the object: its size and kernel count. */
struct described {
	size_t size;
	uint32_t kernels;
	char sha256[HSI_SHA_HEX];
	bool has_crc; /* sidecars from before output_crc32c have only the SHA-256 */
	uint32_t crc32c;
	char *refused; /* malloc'ed, or NULL */
};

/* "output_crc32c": eight lowercase hex digits. */
static bool parse_crc(const char *s, uint32_t *crc)
{
	uint32_t v = 0;

	if (strlen(s) != 8)
		return false;
	for (int i = 0; i < 8; i++) {
		int d = s[i] >= '0' && s[i] <= '9'   ? s[i] - '0'
		        : s[i] >= 'a' && s[i] <= 'f' ? s[i] - 'a' + 10
		                                     : -1;
		if (d < 0)
			return false;
		v = v << 4 | (uint32_t)d;
	}
	*crc = v;
	return true;
}

/* expect_version NULL: any rewriter's (mirage cache verify judges integrity only). */
static bool parse_sidecar(const char *key, const char *expect_version, const char *text, size_t len,
                          struct described *d, char *why, size_t why_size)
{
	struct sidecar meta;
	char perr[160];
	const char *sha, *crc, *s;
	uint64_t size, k;
	bool ok = false;

	if (sidecar_parse(&meta, text, len, perr, sizeof(perr)) < 0) {
		cache_say(why, why_size, "sidecar cannot be read (%s)", perr);
		sidecar_free(&meta);
		return false;
	}
	sha = sidecar_str(&meta, "output_sha256");
	crc = sidecar_str(&meta, "output_crc32c");
	if (!(s = sidecar_str(&meta, "key")) || strcmp(s, key))
		cache_say(why, why_size, "sidecar describes another key");
	else if (expect_version &&
	         (!(s = sidecar_str(&meta, "rewriter_version")) || strcmp(s, expect_version)))
		cache_say(why, why_size, "sidecar is from another rewriter version");
	else if (!sidecar_uint(&meta, "output_size", &size) || size > SIZE_MAX)
		cache_say(why, why_size, "sidecar has no valid output_size");
	else if (!sha || strlen(sha) != HSI_SHA_HEX - 1)
		cache_say(why, why_size, "sidecar has no valid output_sha256");
	else if (crc && !parse_crc(crc, &d->crc32c))
		cache_say(why, why_size, "sidecar has no valid output_crc32c");
	else
		ok = true;
	if (ok) {
		d->size = (size_t)size;
		memcpy(d->sha256, sha, HSI_SHA_HEX);
		d->has_crc = crc != NULL;
		if (sidecar_uint(&meta, "kernels", &k) && k < 1000000000)
			d->kernels = (uint32_t)k;
		if ((s = sidecar_str(&meta, "refused")) && *s && !(d->refused = strdup(s))) {
			cache_say(why, why_size, "out of memory");
			ok = false;
		}
	}
	sidecar_free(&meta);
	return ok;
}

/*
 * The bytes of an entry against its sidecar: a hit checks the CRC-32C when the sidecar has one
 * (crc32c.h says why that is enough), else the SHA-256; all (mirage cache verify) checks both.
 */
static bool bytes_match(const void *co, size_t size, const struct described *d, bool all,
                        const char *co_name, char *why, size_t why_size)
{
	uint8_t digest[HSI_SHA_LEN];
	char hex[HSI_SHA_HEX];

	if (all || !d->has_crc) {
		if (hsi_sha256(co, size, digest) < 0) {
			cache_say(why, why_size, "cannot hash '%s'", co_name);
			return false;
		}
		hsi_hex(digest, sizeof(digest), hex);
		if (strcmp(hex, d->sha256)) {
			cache_say(why, why_size, "'%s' does not match its sidecar's output_sha256",
			          co_name);
			return false;
		}
	}
	if (d->has_crc && crc32c(co, size) != d->crc32c) {
		cache_say(why, why_size, "'%s' does not match its sidecar's output_crc32c",
		          co_name);
		return false;
	}
	return true;
}

/*
 * One entry checked as hsi_disk_lookup describes; out NULL: the bytes are only checked, by
 * every check the sidecar has (bytes_match).  An entry that fails is removed when
 * remove_invalid says so.
 */
static enum hsi_disk_result check_entry(const struct hsi_disk *disk, const char *key_hex,
                                        const char *expect_version,
                                        const struct hsi_disk_place *place, struct hsi_blob *out,
                                        bool remove_invalid, char *why, size_t why_size)
{
	char co_name[HSI_SHA_HEX + 8], meta_name[HSI_SHA_HEX + 8];
	struct described d = {0};
	struct stat co_st, meta_st;
	void *co = NULL, *meta = NULL;
	size_t co_size = 0, meta_size = 0;
	int shard, co_fd = -1, meta_fd = -1;
	enum hsi_disk_result res = HSI_DISK_INVALID;
	bool placed = false; /* co is the caller's memory (place), not ours to free */

	shard = cache_open_shard(disk, key_hex, SHARD_LOOKUP, why, why_size);
	if (shard < 0)
		return shard == -2 ? HSI_DISK_MISS : HSI_DISK_BYPASSED;
	snprintf(co_name, sizeof(co_name), "%s.co", key_hex);
	snprintf(meta_name, sizeof(meta_name), "%s.json", key_hex);
	co_fd = cache_open_entry(shard, co_name, &co_st, why, why_size);
	if (co_fd == -2) {
		/* No object: a miss (a lone sidecar is a write in progress or a leftover). */
		res = HSI_DISK_MISS;
		goto out;
	}
	if (co_fd < 0)
		goto out;
	meta_fd = cache_open_entry(shard, meta_name, &meta_st, why, why_size);
	if (meta_fd == -2)
		cache_say(why, why_size, "'%s' has no sidecar", co_name);
	if (meta_fd < 0)
		goto out;
	meta =
	    cache_read_entry(meta_fd, meta_name, HSI_DISK_MAX_SIDECAR, &meta_size, why, why_size);
	if (!meta || !parse_sidecar(key_hex, expect_version, meta, meta_size, &d, why, why_size))
		goto out;
	/* Sizes first: a planted multi-GiB (sparse) object is rejected by fstat alone. */
	if ((uintmax_t)co_st.st_size != (uintmax_t)d.size) {
		cache_say(why, why_size, "'%s' is %jd bytes, its sidecar says %zu", co_name,
		          (intmax_t)co_st.st_size, d.size);
		goto out;
	}
	if (out && place && (co = place->reserve(place->ctx, d.size))) {
		placed = true;
		if (read_exact_fd(co_fd, co, d.size) < 0) {
			cache_say(why, why_size, "cannot read '%s': %s", co_name,
			          errno == EIO ? "it shrank while read" : strerror(errno));
			goto out;
		}
		co_size = d.size;
	} else if (!(co = cache_read_entry(co_fd, co_name, d.size, &co_size, why, why_size))) {
		goto out;
	}
	if (co_size != d.size) {
		cache_say(why, why_size, "'%s' changed size while read", co_name);
		goto out;
	}
	if (!bytes_match(co, co_size, &d, !out, co_name, why, why_size))
		goto out;
	if (out) {
		out->data = co;
		out->size = co_size;
		out->kernels = d.kernels;
		out->refused = d.refused;
		d.refused = NULL;
		co = NULL;
	}
	res = HSI_DISK_HIT;
out:
	if (res == HSI_DISK_INVALID && remove_invalid) {
		/* Never serve it again; failure to remove (read-only dir) is harmless. */
		unlinkat(shard, co_name, 0);
		unlinkat(shard, meta_name, 0);
	}
	if (co_fd >= 0)
		close(co_fd);
	if (meta_fd >= 0)
		close(meta_fd);
	close(shard);
	if (!placed)
		free(co);
	free(d.refused);
	free(meta);
	return res;
}

enum hsi_disk_result hsi_disk_lookup(const struct hsi_disk *disk, const char *key_hex,
                                     const char *expect_version, struct hsi_blob *out, char *why,
                                     size_t why_size)
{
	return check_entry(disk, key_hex, expect_version, NULL, out, true, why, why_size);
}

enum hsi_disk_result hsi_disk_lookup_into(const struct hsi_disk *disk, const char *key_hex,
                                          const char *expect_version,
                                          const struct hsi_disk_place *place, struct hsi_blob *out,
                                          char *why, size_t why_size)
{
	return check_entry(disk, key_hex, expect_version, place, out, true, why, why_size);
}

int hsi_disk_verify(const struct hsi_disk *disk, const char *key_hex, char *why, size_t why_size)
{
	enum hsi_disk_result r = check_entry(disk, key_hex, NULL, NULL, NULL, false, why, why_size);
	if (r == HSI_DISK_MISS)
		cache_say(why, why_size, "'%s.co' is gone", key_hex);
	return r == HSI_DISK_HIT ? 0 : -1;
}

static char *sidecar_text(const char *key_hex, const struct hsi_blob *blob,
                          const struct hsi_disk_meta *m)
{
	uint8_t digest[HSI_SHA_LEN];
	char hex[HSI_SHA_HEX], crc[9], flags[24], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	char *text;

	if (hsi_sha256(blob->data, blob->size, digest) < 0)
		return NULL;
	hsi_hex(digest, sizeof(digest), hex);
	snprintf(crc, sizeof(crc), "%08x", (unsigned)crc32c(blob->data, blob->size));
	snprintf(flags, sizeof(flags), "0x%llx", (unsigned long long)m->flags);
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(stamp, sizeof(stamp), "%lld", (long long)now);
	{
		const struct sidecar_item items[] = {
		    {"key", key_hex, 0},
		    {"input_sha256", m->input_sha256, 0},
		    {"input_size", NULL, m->input_size},
		    {"output_sha256", hex, 0},
		    {"output_crc32c", crc, 0},
		    {"output_size", NULL, blob->size},
		    {"source_isa", m->source_isa, 0},
		    {"target_isa", m->target_isa, 0},
		    {"flags", flags, 0},
		    {"rewriter_version", m->rewriter_version, 0},
		    {"rewriter_build", m->rewriter_build ? m->rewriter_build : "", 0},
		    {"kernels", NULL, m->kernels},
		    {"created", stamp, 0},
		    {"refused", m->refused, 0}, /* last: left out when NULL */
		};
		text = sidecar_format(items, sizeof(items) / sizeof(items[0]) - !m->refused);
	}
	return text;
}

/* Removes temp files of killed writers: old regular files of ours named *.tmp.*, links never. */
static void sweep_stale_temps(int shard)
{
	int fd = openat(shard, ".", CACHE_DIR_FLAGS);
	time_t cutoff = time(NULL) - HSI_DISK_STALE_TEMP_SECONDS;
	struct dirent *de;
	struct stat st;
	DIR *dir;

	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir)))
		if (strstr(de->d_name, ".tmp.") &&
		    fstatat(shard, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_uid == geteuid() && st.st_mtime < cutoff)
			unlinkat(shard, de->d_name, 0);
	closedir(dir);
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * name in shard replaced by data through <name>.tmp.<pid>.<n>, created exclusively, 0600,
 * never through a link.  No fsync: a torn entry fails verification and is recomputed, and
 * the loading thread (with every thread waiting on this key) should not wait for the disk.
 */
static int write_entry(int shard, const char *name, const void *data, size_t len)
{
	static atomic_uint seq;
	char tmp[HSI_SHA_HEX + 64];
	int fd = -1, tries = 0, saved;

	do {
		snprintf(tmp, sizeof(tmp), "%s.tmp.%ld.%u", name, (long)getpid(),
		         atomic_fetch_add(&seq, 1));
		fd = openat(shard, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	} while (fd < 0 && errno == EEXIST && ++tries < 16);
	if (fd < 0)
		return -1;
	if (write_all(fd, data, len) < 0 || close(fd) < 0 ||
	    renameat(shard, tmp, shard, name) < 0) {
		saved = errno;
		unlinkat(shard, tmp, 0);
		errno = saved;
		return -1;
	}
	return 0;
}

int hsi_disk_store(const struct hsi_disk *disk, const char *key_hex, const struct hsi_blob *blob,
                   const struct hsi_disk_meta *meta, char *why, size_t why_size)
{
	char co_name[HSI_SHA_HEX + 8], meta_name[HSI_SHA_HEX + 8];
	char *text = sidecar_text(key_hex, blob, meta);
	int shard = -1, ret = -1;

	if (!text) {
		cache_say(why, why_size, "cannot describe the entry: out of memory");
		return -1;
	}
	shard = cache_open_shard(disk, key_hex, SHARD_CREATE, why, why_size);
	if (shard < 0)
		goto out;
	sweep_stale_temps(shard);
	snprintf(co_name, sizeof(co_name), "%s.co", key_hex);
	snprintf(meta_name, sizeof(meta_name), "%s.json", key_hex);
	if (write_entry(shard, meta_name, text, strlen(text)) < 0 ||
	    write_entry(shard, co_name, blob->data, blob->size) < 0) {
		cache_say(why, why_size, "cannot write an entry into shard '%.2s': %s", key_hex,
		          strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (shard >= 0)
		close(shard);
	free(text);
	return ret;
}

unsigned hsi_disk_lock_timeout_ms(void)
{
	const char *v = getenv(HOTSWAP_ENV_CACHE_LOCK_TIMEOUT);
	char *end;
	unsigned long s;

	if (!v || !*v)
		return HSI_DISK_LOCK_TIMEOUT_DEFAULT_S * 1000u;
	errno = 0;
	s = strtoul(v, &end, 10);
	/* Not a number of seconds: the default, never an endless wait. */
	if (errno || *end || v[0] == '-' || s > 24ul * 3600)
		return HSI_DISK_LOCK_TIMEOUT_DEFAULT_S * 1000u;
	return (unsigned)s * 1000u;
}

/* The key's lock file, opened and checked like an entry (0600, ours, regular); -1 with why. */
static int open_lock(int shard, const char *name, char *why, size_t why_size)
{
	int fd = openat(shard, name,
	                O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0600);
	struct stat st;

	if (fd < 0) {
		cache_say(why, why_size, "cannot open the lock '%s': %s", name,
		          errno == ELOOP ? "a symbolic link" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		cache_say(why, why_size, "the lock '%s' is not a regular file of uid %u, mode 0600",
		          name, (unsigned)geteuid());
		close(fd);
		return -1;
	}
	return fd;
}

#define LOCK_POLL_MAX_MS 20

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static unsigned ms_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (unsigned)((now.tv_sec - t0->tv_sec) * 1000 + (now.tv_nsec - t0->tv_nsec) / 1000000);
}

enum hsi_disk_wait hsi_disk_lock(const struct hsi_disk *disk, const char *key_hex,
                                 const char *expect_version, unsigned timeout_ms, int *lock_fd,
                                 struct hsi_blob *out, unsigned *waited_ms, char *why,
                                 size_t why_size)
{
	char name[HSI_SHA_HEX + 8];
	struct timespec t0;
	unsigned step = 5;
	bool waited = false;
	int shard, fd;

	*lock_fd = -1;
	*waited_ms = 0;
	shard = cache_open_shard(disk, key_hex, SHARD_CREATE, why, why_size);
	if (shard < 0)
		return HSI_DISK_NO_LOCK;
	snprintf(name, sizeof(name), "%s.lock", key_hex);
	fd = open_lock(shard, name, why, why_size);
	close(shard);
	if (fd < 0)
		return HSI_DISK_NO_LOCK;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK) {
			cache_say(why, why_size,
			          "cannot lock '%s' (%s): translating without waiting", name,
			          strerror(errno));
			close(fd);
			return HSI_DISK_NO_LOCK;
		}
		waited = true;
		*waited_ms = ms_since(&t0);
		if (*waited_ms >= timeout_ms) {
			cache_say(why, why_size,
			          "another process has held '%s' for %u ms "
			          "(" HOTSWAP_ENV_CACHE_LOCK_TIMEOUT "): translating here too",
			          name, *waited_ms);
			close(fd);
			return HSI_DISK_NO_LOCK;
		}
		/* At most 20 ms late: the ranks of a job wait on the one translating, and every
		 * one of them starts that much later (a flock() a poll is nothing beside it). */
		sleep_ms(step);
		step = step < LOCK_POLL_MAX_MS / 2 ? step * 2 : LOCK_POLL_MAX_MS;
	}
	*waited_ms = waited ? ms_since(&t0) : 0;
	/* The holder stores before it releases, so the entry is there now if it was made while
	 * we waited, or between the caller's miss and our lock. */
	if (hsi_disk_lookup(disk, key_hex, expect_version, out, why, why_size) == HSI_DISK_HIT) {
		flock(fd, LOCK_UN);
		close(fd);
		return HSI_DISK_SERVED;
	}
	*lock_fd = fd;
	return HSI_DISK_LOCKED;
}

void hsi_disk_unlock(int lock_fd)
{
	if (lock_fd < 0)
		return;
	flock(lock_fd, LOCK_UN);
	close(lock_fd);
}

/* "<64 hex digits><suffix>": a name of ours in a shard. */
static bool is_key_name(const char *name, const char *suffix)
{
	size_t n = strspn(name, "0123456789abcdef");
	return n == HSI_SHA_HEX - 1 && !strcmp(name + n, suffix);
}

/* What the sidecar of an entry says about it, for the listing (blank when it cannot say). */
static void describe(int shard, const char *key, struct hsi_disk_entry *e)
{
	char name[HSI_SHA_HEX + 8], why[128];
	struct stat st;
	size_t size = 0;
	void *text = NULL;
	struct sidecar meta = {0};
	int fd;

	snprintf(name, sizeof(name), "%s.json", key);
	fd = cache_open_entry(shard, name, &st, why, sizeof(why));
	if (fd < 0)
		return;
	e->size += (uint64_t)st.st_size;
	text = cache_read_entry(fd, name, HSI_DISK_MAX_SIDECAR, &size, why, sizeof(why));
	close(fd);
	if (text && sidecar_parse(&meta, text, size, why, sizeof(why)) == 0) {
		const char *isa = sidecar_str(&meta, "target_isa");
		uint64_t k;
		if (isa)
			snprintf(e->target_isa, sizeof(e->target_isa), "%s", isa);
		if (sidecar_uint(&meta, "kernels", &k) && k < 1000000000)
			e->kernels = (uint32_t)k;
	}
	sidecar_free(&meta);
	free(text);
}

/* What each_shard() calls for one shard: its descriptor, the stream over it and its name;
 * nonzero stops the walk. */
typedef int (*shard_fn)(int shard, DIR *d, const char *name, void *ctx);

/*
 * Every shard of the root that passes the trust rule, in readdir order.  An untrusted one is
 * left alone, as the intercept leaves it: counted in *skipped (when given), its reason in why.
 * Returns fn's nonzero result, 0, or -1 when the root cannot be read (why says so).
 */
static int each_shard(const struct hsi_disk *disk, shard_fn fn, void *ctx, unsigned *skipped,
                      char *why, size_t why_size)
{
	int rootfd = openat(disk->fd, ".", CACHE_DIR_FLAGS), rc = 0;
	DIR *root = rootfd >= 0 ? fdopendir(rootfd) : NULL;
	struct dirent *de;

	if (!root) {
		cache_say(why, why_size, "cannot read the cache root: %s", strerror(errno));
		if (rootfd >= 0)
			close(rootfd);
		return -1;
	}
	while (!rc && (de = readdir(root))) {
		char shard_why[256];
		int shard;
		DIR *d;

		if (strlen(de->d_name) != 2 || strspn(de->d_name, "0123456789abcdef") != 2)
			continue;
		shard =
		    cache_open_shard(disk, de->d_name, SHARD_LOOKUP, shard_why, sizeof(shard_why));
		if (shard < 0) {
			if (shard == -1) {
				if (skipped)
					(*skipped)++;
				cache_say(why, why_size, "%s", shard_why);
			}
			continue;
		}
		if (!(d = fdopendir(shard))) {
			close(shard);
			continue;
		}
		rc = fn(shard, d, de->d_name, ctx);
		closedir(d);
	}
	closedir(root);
	return rc;
}

struct each_ctx {
	hsi_disk_each_fn fn;
	void *ctx;
};

static int each_entry(int shard, DIR *d, const char *name, void *ctx)
{
	const struct each_ctx *c = ctx;
	struct dirent *se;
	int rc = 0;

	(void)name;
	while (!rc && (se = readdir(d))) {
		struct hsi_disk_entry e = {0};
		struct stat st;
		if (!is_key_name(se->d_name, ".co") ||
		    fstatat(shard, se->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		snprintf(e.key, sizeof(e.key), "%.*s", HSI_SHA_HEX - 1, se->d_name);
		e.size = (uint64_t)st.st_size;
		e.mtime = st.st_mtime;
		describe(shard, e.key, &e);
		rc = c->fn(&e, c->ctx);
	}
	return rc;
}

int hsi_disk_each(const struct hsi_disk *disk, hsi_disk_each_fn fn, void *ctx, unsigned *skipped,
                  char *why, size_t why_size)
{
	struct each_ctx c = {fn, ctx};

	*skipped = 0;
	return each_shard(disk, each_entry, &c, skipped, why, why_size);
}

int hsi_disk_remove(const struct hsi_disk *disk, const char *key_hex)
{
	static const char *const suffixes[] = {".co", ".json", ".lock"};
	char why[64], name[HSI_SHA_HEX + 8];
	int shard = cache_open_shard(disk, key_hex, SHARD_LOOKUP, why, sizeof(why)), ret = 0;

	if (shard < 0)
		return shard == -2 ? 0 : -1;
	/* The object first: without it the entry is a miss even if the rest stays. */
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", key_hex, suffixes[i]);
		if (unlinkat(shard, name, 0) < 0 && errno != ENOENT)
			ret = -1;
	}
	close(shard);
	return ret;
}

struct clear_ctx {
	int root;
	long removed;
};

static int clear_shard(int shard, DIR *d, const char *name, void *ctx)
{
	struct clear_ctx *c = ctx;
	struct dirent *se;

	while ((se = readdir(d))) {
		struct stat st;
		bool ours = is_key_name(se->d_name, ".co") || is_key_name(se->d_name, ".json") ||
		            is_key_name(se->d_name, ".lock") || strstr(se->d_name, ".tmp.");
		if (ours && fstatat(shard, se->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode) || S_ISFIFO(st.st_mode)) &&
		    unlinkat(shard, se->d_name, 0) == 0)
			c->removed++;
	}
	unlinkat(c->root, name, AT_REMOVEDIR); /* fails, harmlessly, if not empty */
	return 0;
}

long hsi_disk_clear(const struct hsi_disk *disk, char *why, size_t why_size)
{
	struct clear_ctx c = {disk->fd, 0};

	return each_shard(disk, clear_shard, &c, NULL, why, why_size) < 0 ? -1 : c.removed;
}
