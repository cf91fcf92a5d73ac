/*
 * The on-disk tier of the translation cache:
 * <root>/<key[0:2]>/<key>.co plus <key>.json (input/output sha256, sizes,
 * ISA pair, flags, rewriter version, timestamp).  Entries are written
 * sidecar first, then the object, each through a temp file and rename, so a
 * .co only ever appears complete and described.  A lookup verifies sizes and
 * the output hash; any mismatch removes the entry and is never a hit.
 *
 * Trust: the sidecar's hash gives integrity, not authenticity, so only
 * directories nobody else can write are used.  The root and every shard must
 * be directories owned by the effective uid and not writable by group or
 * other; anything else is bypassed (nothing read, nothing written).  The
 * root is opened once (its last component never a symbolic link) and
 * everything below it is reached relative to that descriptor without
 * following links, so the path above the root (say a shared /tmp) does not
 * matter once the root itself is ours.  Directories are created 0700,
 * files 0600.  Entries are opened non-blocking and must be regular files of
 * the size the sidecar declares before a byte is read.  Temp files
 * (<name>.tmp.*) a killed writer left behind are swept from a shard when an
 * entry is stored into it, once they are older than HSI_DISK_STALE_TEMP_SECONDS.
 */
#ifndef HOTSWAP_INTERCEPT_CACHE_DISK_H
#define HOTSWAP_INTERCEPT_CACHE_DISK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* A key in hex, without its NUL (sha.h's HSI_SHA_HEX counts the NUL). */
#define HSI_SHA_HEX_LEN 64

/*
 * A finished translation; data is owned by the in-process cache (or by the producer until it
 * hands it over), or by the caller of hsi_disk_lookup.
 */
struct hsi_blob {
	const void *data;
	size_t size;
	uint32_t kernels; /* kernel descriptors in the object, for messages */
	/* A partial translation's refused kernels, one refusal sentence a line (malloc'ed, owned
	 * with data); NULL when every kernel translated. */
	const char *refused;
};

/* A temp file this old belongs to no live writer (writes take well under a second). */
#define HSI_DISK_STALE_TEMP_SECONDS (15 * 60)
/* A sidecar is a few hundred bytes: anything bigger is not ours. */
#define HSI_DISK_MAX_SIDECAR (64 * 1024)

/*
 * The cache root from the environment: HSA_HOTSWAP_CACHE_DIR, else
 * $XDG_CACHE_HOME/mirage/hotswap, else ~/.cache/mirage/hotswap.  NULL when
 * the tier is off (HSA_HOTSWAP_CACHE_DISABLE truthy, HSA_HOTSWAP_CACHE_DIR
 * set but empty, or no home).  Caller frees with free().
 */
char *hsi_disk_root(void);

/* An opened, verified cache root. */
struct hsi_disk {
	int fd; /* O_DIRECTORY descriptor of the root, -1 when not open */
};

/*
 * Opens root (creating it and its missing parents 0700) and verifies it.
 * 0, or -1 with the reason in why: then the tier is bypassed for the process.
 * Release with hsi_disk_close().
 */
int hsi_disk_open(struct hsi_disk *disk, const char *root, char *why, size_t why_size);
/* Closes the root; harmless on a disk that was never opened ({.fd = -1}). */
void hsi_disk_close(struct hsi_disk *disk);

enum hsi_disk_result {
	HSI_DISK_HIT = 0,
	HSI_DISK_MISS = 1,
	HSI_DISK_INVALID = 2,  /* an entry existed but failed verification; it was removed */
	HSI_DISK_BYPASSED = 3, /* the shard is not trusted: nothing read, nothing to write */
};

/* What the sidecar records besides the output itself. */
struct hsi_disk_meta {
	const char *input_sha256; /* hex */
	size_t input_size;
	const char *source_isa;
	const char *target_isa;
	uint64_t flags;
	const char *rewriter_version;
	const char *rewriter_build; /* hs_build_identity(): part of the key, recorded for people */
	uint32_t kernels;
	const char *refused; /* the blob's refusal lines, or NULL */
};

/*
 * Looks key_hex up.  On a hit *out holds malloc'ed bytes (caller frees
 * out->data and out->refused with free()), their kernel count and a partial translation's
 * refusals.  expect_version is the
 * running rewriter's version: another version's entry is invalid.  INVALID
 * and BYPASSED say why in why.
 */
enum hsi_disk_result hsi_disk_lookup(const struct hsi_disk *disk, const char *key_hex,
                                     const char *expect_version, struct hsi_blob *out, char *why,
                                     size_t why_size);

/*
 * Where a hit's bytes go when the caller has a better place for them than a buffer of their
 * own (the HIP hooks read a translation straight into the bundle they register, rather than
 * read it and copy it): reserve returns size writable bytes, or NULL for a buffer of their
 * own.  The memory is the caller's whatever the result; on a hit out->data points into it.
 */
struct hsi_disk_place {
	void *(*reserve)(void *ctx, size_t size);
	void *ctx;
};
enum hsi_disk_result hsi_disk_lookup_into(const struct hsi_disk *disk, const char *key_hex,
                                          const char *expect_version,
                                          const struct hsi_disk_place *place, struct hsi_blob *out,
                                          char *why, size_t why_size);

/*
 * Stores an entry; 0, or -1 with the reason in why (an untrusted shard, a
 * read-only or full disk: the caller goes on without the entry).
 */
int hsi_disk_store(const struct hsi_disk *disk, const char *key_hex, const struct hsi_blob *blob,
                   const struct hsi_disk_meta *meta, char *why, size_t why_size);

/*
 * One translation across processes: <key>.lock in the key's shard, an flock(2) lock.  The
 * process that misses takes it, translates, stores, releases; a process that finds it held
 * waits (polling, at most timeout_ms) and is served the holder's entry.  The kernel drops the
 * lock of a holder that dies; a holder that hangs past the bound is not waited on any more.
 * The lock file follows the entries' trust rules (a regular file of ours, mode 0600, never
 * through a link).  A file system without locks (NFS without lockd: ENOLCK, EOPNOTSUPP)
 * means duplicate work, never a failure.
 */
enum hsi_disk_wait {
	HSI_DISK_LOCKED = 0, /* *lock_fd holds the lock: produce, store, hsi_disk_unlock */
	HSI_DISK_SERVED = 1, /* another process stored the entry meanwhile: *out holds it */
	HSI_DISK_NO_LOCK =
	    2, /* no lock (why says why: unsupported, untrusted, the bound): produce */
};

/* The default bound of a wait, and the variable that changes it (seconds). */
#define HSI_DISK_LOCK_TIMEOUT_DEFAULT_S 600u

/* HSA_HOTSWAP_CACHE_LOCK_TIMEOUT in milliseconds, else the default; 0 waits not at all. */
unsigned hsi_disk_lock_timeout_ms(void);

/*
 * Takes key_hex's lock, waiting up to timeout_ms while another process holds it.  *waited_ms
 * says how long it waited.  SERVED re-checks the entry as hsi_disk_lookup does (an entry that
 * fails it is removed and the caller produces, holding the lock).
 */
enum hsi_disk_wait hsi_disk_lock(const struct hsi_disk *disk, const char *key_hex,
                                 const char *expect_version, unsigned timeout_ms, int *lock_fd,
                                 struct hsi_blob *out, unsigned *waited_ms, char *why,
                                 size_t why_size);
/* Releases a lock hsi_disk_lock took; harmless on -1. */
void hsi_disk_unlock(int lock_fd);

/* ---- What `mirage cache` does with the entries ---- */

/* One entry: an object file, with what its sidecar says (blank when it cannot say). */
struct hsi_disk_entry {
	char key[HSI_SHA_HEX_LEN + 1];
	uint64_t size; /* bytes on disk: the object and its sidecar */
	time_t mtime;  /* when the object was stored */
	char target_isa[128];
	uint32_t kernels;
};
typedef int (*hsi_disk_each_fn)(const struct hsi_disk_entry *e, void *ctx);

/*
 * Calls fn on every entry of every trusted shard, in no set order, until fn returns non-zero
 * (returned).  Shards that break the trust rules are skipped, counted in *skipped, the last
 * one's reason in why.  -1 with why when the root cannot be read.
 */
int hsi_disk_each(const struct hsi_disk *disk, hsi_disk_each_fn fn, void *ctx, unsigned *skipped,
                  char *why, size_t why_size);
/*
 * Checks one entry as a lookup does (sidecar, sizes, SHA-256, key), whatever rewriter wrote
 * it, and removes nothing: 0, or -1 with why.
 */
int hsi_disk_verify(const struct hsi_disk *disk, const char *key_hex, char *why, size_t why_size);
/* Removes an entry's object, sidecar and lock, the object first: 0 or -1. */
int hsi_disk_remove(const struct hsi_disk *disk, const char *key_hex);
/*
 * Removes every file of ours from every trusted shard (entries, lone sidecars, locks, the
 * temp files of killed writers) and the shards left empty: how many files, or -1 with why.
 */
long hsi_disk_clear(const struct hsi_disk *disk, char *why, size_t why_size);

#endif
