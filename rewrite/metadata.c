/* The NT_AMDGPU_METADATA notes: read merged (codeobj), checked, re-encoded after updates. */
#include "hs_internal.h"
#include "meta_merge.h"
#include "meta_read.h"
#include "note.h"

#include <errno.h>
#include <msgpack.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

/*
 * The metadata as the HSA runtime's reader (comgr) sees it, read by codeobj (meta_read.h,
 * meta_merge.h): every record, the later ones' amdhsa.kernels appended to the first's when
 * their amdhsa.version matches (and amdhsa.printf, if both have one); a record that cannot
 * merge is left out, as comgr leaves it out.  Kernels are numbered across the merged records.
 */
struct hs_meta {
	struct cob_meta merged;
	struct cob_meta_where *where; /* one per record of merged, for the patch writer */
};

/* A later record left out unread is logged, as every failure of the rewriter is. */
static void log_unread(void *ctx, const char *why)
{
	(void)ctx;
	hs_fail(HS_INVALID_ARGUMENT, "%s", why);
}

/* Checks that each kernel of record i has a .symbol string, the name descriptors join by. */
static enum hs_status check_symbols(const struct hs_meta *m, size_t i)
{
	const struct cob_meta_record *n = &m->merged.rec[i];

	for (size_t k = 0; n->kernels && k < n->kernels->via.array.size; k++) {
		const msgpack_object *km = &n->kernels->via.array.ptr[k];
		const msgpack_object *sym = codeobj_map_get(km, ".symbol");
		if (!sym || sym->type != MSGPACK_OBJECT_STR)
			return hs_fail(HS_INVALID_ARGUMENT,
			               "AMDGPU metadata kernel %zu has no "
			               "'.symbol' string",
			               n->first + k);
	}
	return HS_OK;
}

enum hs_status hs_meta_read(const struct cob_elf *e, struct hs_meta **out)
{
	struct hs_meta *m = calloc(1, sizeof(*m));
	enum hs_status st = HS_OK;
	char why[512];
	int rc;

	*out = NULL;
	if (!m)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	m->merged = (struct cob_meta)COB_META_INIT;
	rc = cob_elf_meta_read(e, &m->merged, &m->where, log_unread, NULL, why, sizeof(why));
	if (rc) {
		free(m);
		return hs_fail(rc == -ENOMEM ? HS_OUT_OF_RESOURCES : HS_INVALID_ARGUMENT, "%s",
		               why);
	}
	for (size_t i = 0; i < m->merged.n_rec && !st; i++)
		st = check_symbols(m, i);
	if (st || !m->merged.n_rec) {
		hs_meta_free(m);
		return st; /* no metadata note: the caller decides whether that is fatal */
	}
	*out = m;
	return HS_OK;
}

void hs_meta_free(struct hs_meta *m)
{
	if (!m)
		return;
	cob_meta_free(&m->merged);
	free(m->where);
	free(m);
}

size_t hs_meta_kernel_count(const struct hs_meta *m)
{
	return m ? m->merged.n_kernels : 0;
}

size_t hs_meta_note_count(const struct hs_meta *m)
{
	return m ? m->merged.n_rec : 0;
}

size_t hs_meta_left_out(const struct hs_meta *m)
{
	return m ? m->merged.n_left_out : 0;
}

enum hs_status hs_meta_need_entry(const struct hs_meta *m, const char *kernel, int meta,
                                  const char *consequence)
{
	if (meta >= 0)
		return HS_OK;
	if (m && hs_meta_left_out(m))
		return hs_fail_why(
		    HS_ERROR, HS_REASON_SEVERAL_METADATA,
		    "kernel '%s' has no entry in the AMDGPU metadata, so %s: the object "
		    "carries %zu more metadata note(s) whose amdhsa.version (or "
		    "amdhsa.printf) differs from the first, which the HSA runtime's "
		    "reader (comgr) leaves out as well",
		    kernel, consequence, hs_meta_left_out(m));
	return hs_fail(HS_ERROR, "kernel '%s' has no entry in the AMDGPU metadata, so %s", kernel,
	               consequence);
}

static const msgpack_object *kernel_map(const struct hs_meta *m, int k)
{
	return m && k >= 0 ? cob_meta_kernel(&m->merged, (size_t)k) : NULL;
}

bool hs_meta_note_updated(const struct hs_meta *m, size_t i, const struct hs_meta_update *u,
                          size_t n)
{
	const struct cob_meta_record *nt = &m->merged.rec[i];
	size_t count = nt->kernels ? nt->kernels->via.array.size : 0;

	for (size_t j = 0; j < n; j++)
		if (u[j].kernel >= 0 && (size_t)u[j].kernel >= nt->first &&
		    (size_t)u[j].kernel < nt->first + count)
			return true;
	return false;
}

enum hs_status hs_meta_join_kernels(const struct hs_meta *m, struct cob_kernels *ks)
{
	if (cob_kernels_join(ks, m ? &m->merged : NULL))
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	return HS_OK;
}

const char *hs_meta_kernel_name(const struct hs_meta *m, int k, char *buf, size_t size)
{
	const msgpack_object *o = codeobj_map_get(kernel_map(m, k), ".name");

	if (!o || o->type != MSGPACK_OBJECT_STR || !size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)o->via.str.size, o->via.str.ptr);
	return buf;
}

bool hs_meta_get_uint(const struct hs_meta *m, int k, const char *key, uint64_t *v)
{
	const msgpack_object *o = codeobj_map_get(kernel_map(m, k), key);

	if (!o || o->type != MSGPACK_OBJECT_POSITIVE_INTEGER)
		return false;
	*v = o->via.u64;
	return true;
}

const void *hs_meta_get_value(const struct hs_meta *m, int k, const char *key)
{
	return codeobj_map_get(kernel_map(m, k), key);
}

enum hs_meta_str hs_meta_get_str(const struct hs_meta *m, int k, const char *key, const char **str,
                                 size_t *len)
{
	const msgpack_object *o = codeobj_map_get(kernel_map(m, k), key);

	if (!o)
		return HS_META_STR_MISSING;
	if (o->type != MSGPACK_OBJECT_STR)
		return HS_META_STR_NOT_STR;
	*str = o->via.str.ptr;
	*len = o->via.str.size;
	return HS_META_STR_OK;
}

void hs_meta_location(const struct hs_meta *m, size_t i, uint64_t *rec_off, uint64_t *rec_size,
                      size_t *sec)
{
	*rec_off = m->where[i].rec_off;
	*rec_size = m->where[i].rec_size;
	if (sec)
		*sec = m->where[i].sec;
}

static int cmp_update(const void *a, const void *b)
{
	const struct hs_meta_update *x = a, *y = b;
	/* Then by key, so added keys come out in one order whatever qsort does with ties. */
	if (x->kernel != y->kernel)
		return (x->kernel > y->kernel) - (x->kernel < y->kernel);
	return strcmp(x->key, y->key);
}

/* The first update of metadata kernel k (u sorted by kernel); n when it has none. */
static size_t first_update(const struct hs_meta_update *u, size_t n, int k)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (u[mid].kernel < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && u[lo].kernel == k ? lo : n;
}

/* The new value of key in metadata kernel k, if an update sets it (u sorted by kernel). */
static const struct hs_meta_update *update_for(const struct hs_meta_update *u, size_t n, int k,
                                               const msgpack_object *key)
{
	for (size_t i = first_update(u, n, k); i < n && u[i].kernel == k; i++)
		if (codeobj_str_is(key, u[i].key))
			return &u[i];
	return NULL;
}

/* The map's entry count once kernel k's carried keys are added and removed ones dropped. */
static uint32_t packed_size(const msgpack_object *km, int k, const struct hs_meta_update *u,
                            size_t n)
{
	uint32_t size = km->via.map.size;

	for (size_t i = first_update(u, n, k); i < n && u[i].kernel == k; i++) {
		bool present = codeobj_map_get(km, u[i].key) != NULL;
		if (u[i].carry && u[i].obj && !present)
			size++;
		else if (u[i].carry && !u[i].obj && present)
			size--;
	}
	return size;
}

/* Packs one kernel map with its updated keys (msgpack-c writes each integer smallest). */
static int pack_kernel(msgpack_packer *pk, const msgpack_object *km, int k,
                       const struct hs_meta_update *u, size_t n)
{
	if (km->type != MSGPACK_OBJECT_MAP)
		return msgpack_pack_object(pk, *km);
	if (msgpack_pack_map(pk, packed_size(km, k, u, n)))
		return -1;
	for (uint32_t i = 0; i < km->via.map.size; i++) {
		const msgpack_object_kv *kv = &km->via.map.ptr[i];
		const struct hs_meta_update *up = update_for(u, n, k, &kv->key);
		int rc;
		if (up && up->carry && !up->obj)
			continue; /* removed */
		rc = msgpack_pack_object(pk, kv->key);
		if (!rc && up && up->carry)
			rc = msgpack_pack_object(pk, *(const msgpack_object *)up->obj);
		else if (!rc && up && up->str && kv->val.type == MSGPACK_OBJECT_STR)
			rc = msgpack_pack_str_with_body(pk, up->str, strlen(up->str));
		else if (!rc && up && !up->str && kv->val.type == MSGPACK_OBJECT_POSITIVE_INTEGER)
			rc = msgpack_pack_uint64(pk, up->value);
		else if (!rc)
			rc = msgpack_pack_object(pk, kv->val);
		if (rc)
			return -1;
	}
	/* Carried keys the kernel lacked go last, by key. */
	for (size_t i = first_update(u, n, k); i < n && u[i].kernel == k; i++) {
		if (!u[i].carry || !u[i].obj || codeobj_map_get(km, u[i].key))
			continue;
		if (msgpack_pack_str_with_body(pk, u[i].key, strlen(u[i].key)) ||
		    msgpack_pack_object(pk, *(const msgpack_object *)u[i].obj))
			return -1;
	}
	return 0;
}

/* Packs the document with the updates applied to its amdhsa.kernels entries. */
static int pack_document(msgpack_packer *pk, const struct cob_meta_record *m,
                         const struct hs_meta_update *u, size_t n)
{
	const msgpack_object *root = &m->doc.data;

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
			if (pack_kernel(pk, &m->kernels->via.array.ptr[k], (int)(m->first + k), u,
			                n))
				return -1;
	}
	return 0;
}

enum hs_status hs_meta_encode_record(const struct hs_meta *meta, size_t i,
                                     const struct hs_meta_update *u, size_t n, uint8_t **rec,
                                     size_t *rec_size)
{
	const struct cob_meta_record *m = &meta->merged.rec[i];
	uint64_t align = meta->where[i].align;
	/* Sorted by kernel, so each key of each kernel costs a binary search, not a scan. */
	struct hs_meta_update *sorted = malloc((n ? n : 1) * sizeof(*sorted));
	msgpack_sbuffer sb;
	msgpack_packer pk;
	enum hs_status st = HS_OK;
	size_t total, desc;
	uint8_t *r = NULL;

	if (!sorted)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	memcpy(sorted, u, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_update);
	msgpack_sbuffer_init(&sb);
	msgpack_packer_init(&pk, &sb, msgpack_sbuffer_write);
	/* msgpack-c writes every integer in its smallest form, as LLVM's writer does. */
	if (pack_document(&pk, m, sorted, n) || sb.size > UINT32_MAX) {
		st = hs_fail(HS_ERROR, "cannot re-encode the AMDGPU metadata");
		goto cleanup;
	}
	/* Padded as the section's reader pads it, or an 8-aligned note would misread. */
	total = (size_t)hs_note_record_size((uint32_t)sb.size, align);
	r = calloc(1, total);
	if (!r) {
		st = hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		goto cleanup;
	}
	desc = hs_note_put_header(r, COB_NT_AMDGPU_METADATA, (uint32_t)sb.size, align);
	memcpy(r + desc, sb.data, sb.size);
	*rec = r;
	*rec_size = total;
cleanup:
	msgpack_sbuffer_destroy(&sb);
	free(sorted);
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
	cJSON *j, *kernels;

	if (!m)
		return NULL;
	j = to_json(&m->merged.rec[0].doc.data);
	kernels = j ? cJSON_GetObjectItemCaseSensitive(j, "amdhsa.kernels") : NULL;
	/* The merged view: later records' kernels after the first's, a missing printf filled. */
	for (size_t i = 1; kernels && i < m->merged.n_rec; i++) {
		const msgpack_object *ks = m->merged.rec[i].kernels;
		const msgpack_object *pf =
		    codeobj_map_get(&m->merged.rec[i].doc.data, "amdhsa.printf");
		for (uint32_t k = 0; k < ks->via.array.size; k++) {
			cJSON *c = to_json(&ks->via.array.ptr[k]);
			if (c)
				cJSON_AddItemToArray(kernels, c);
		}
		if (pf && !cJSON_GetObjectItemCaseSensitive(j, "amdhsa.printf"))
			cJSON_AddItemToObject(j, "amdhsa.printf", to_json(pf));
	}
	return j;
}
