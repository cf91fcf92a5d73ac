/*
 * Clang offload bundles, the HIP fat binary (docs/hip.md): the uncompressed format
 * ("__CLANG_OFFLOAD_BUNDLE__", a count, then per entry offset, size, id length and id, then
 * the payloads), the compressed one ("CCOB" v1, v2, v3, zlib or zstd, an MD5 hash) around it,
 * several bundles back to back in a host program's .hip_fatbin section, and the HIP runtime's
 * rule for which entry a device takes.  Reads untrusted bytes: every count, offset, size and
 * length is checked against the input, and no bundle decompresses past COB_MAX_UNCOMPRESSED.
 */
#ifndef MIRAGE_BUNDLE_H
#define MIRAGE_BUNDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define COB_MAGIC       "__CLANG_OFFLOAD_BUNDLE__" /* 24 bytes, no NUL in the file */
#define COB_MAGIC_LEN   24
#define COB_CCOB_MAGIC  "CCOB"
#define COB_ENTRY_ALIGN 4096u /* where clang puts each payload */
#define COB_MAX_ENTRIES 4096u
#define COB_MAX_ID      1024u
/*
 * A compressed bundle that claims or produces more is refused (a decompression bomb).  The
 * fuzz target builds the reader with a lower cap, so that no execution spends its time
 * decompressing and hashing megabytes.
 */
#ifndef COB_MAX_UNCOMPRESSED
#define COB_MAX_UNCOMPRESSED (UINT64_C(1) << 30)
#endif
/* Nor may it claim more than this many times its compressed size. */
#define COB_MAX_RATIO 1024u

enum cob_method {
	COB_ZLIB = 0,
	COB_ZSTD = 1,
};

struct cob_entry {
	char *id;            /* "hipv4-amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-" */
	char *kind;          /* "hipv4", "hip", "host", "openmp" */
	char *triple;        /* "amdgcn-amd-amdhsa-" (four components, the last may be empty) */
	char *target;        /* "gfx942:sramecc+:xnack-"; "" for the host entry */
	uint64_t offset;     /* from the start of the (uncompressed) bundle */
	uint64_t size;       /* 0 for the host entry */
	const uint8_t *data; /* the payload, inside cob_bundle.bytes */
};

struct cob_bundle {
	const uint8_t *bytes; /* the uncompressed bundle: the input itself, or owned */
	size_t size;
	uint8_t *owned; /* the decompressed bytes of a CCOB, NULL otherwise */
	size_t extent;  /* bytes of the input this bundle covers (header, entries, payload) */
	unsigned ccob;  /* 0: uncompressed; else the CCOB version */
	enum cob_method method;
	struct cob_entry *e;
	size_t n;
};

#define COB_BUNDLE_INIT                                                                            \
	{                                                                                          \
		0                                                                                  \
	}

/* The input starts with either magic (and has room for it). */
bool cob_is_bundle(const void *data, size_t size);
/*
 * Reads the bundle at the start of data into *b (COB_BUNDLE_INIT or freed): a CCOB is
 * decompressed and its hash and sizes checked.  The entries of an uncompressed bundle point
 * into data, which must then outlive *b.  Returns 0, or -1 with *err (malloc'ed, the offset
 * and field named) and *b left empty.
 */
int cob_bundle_read(const void *data, size_t size, struct cob_bundle *b, char **err);
void cob_bundle_free(struct cob_bundle *b);

/* One entry to write: its id and payload. */
struct cob_out_entry {
	const char *id;
	const void *data;
	size_t size;
};
/*
 * Writes an uncompressed bundle of the n entries, in that order, each payload at a
 * COB_ENTRY_ALIGN boundary as clang places them.  *out is malloc'ed.  Returns 0 or -1 (an id
 * over COB_MAX_ID bytes, too many entries, out of memory) with *err.
 */
int cob_bundle_write(const struct cob_out_entry *e, size_t n, uint8_t **out, size_t *size,
                     char **err);

/*
 * The same in two steps, for a caller that places a payload before the rest is written (the
 * HIP hooks read a cached translation straight into the bundle they register).  The layout
 * of n entries, the first payload no lower than first_min: an entry with a NULL id is given
 * room for any id (COB_MAX_ID bytes), so that a layout planned before an id is known holds
 * it.  Returns 0 or -1 with *err, as cob_bundle_write.
 */
struct cob_layout {
	size_t header; /* the magic, the count and the entry records */
	size_t first;  /* the first payload's offset (COB_ENTRY_ALIGN-aligned) */
	size_t last;   /* the last payload's offset */
	size_t size;   /* the bundle: up to the end of the last payload */
	size_t total;  /* bytes to give cob_bundle_fill: size rounded up to COB_ENTRY_ALIGN */
};
int cob_bundle_layout(const struct cob_out_entry *e, size_t n, size_t first_min,
                      struct cob_layout *l, char **err);
/*
 * Writes the bundle of a layout of the same entries (every id now set) into buf, l->total
 * bytes.  A payload whose data already lies at its offset in buf is left where it is.
 */
void cob_bundle_fill(const struct cob_out_entry *e, size_t n, const struct cob_layout *l,
                     uint8_t *buf);

/*
 * The HIP runtime's selection rule: the entry's processor is the device's, and each of
 * xnack and sramecc is either absent from the entry's target id (any) or the device's
 * setting.  device is a target id ("gfx942:sramecc+:xnack-", or just "gfx942": then only an
 * entry that leaves a feature unset, or the same bare processor, matches).
 */
bool cob_target_compatible(const char *entry_target, const char *device);
/* An entry the HIP runtime reads as a device code object: kind hip or hipv4, triple amdgcn. */
bool cob_entry_is_amdgcn(const struct cob_entry *e);
/* The first amdgcn entry compatible with device, or -1. */
long cob_bundle_select(const struct cob_bundle *b, const char *device);

/*
 * A host program's .hip_fatbin section (ELF64 of any machine): *sec and *size when found.
 * Returns 1 when found, 0 when the ELF has none, -1 with *err when the ELF is malformed.
 */
int cob_find_hip_fatbin(const void *elf, size_t size, const uint8_t **sec, size_t *sec_size,
                        char **err);
/*
 * The next bundle of a .hip_fatbin section: the bundles lie back to back with zero padding
 * between them.  *off is where to look (0 first) and is moved past the bundle read.  Returns
 * 1 with *b filled, 0 at the end (only padding left), -1 with *err.
 */
int cob_fatbin_next(const uint8_t *sec, size_t size, size_t *off, struct cob_bundle *b, char **err);

#endif
