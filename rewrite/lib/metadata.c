/* The NT_AMDGPU_METADATA note: msgpack read, per-kernel counts, re-encoding after updates. */
#include "hs_internal.h"

#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

struct hs_meta {
	uint8_t *blob; /* owned copy of the msgpack description */
	size_t blob_size;
	msgpack_unpacked unpacked;
	const msgpack_object *kernels; /* the amdhsa.kernels array, or NULL */
	struct hs_hidx by_symbol;      /* kernels by .symbol; the first of equal symbols only */
	size_t sec;                    /* section holding the note */
	uint64_t align;                /* how that section pads records (hs_note_align) */
	uint64_t rec_off, rec_size;    /* file range of the whole note record */
};

static bool key_is(const msgpack_object *k, const char *s)
{
	size_t n = strlen(s);
	return k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
	       !memcmp(k->via.str.ptr, s, n);
}

static msgpack_object *map_get(const msgpack_object *map, const char *key)
{
	if (!map || map->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->via.map.size; i++)
		if (key_is(&map->via.map.ptr[i].key, key))
			return &map->via.map.ptr[i].val;
	return NULL;
}

/*
 * Walks the note records of section sec and returns the first
 * owner "AMDGPU" type 32 record.  Malformed records are a bad object.
 */
static enum hs_status find_in_notes(const struct hs_elf *e, size_t sec, uint64_t *rec_off,
                                    uint64_t *rec_size, uint64_t *desc_off, uint32_t *desc_size)
{
	const GElf_Shdr *sh = &e->sec[sec].sh;
	struct hs_note_iter it;
	struct hs_note n;
	enum hs_note_step step;

	hs_note_iter_init(&it, e, sec);
	while ((step = hs_note_next(&it, &n)) == HS_NOTE_RECORD) {
		if (hs_note_is_amdgpu(&n, HS_NT_AMDGPU_METADATA)) {
			*rec_off = sh->sh_offset + n.off;
			*rec_size = n.size;
			*desc_off = (uint64_t)(n.desc - e->buf);
			*desc_size = n.descsz;
			return HS_OK;
		}
	}
	if (step == HS_NOTE_TRUNCATED)
		return hs_fail(HS_INVALID_ARGUMENT,
		               "note section [%zu] '%s' has a "
		               "truncated record at offset %llu",
		               sec, e->sec[sec].name, (unsigned long long)n.off);
	if (step == HS_NOTE_OVERRUN)
		return hs_fail(HS_INVALID_ARGUMENT,
		               "note section [%zu] '%s' has a record "
		               "at offset %llu running past its end",
		               sec, e->sec[sec].name, (unsigned long long)n.off);
	*rec_size = 0;
	return HS_OK;
}

/* A .symbol to look up in two parts (a kernel name and ".kd"), so no copy joins them. */
struct symbol_key {
	const msgpack_object *kernels;
	const char *sym, *suffix;
	size_t len, suffix_len;
};

static bool symbol_eq(const void *ctx, size_t k)
{
	const struct symbol_key *key = ctx;
	const msgpack_object *o = map_get(&key->kernels->via.array.ptr[k], ".symbol");

	return o->via.str.size == key->len + key->suffix_len &&
	       !memcmp(o->via.str.ptr, key->sym, key->len) &&
	       !memcmp(o->via.str.ptr + key->len, key->suffix, key->suffix_len);
}

/* The first kernel whose .symbol is sym[0..len) followed by suffix, or HS_HIDX_NONE. */
static size_t find_symbol(const struct hs_meta *m, const char *sym, size_t len, const char *suffix)
{
	struct symbol_key key = {m->kernels, sym, suffix, len, strlen(suffix)};

	return hs_hidx_find(&m->by_symbol, hs_hash_concat(sym, len, suffix, key.suffix_len),
	                    symbol_eq, &key);
}

enum hs_status hs_meta_read(const struct hs_elf *e, struct hs_meta **out)
{
	struct hs_meta *m = NULL;
	enum hs_status st = HS_OK;
	uint64_t rec_off = 0, rec_size = 0, desc_off = 0;
	uint32_t desc_size = 0;
	size_t off = 0, sec = 0;
	msgpack_object *root;

	*out = NULL;
	for (size_t i = 1; i < e->shnum && !rec_size; i++) {
		if (e->sec[i].sh.sh_type != SHT_NOTE || !(e->sec[i].sh.sh_flags & SHF_ALLOC))
			continue;
		st = find_in_notes(e, i, &rec_off, &rec_size, &desc_off, &desc_size);
		if (st)
			return st;
		sec = i;
	}
	if (!rec_size)
		return HS_OK; /* no metadata note: the caller decides whether that is fatal */
	m = calloc(1, sizeof(*m));
	if (!m)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	msgpack_unpacked_init(&m->unpacked);
	m->blob = malloc(desc_size ? desc_size : 1);
	if (!m->blob) {
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		goto fail;
	}
	memcpy(m->blob, e->buf + desc_off, desc_size);
	m->blob_size = desc_size;
	m->sec = sec;
	m->align = hs_note_align(&e->sec[sec].sh);
	m->rec_off = rec_off;
	m->rec_size = rec_size;
	if (hs_msgpack_check(m->blob, m->blob_size) < 0 ||
	    msgpack_unpack_next(&m->unpacked, (const char *)m->blob, m->blob_size, &off) !=
	        MSGPACK_UNPACK_SUCCESS ||
	    off != m->blob_size) {
		st = hs_fail(HS_INVALID_ARGUMENT,
		             "AMDGPU metadata note in section [%zu] '%s' is "
		             "not one valid msgpack document",
		             sec, e->sec[sec].name);
		goto fail;
	}
	root = &m->unpacked.data;
	if (root->type != MSGPACK_OBJECT_MAP) {
		st = hs_fail(HS_INVALID_ARGUMENT, "AMDGPU metadata is not a msgpack map");
		goto fail;
	}
	m->kernels = map_get(root, "amdhsa.kernels");
	if (m->kernels && m->kernels->type != MSGPACK_OBJECT_ARRAY) {
		st = hs_fail(HS_INVALID_ARGUMENT, "AMDGPU metadata 'amdhsa.kernels' is not an "
		                                  "array");
		goto fail;
	}
	for (size_t k = 0; m->kernels && k < m->kernels->via.array.size; k++) {
		const msgpack_object *km = &m->kernels->via.array.ptr[k];
		const msgpack_object *sym = map_get(km, ".symbol");
		if (!sym || sym->type != MSGPACK_OBJECT_STR) {
			st = hs_fail(HS_INVALID_ARGUMENT,
			             "AMDGPU metadata kernel %zu has no "
			             "'.symbol' string",
			             k);
			goto fail;
		}
		/* Joining descriptors by .symbol then costs one lookup per kernel, not a scan. */
		if (find_symbol(m, sym->via.str.ptr, sym->via.str.size, "") == HS_HIDX_NONE) {
			st = hs_hidx_insert(&m->by_symbol,
			                    hs_hash_bytes(sym->via.str.ptr, sym->via.str.size), k);
			if (st)
				goto fail;
		}
	}
	*out = m;
	return HS_OK;
fail:
	hs_meta_free(m);
	return st;
}

void hs_meta_free(struct hs_meta *m)
{
	if (!m)
		return;
	hs_hidx_free(&m->by_symbol);
	msgpack_unpacked_destroy(&m->unpacked);
	free(m->blob);
	free(m);
}

size_t hs_meta_kernel_count(const struct hs_meta *m)
{
	return m && m->kernels ? m->kernels->via.array.size : 0;
}

static const msgpack_object *kernel_map(const struct hs_meta *m, int k)
{
	if (k < 0 || (size_t)k >= hs_meta_kernel_count(m))
		return NULL;
	return &m->kernels->via.array.ptr[k];
}

void hs_meta_join_kernels(const struct hs_meta *m, struct hs_kernels *ks)
{
	for (size_t i = 0; i < ks->n; i++) {
		const char *name = ks->k[i].name;
		size_t k =
		    m && m->kernels ? find_symbol(m, name, strlen(name), ".kd") : HS_HIDX_NONE;
		ks->k[i].meta = k == HS_HIDX_NONE ? -1 : (int)k;
	}
}

const char *hs_meta_kernel_name(const struct hs_meta *m, int k, char *buf, size_t size)
{
	const msgpack_object *o = map_get(kernel_map(m, k), ".name");

	if (!o || o->type != MSGPACK_OBJECT_STR || !size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)o->via.str.size, o->via.str.ptr);
	return buf;
}

bool hs_meta_get_uint(const struct hs_meta *m, int k, const char *key, uint64_t *v)
{
	const msgpack_object *o = map_get(kernel_map(m, k), key);

	if (!o || o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return false;
	*v = o->via.u64;
	return true;
}

void hs_meta_location(const struct hs_meta *m, uint64_t *rec_off, uint64_t *rec_size, size_t *sec)
{
	*rec_off = m->rec_off;
	*rec_size = m->rec_size;
	if (sec)
		*sec = m->sec;
}

/* The new value of key in metadata kernel k, if an update sets it. */
static const struct hs_meta_update *update_for(const struct hs_meta_update *u, size_t n, int k,
                                               const msgpack_object *key)
{
	for (size_t i = 0; i < n; i++)
		if (u[i].kernel == k && key_is(key, u[i].key))
			return &u[i];
	return NULL;
}

/* Packs one kernel map with its updated keys (msgpack-c writes each integer smallest). */
static int pack_kernel(msgpack_packer *pk, const msgpack_object *km, int k,
                       const struct hs_meta_update *u, size_t n)
{
	if (km->type != MSGPACK_OBJECT_MAP)
		return msgpack_pack_object(pk, *km);
	if (msgpack_pack_map(pk, km->via.map.size))
		return -1;
	for (uint32_t i = 0; i < km->via.map.size; i++) {
		const msgpack_object_kv *kv = &km->via.map.ptr[i];
		const struct hs_meta_update *up = update_for(u, n, k, &kv->key);
		if (msgpack_pack_object(pk, kv->key) ||
		    (up && kv->val.type == MSGPACK_OBJECT_POSITIVE_INTEGER
		         ? msgpack_pack_uint64(pk, up->value)
		         : msgpack_pack_object(pk, kv->val)))
			return -1;
	}
	return 0;
}

/* Packs the document with the updates applied to its amdhsa.kernels entries. */
static int pack_document(msgpack_packer *pk, const struct hs_meta *m,
                         const struct hs_meta_update *u, size_t n)
{
	const msgpack_object *root = &m->unpacked.data;

	if (msgpack_pack_map(pk, root->via.map.size))
		return -1;
	for (uint32_t i = 0; i < root->via.map.size; i++) {
		const msgpack_object_kv *kv = &root->via.map.ptr[i];
		if (msgpack_pack_object(pk, kv->key))
			return -1;
		if (&kv->val != m->kernels) {
			if (msgpack_pack_object(pk, kv->val))
				return -1;
			continue;
		}
		if (msgpack_pack_array(pk, m->kernels->via.array.size))
			return -1;
		for (uint32_t k = 0; k < m->kernels->via.array.size; k++)
			if (pack_kernel(pk, &m->kernels->via.array.ptr[k], (int)k, u, n))
				return -1;
	}
	return 0;
}

enum hs_status hs_meta_encode_record(const struct hs_meta *m, const struct hs_meta_update *u,
                                     size_t n, uint8_t **rec, size_t *rec_size)
{
	msgpack_sbuffer sb;
	msgpack_packer pk;
	enum hs_status st = HS_OK;
	size_t total, desc;
	uint8_t *r = NULL;

	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	/* msgpack-c writes every integer in its smallest form, as LLVM's writer does. */
	if (pack_document(&pk, m, u, n) || sb.size > UINT32_MAX) {
		st = hs_fail(HS_ERROR, "cannot re-encode the AMDGPU metadata");
		goto cleanup;
	}
	/* Padded as the section's reader pads it, or an 8-aligned note would misread. */
	total = (size_t)hs_note_record_size((uint32_t)sb.size, m->align);
	r = calloc(1, total);
	if (!r) {
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		goto cleanup;
	}
	desc = hs_note_put_header(r, HS_NT_AMDGPU_METADATA, (uint32_t)sb.size, m->align);
	memcpy(r + desc, sb.data, sb.size);
	*rec = r;
	*rec_size = total;
cleanup:
	msgpack_sbuffer_destroy(&sb);
	return st;
}

static cJSON *to_json(const msgpack_object *o)
{
	cJSON *j = NULL;

	switch (o->type) {
	case MSGPACK_OBJECT_NIL:
		return cJSON_CreateNull();
	case MSGPACK_OBJECT_BOOLEAN:
		return cJSON_CreateBool(o->via.boolean);
	case MSGPACK_OBJECT_POSITIVE_INTEGER:
		return cJSON_CreateNumber((double)o->via.u64);
	case MSGPACK_OBJECT_NEGATIVE_INTEGER:
		return cJSON_CreateNumber((double)o->via.i64);
	case MSGPACK_OBJECT_FLOAT32:
	case MSGPACK_OBJECT_FLOAT64:
		return cJSON_CreateNumber(o->via.f64);
	case MSGPACK_OBJECT_STR: {
		/* msgpack strings are not NUL-terminated: copy exactly size bytes. */
		char *s = malloc((size_t)o->via.str.size + 1);
		if (!s)
			return NULL;
		memcpy(s, o->via.str.ptr, o->via.str.size);
		s[o->via.str.size] = '\0';
		j = cJSON_CreateString(s);
		free(s);
		return j;
	}
	case MSGPACK_OBJECT_ARRAY:
		j = cJSON_CreateArray();
		for (uint32_t i = 0; j && i < o->via.array.size; i++) {
			cJSON *c = to_json(&o->via.array.ptr[i]);
			if (!c) {
				cJSON_Delete(j);
				return NULL;
			}
			cJSON_AddItemToArray(j, c);
		}
		return j;
	case MSGPACK_OBJECT_MAP:
		j = cJSON_CreateObject();
		for (uint32_t i = 0; j && i < o->via.map.size; i++) {
			const msgpack_object *k = &o->via.map.ptr[i].key;
			cJSON *c = to_json(&o->via.map.ptr[i].val);
			char key[256];
			if (!c) {
				cJSON_Delete(j);
				return NULL;
			}
			if (k->type == MSGPACK_OBJECT_STR)
				snprintf(key, sizeof(key), "%.*s", (int)k->via.str.size,
				         k->via.str.ptr);
			else
				snprintf(key, sizeof(key), "#%u", i);
			cJSON_AddItemToObject(j, key, c);
		}
		return j;
	default:
		return cJSON_CreateString("<binary>");
	}
}

cJSON *hs_meta_to_json(const struct hs_meta *m)
{
	return m ? to_json(&m->unpacked.data) : NULL;
}
