/* The comgr rule for several AMDGPU metadata records in one object (meta_merge.h). */
#include "meta_merge.h"

#include <stdlib.h>
#include <string.h>

#include "msgpack_check.h"

bool codeobj_str_is(const msgpack_object *o, const char *s)
{
	size_t n = strlen(s);

	return o->type == MSGPACK_OBJECT_STR && o->via.str.size == n &&
	       !memcmp(o->via.str.ptr, s, n);
}

const msgpack_object *codeobj_map_get(const msgpack_object *map, const char *key)
{
	if (!map || map->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->via.map.size; i++)
		if (codeobj_str_is(&map->via.map.ptr[i].key, key))
			return &map->via.map.ptr[i].val;
	return NULL;
}

static bool has_kernels(const msgpack_object *root)
{
	const msgpack_object *k = codeobj_map_get(root, "amdhsa.kernels");
	return k && k->type == MSGPACK_OBJECT_ARRAY;
}

bool codeobj_meta_mergeable(const msgpack_object *first, const msgpack_object *later)
{
	const msgpack_object *v0 = codeobj_map_get(first, "amdhsa.version");
	const msgpack_object *v = codeobj_map_get(later, "amdhsa.version");
	const msgpack_object *p0 = codeobj_map_get(first, "amdhsa.printf");
	const msgpack_object *p = codeobj_map_get(later, "amdhsa.printf");

	if (!v0 || !v || v0->type != MSGPACK_OBJECT_ARRAY || !msgpack_object_equal(*v0, *v))
		return false;
	if (p0 && p && !msgpack_object_equal(*p0, *p))
		return false;
	return has_kernels(first) && has_kernels(later);
}

static void record_free(struct cob_meta_record *r)
{
	msgpack_unpacked_destroy(&r->doc);
	free(r->blob);
}

/* Reads one record into *r (its blob copied: msgpack-c points into the bytes it unpacks). */
static enum cob_meta_verdict parse(struct cob_meta_record *r, const void *desc, size_t size)
{
	size_t off = 0;

	memset(r, 0, sizeof(*r));
	msgpack_unpacked_init(&r->doc);
	r->blob = malloc(size ? size : 1);
	if (!r->blob)
		return COB_META_NO_MEMORY;
	memcpy(r->blob, desc, size);
	r->blob_size = size;
	/* Checked first: msgpack-c sizes containers from their declared counts. */
	if (cob_msgpack_check(r->blob, size) < 0 ||
	    msgpack_unpack_next(&r->doc, (const char *)r->blob, size, &off) !=
	        MSGPACK_UNPACK_SUCCESS ||
	    off != size)
		return COB_META_NOT_DOCUMENT;
	if (r->doc.data.type != MSGPACK_OBJECT_MAP)
		return COB_META_NOT_MAP;
	r->kernels = codeobj_map_get(&r->doc.data, "amdhsa.kernels");
	if (r->kernels && r->kernels->type != MSGPACK_OBJECT_ARRAY)
		return COB_META_KERNELS_NOT_ARRAY;
	return COB_META_TAKEN;
}

enum cob_meta_verdict cob_meta_add(struct cob_meta *m, const void *desc, size_t size)
{
	struct cob_meta_record r, *grown = NULL;
	enum cob_meta_verdict v = parse(&r, desc, size);

	if (v == COB_META_TAKEN && m->n_rec &&
	    !codeobj_meta_mergeable(&m->rec[0].doc.data, &r.doc.data))
		v = COB_META_LEFT_OUT;
	if (v == COB_META_TAKEN && !(grown = realloc(m->rec, (m->n_rec + 1) * sizeof(*grown))))
		v = COB_META_NO_MEMORY;
	if (v != COB_META_TAKEN) {
		record_free(&r);
		if (m->n_rec && v != COB_META_NO_MEMORY)
			m->n_left_out++;
		return v;
	}
	m->rec = grown;
	r.first = m->n_kernels;
	m->n_kernels += r.kernels ? r.kernels->via.array.size : 0;
	m->rec[m->n_rec++] = r;
	return COB_META_TAKEN;
}

size_t cob_meta_record_of(const struct cob_meta *m, size_t k)
{
	size_t i = m->n_rec - 1;

	while (i > 0 && m->rec[i].first > k)
		i--;
	return i;
}

const msgpack_object *cob_meta_kernel(const struct cob_meta *m, size_t k)
{
	const struct cob_meta_record *r;

	if (k >= m->n_kernels)
		return NULL;
	r = &m->rec[cob_meta_record_of(m, k)];
	return &r->kernels->via.array.ptr[k - r->first];
}

void cob_meta_free(struct cob_meta *m)
{
	for (size_t i = 0; i < m->n_rec; i++)
		record_free(&m->rec[i]);
	free(m->rec);
	*m = (struct cob_meta)COB_META_INIT;
}
