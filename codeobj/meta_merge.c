/* The comgr rule for several AMDGPU metadata records in one object (meta_merge.h). */
#include "meta_merge.h"

#include <string.h>

const msgpack_object *codeobj_map_get(const msgpack_object *map, const char *key)
{
	size_t n = strlen(key);

	if (!map || map->type != MSGPACK_OBJECT_MAP)
		return NULL;
	for (uint32_t i = 0; i < map->via.map.size; i++) {
		const msgpack_object *k = &map->via.map.ptr[i].key;
		if (k->type == MSGPACK_OBJECT_STR && k->via.str.size == n &&
		    !memcmp(k->via.str.ptr, key, n))
			return &map->via.map.ptr[i].val;
	}
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
