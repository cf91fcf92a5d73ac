/* Clang offload bundles: read (uncompressed, CCOB v1-v3), write, select (bundle.h). */
#include "bundle.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "md5.h"
#include "prefault.h"
#include "str_fmt.h"
#include "zstd_dl.h"

__attribute__((format(printf, 2, 3))) static int fail(char **err, const char *fmt, ...)
{
	va_list ap;
	if (err) {
		va_start(ap, fmt);
		*err = str_vfmt(fmt, ap);
		va_end(ap);
	}
	return -1;
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

bool cob_is_bundle(const void *data, size_t size)
{
	return (size >= COB_MAGIC_LEN && !memcmp(data, COB_MAGIC, COB_MAGIC_LEN)) ||
	       (size >= 4 && !memcmp(data, COB_CCOB_MAGIC, 4));
}

void cob_bundle_free(struct cob_bundle *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->e[i].id);
		free(b->e[i].kind);
		free(b->e[i].triple);
		free(b->e[i].target);
	}
	free(b->e);
	free(b->owned);
	memset(b, 0, sizeof(*b));
}

/*
 * "<kind>-<triple>[-<target id>]", the triple four components (LLVM's OffloadTargetInfo):
 * "hipv4-amdgcn-amd-amdhsa--gfx942" is kind hipv4, triple "amdgcn-amd-amdhsa-", target
 * "gfx942".  Returns 0, -1 for an id of another shape, -2 when out of memory.
 */
static int split_id(struct cob_entry *e)
{
	const char *id = e->id, *p = strchr(id, '-'), *t;
	int dashes = 0;

	if (!p || p == id)
		return -1;
	t = p + 1;
	while (*t && dashes < 4) {
		if (*t == '-')
			dashes++;
		if (dashes < 4)
			t++;
	}
	e->kind = strndup(id, (size_t)(p - id));
	e->triple = strndup(p + 1, (size_t)(t - (p + 1)));
	e->target = strdup(*t == '-' ? t + 1 : t);
	return e->kind && e->triple && e->target ? 0 : -2;
}

/* An uncompressed bundle at data[0, size): entries checked against size. */
static int read_plain(const uint8_t *d, size_t size, struct cob_bundle *b, char **err)
{
	size_t pos = COB_MAGIC_LEN + 8, extent = pos;
	uint64_t n;

	if (size < pos)
		return fail(err, "offload bundle: %zu bytes, too short for its header", size);
	n = le64(d + COB_MAGIC_LEN);
	if (n == 0 || n > COB_MAX_ENTRIES)
		return fail(err,
		            "offload bundle: entry count %llu at offset 0x%x (1 to %u allowed)",
		            (unsigned long long)n, COB_MAGIC_LEN, COB_MAX_ENTRIES);
	b->e = calloc((size_t)n, sizeof(*b->e));
	if (!b->e)
		return fail(err, "offload bundle: out of memory");
	b->n = (size_t)n;
	for (size_t i = 0; i < b->n; i++) {
		struct cob_entry *e = &b->e[i];
		uint64_t idlen;

		if (size - pos < 24)
			return fail(err,
			            "offload bundle: entry %zu's header at offset 0x%zx runs past "
			            "the end (%zu bytes)",
			            i, pos, size);
		e->offset = le64(d + pos);
		e->size = le64(d + pos + 8);
		idlen = le64(d + pos + 16);
		pos += 24;
		if (idlen == 0 || idlen > COB_MAX_ID || idlen > size - pos)
			return fail(err,
			            "offload bundle: entry %zu's id length %llu at offset 0x%zx "
			            "is 0, over %u or past the end",
			            i, (unsigned long long)idlen, pos - 8, COB_MAX_ID);
		/* Not strndup: the id may end the input, with no byte after it to read. */
		if (memchr(d + pos, 0, (size_t)idlen))
			return fail(err,
			            "offload bundle: entry %zu's id at offset 0x%zx has a NUL byte",
			            i, pos);
		if (!(e->id = malloc((size_t)idlen + 1)))
			return fail(err, "offload bundle: out of memory");
		memcpy(e->id, d + pos, (size_t)idlen);
		e->id[idlen] = '\0';
		pos += (size_t)idlen;
		switch (split_id(e)) {
		case -1:
			return fail(err,
			            "offload bundle: entry %zu's id '%.64s' is not "
			            "<kind>-<triple>[-<target>]",
			            i, e->id);
		case -2:
			return fail(err, "offload bundle: out of memory");
		}
	}
	for (size_t i = 0; i < b->n; i++) {
		struct cob_entry *e = &b->e[i];
		if (e->offset > size || e->size > size - e->offset || (e->size && e->offset < pos))
			return fail(err,
			            "offload bundle: entry %zu ('%.64s') at offset 0x%llx, %llu "
			            "bytes, lies outside the bundle's %zu bytes of payload",
			            i, e->id, (unsigned long long)e->offset,
			            (unsigned long long)e->size, size);
		for (size_t j = 0; j < i; j++) {
			const struct cob_entry *o = &b->e[j];
			if (e->size && o->size && e->offset < o->offset + o->size &&
			    o->offset < e->offset + e->size)
				return fail(err, "offload bundle: entries %zu and %zu overlap", j,
				            i);
		}
		e->data = d + e->offset;
		if (e->offset + e->size > extent)
			extent = (size_t)(e->offset + e->size);
	}
	b->bytes = d;
	b->size = size;
	b->extent = extent > pos ? extent : pos;
	return 0;
}

/* zlib or zstd from in into exactly want bytes at out; *used: input bytes consumed. */
static int inflate_to(enum cob_method m, const uint8_t *in, size_t in_size, uint8_t *out,
                      size_t want, size_t *used, char **err)
{
	if (m == COB_ZSTD) {
		const char *why = NULL;
		const struct cob_zstd *zstd = cob_zstd(&why);
		size_t frame, got;
		if (!zstd)
			return fail(err, "compressed offload bundle: %s", why);
		frame = zstd->find_frame_compressed_size(in, in_size);
		if (zstd->is_error(frame))
			return fail(err, "compressed offload bundle: no whole zstd frame: %s",
			            zstd->get_error_name(frame));
		got = zstd->decompress(out, want, in, frame);
		if (zstd->is_error(got))
			return fail(err,
			            "compressed offload bundle: zstd: %s (it claims %zu bytes)",
			            zstd->get_error_name(got), want);
		if (got != want)
			return fail(err,
			            "compressed offload bundle: %zu bytes decompressed, the header "
			            "says %zu",
			            got, want);
		*used = frame;
		return 0;
	}
	z_stream z;
	int rc;
	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return fail(err, "compressed offload bundle: zlib: cannot start");
	z.next_in = (Bytef *)in;
	z.avail_in = in_size > UINT32_MAX ? UINT32_MAX : (uInt)in_size;
	z.next_out = out;
	z.avail_out = (uInt)want;
	rc = inflate(&z, Z_FINISH);
	*used = z.total_in;
	if (rc != Z_STREAM_END) {
		size_t got = z.total_out;
		inflateEnd(&z);
		if ((rc == Z_OK || rc == Z_BUF_ERROR) && got == want)
			return fail(err,
			            "compressed offload bundle: the zlib stream gives more than "
			            "the %zu bytes the header says",
			            want);
		return fail(err, "compressed offload bundle: zlib: %s after %zu bytes",
		            rc == Z_BUF_ERROR ? "the stream ends early" : "corrupt data", got);
	}
	if (z.total_out != want) {
		size_t got = z.total_out;
		inflateEnd(&z);
		return fail(err,
		            "compressed offload bundle: %zu bytes decompressed, the header "
		            "says %zu",
		            got, want);
	}
	inflateEnd(&z);
	return 0;
}

/*
 * "CCOB", u16 version, u16 method, then v1: u32 uncompressed size, u64 hash; v2: u32 total
 * size, u32 uncompressed size, u64 hash; v3: u64 total size, u64 uncompressed size, u64
 * hash.  The hash is the first 8 bytes of MD5 of the uncompressed bundle.
 */
static int read_ccob(const uint8_t *d, size_t size, struct cob_bundle *b, char **err)
{
	uint64_t total = 0, raw;
	size_t header, used = 0;
	uint16_t version, method;
	uint8_t want_hash[8], digest[16];

	if (size < 8)
		return fail(err, "compressed offload bundle: %zu bytes, too short for its header",
		            size);
	version = le16(d + 4);
	method = le16(d + 6);
	switch (version) {
	case 1:
		header = 20;
		break;
	case 2:
		header = 24;
		break;
	case 3:
		header = 32;
		break;
	default:
		return fail(err,
		            "compressed offload bundle: version %u at offset 0x4 (1, 2 and 3 "
		            "are known)",
		            version);
	}
	if (method != COB_ZLIB && method != COB_ZSTD)
		return fail(err,
		            "compressed offload bundle: method %u at offset 0x6 (0 zlib and 1 "
		            "zstd are known)",
		            method);
	if (size < header)
		return fail(err,
		            "compressed offload bundle: %zu bytes, too short for a version %u "
		            "header",
		            size, version);
	if (version == 1) {
		raw = le32(d + 8);
		memcpy(want_hash, d + 12, 8);
	} else if (version == 2) {
		total = le32(d + 8);
		raw = le32(d + 12);
		memcpy(want_hash, d + 16, 8);
	} else {
		total = le64(d + 8);
		raw = le64(d + 16);
		memcpy(want_hash, d + 24, 8);
	}
	if (version > 1 && (total < header || total > size))
		return fail(err,
		            "compressed offload bundle: total size %llu at offset 0x8 is "
		            "smaller than its header or past the input's %zu bytes",
		            (unsigned long long)total, size);
	{
		size_t in_size = version > 1 ? (size_t)total - header : size - header;
		if (raw == 0 || raw > COB_MAX_UNCOMPRESSED ||
		    raw / COB_MAX_RATIO > (uint64_t)in_size)
			return fail(err,
			            "compressed offload bundle: it claims %llu uncompressed bytes "
			            "from %zu (at most %llu, and %u times the compressed size)",
			            (unsigned long long)raw, in_size,
			            (unsigned long long)COB_MAX_UNCOMPRESSED, COB_MAX_RATIO);
		b->owned = malloc((size_t)raw);
		if (!b->owned)
			return fail(err, "compressed offload bundle: out of memory for %llu bytes",
			            (unsigned long long)raw);
		if (inflate_to((enum cob_method)method, d + header, in_size, b->owned, (size_t)raw,
		               &used, err) < 0)
			return -1;
	}
	md5(b->owned, (size_t)raw, digest);
	if (memcmp(digest, want_hash, 8))
		return fail(err,
		            "compressed offload bundle: the hash at offset 0x%zx does not "
		            "match the decompressed bytes (a corrupt or altered bundle)",
		            header - 8);
	if (raw < COB_MAGIC_LEN || memcmp(b->owned, COB_MAGIC, COB_MAGIC_LEN))
		return fail(err, "compressed offload bundle: the decompressed bytes are not an "
		                 "offload bundle");
	b->ccob = version;
	b->method = (enum cob_method)method;
	if (read_plain(b->owned, (size_t)raw, b, err) < 0)
		return -1;
	b->extent = version > 1 ? (size_t)total : header + used;
	return 0;
}

int cob_bundle_read(const void *data, size_t size, struct cob_bundle *b, char **err)
{
	int rc;

	memset(b, 0, sizeof(*b));
	if (err)
		*err = NULL;
	if (!data)
		return fail(err, "offload bundle: no bytes (a null pointer)");
	if (size >= COB_MAGIC_LEN && !memcmp(data, COB_MAGIC, COB_MAGIC_LEN))
		rc = read_plain(data, size, b, err);
	else if (size >= 4 && !memcmp(data, COB_CCOB_MAGIC, 4))
		rc = read_ccob(data, size, b, err);
	else
		rc = fail(err, "not an offload bundle: neither %s nor CCOB at offset 0", COB_MAGIC);
	if (rc < 0)
		cob_bundle_free(b);
	return rc;
}

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

int cob_bundle_layout(const struct cob_out_entry *e, size_t n, size_t first_min,
                      struct cob_layout *l, char **err)
{
	size_t payload;

	*l = (struct cob_layout){.header = COB_MAGIC_LEN + 8};
	if (n == 0 || n > COB_MAX_ENTRIES)
		return fail(err, "offload bundle: %zu entries (1 to %u allowed)", n,
		            COB_MAX_ENTRIES);
	for (size_t i = 0; i < n; i++) {
		size_t len = e[i].id ? strlen(e[i].id) : COB_MAX_ID;
		if (len == 0 || len > COB_MAX_ID)
			return fail(err, "offload bundle: entry %zu's id is empty or over %u bytes",
			            i, COB_MAX_ID);
		l->header += 24 + len;
	}
	if (first_min > SIZE_MAX / 4)
		return fail(err, "offload bundle: too large");
	l->first = align_up(l->header > first_min ? l->header : first_min, COB_ENTRY_ALIGN);
	payload = l->first;
	for (size_t i = 0; i < n; i++) {
		if (e[i].size > SIZE_MAX / 2 - payload)
			return fail(err, "offload bundle: too large");
		l->last = payload;
		payload = align_up(payload + e[i].size, COB_ENTRY_ALIGN);
	}
	/* The bundle ends with its last payload, as clang-offload-bundler writes it. */
	l->size = l->last + e[n - 1].size;
	l->total = payload;
	return 0;
}

void cob_bundle_fill(const struct cob_out_entry *e, size_t n, const struct cob_layout *l,
                     uint8_t *buf)
{
	size_t pos = COB_MAGIC_LEN + 8, payload = l->first;

	/* Every byte is written once: the records, the payloads and the zeros between. */
	memcpy(buf, COB_MAGIC, COB_MAGIC_LEN);
	put64(buf + COB_MAGIC_LEN, n);
	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(e[i].id), end;
		put64(buf + pos, payload);
		put64(buf + pos + 8, e[i].size);
		put64(buf + pos + 16, len);
		memcpy(buf + pos + 24, e[i].id, len);
		pos += 24 + len;
		if (e[i].size && e[i].data != buf + payload)
			memcpy(buf + payload, e[i].data, e[i].size);
		end = payload + e[i].size;
		payload = align_up(end, COB_ENTRY_ALIGN);
		memset(buf + end, 0, payload - end);
	}
	memset(buf + pos, 0, l->first - pos);
}

int cob_bundle_write(const struct cob_out_entry *e, size_t n, uint8_t **out, size_t *size,
                     char **err)
{
	struct cob_layout l;
	uint8_t *buf;

	*out = NULL;
	*size = 0;
	if (cob_bundle_layout(e, n, 0, &l, err) < 0)
		return -1;
	buf = malloc(l.total);
	if (!buf)
		return fail(err, "offload bundle: out of memory for %zu bytes", l.total);
	prefault_write(buf, l.total);
	cob_bundle_fill(e, n, &l, buf);
	*out = buf;
	*size = l.size;
	return 0;
}

/* The value of feature ("xnack") in a target id: '+', '-', or 0 when absent. */
static char feature(const char *target, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = strchr(target, ':'); p; p = strchr(p + 1, ':'))
		if (!strncmp(p + 1, name, n) && (p[1 + n] == '+' || p[1 + n] == '-'))
			return p[1 + n];
	return 0;
}

bool cob_target_compatible(const char *entry_target, const char *device)
{
	static const char *const features[] = {"xnack", "sramecc"};
	size_t pe = strcspn(entry_target, ":"), pd = strcspn(device, ":");

	if (pe == 0 || pe != pd || strncmp(entry_target, device, pe))
		return false;
	for (size_t i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		char fe = feature(entry_target, features[i]);
		if (fe && fe != feature(device, features[i]))
			return false;
	}
	return true;
}

bool cob_entry_is_amdgcn(const struct cob_entry *e)
{
	return (!strcmp(e->kind, "hipv4") || !strcmp(e->kind, "hip")) &&
	       !strncmp(e->triple, "amdgcn-", 7) && e->size > 0;
}

long cob_bundle_select(const struct cob_bundle *b, const char *device)
{
	for (size_t i = 0; i < b->n; i++)
		if (cob_entry_is_amdgcn(&b->e[i]) && cob_target_compatible(b->e[i].target, device))
			return (long)i;
	return -1;
}

int cob_fatbin_next(const uint8_t *sec, size_t size, size_t *off, struct cob_bundle *b, char **err)
{
	size_t at = *off;

	if (err)
		*err = NULL;
	while (at < size && sec[at] == 0)
		at++;
	if (at >= size) {
		*off = size;
		return 0;
	}
	if (!cob_is_bundle(sec + at, size - at))
		return fail(err,
		            ".hip_fatbin: the bytes at offset 0x%zx are neither an offload "
		            "bundle nor padding",
		            at);
	if (cob_bundle_read(sec + at, size - at, b, err) < 0) {
		char *inner = err ? *err : NULL;
		if (err)
			*err = str_fmt("at offset 0x%zx: %s", at, inner ? inner : "bad bundle");
		free(inner);
		return -1;
	}
	*off = at + b->extent;
	return 1;
}
