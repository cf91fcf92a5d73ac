/* The routes (gfx_route.h), derived from the gfx table's retarget and translation-source columns.
 */
#include "gfx_route.h"

#include <stdio.h>
#include <string.h>

enum gfx_route gfx_route(const struct gfx_info *src, const struct gfx_info *dst)
{
	if (!src || !dst || src->is_generic || dst->is_generic)
		return GFX_ROUTE_NONE;
	if (src == dst && src->retarget == GFX_RETARGET_SAME_ISA)
		return GFX_ROUTE_SAME_ISA;
	if (src->translation_source && dst->retarget == GFX_RETARGET_CROSS)
		return GFX_ROUTE_TRANSLATE;
	return GFX_ROUTE_NONE;
}

enum gfx_route gfx_route_by_name(const char *src, const char *dst)
{
	return gfx_route(gfx_by_name(src ? src : ""), gfx_by_name(dst ? dst : ""));
}

char *gfx_routes_text(const char *source, char *buf, size_t size)
{
	size_t n, len = 0;
	const struct gfx_info *t = gfx_table(&n);
	const struct gfx_info *only = source ? gfx_by_name(source) : NULL;

	if (!size)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			if ((source && &t[i] != only) || !gfx_route(&t[i], &t[j]))
				continue;
			int w = source ? snprintf(buf + len, size - len, "%s%s", len ? ", " : "",
			                          t[j].name)
			               : snprintf(buf + len, size - len, "%s%s -> %s",
			                          len ? ", " : "", t[i].name, t[j].name);
			if (w < 0 || (size_t)w >= size - len)
				return buf;
			len += (size_t)w;
		}
	if (!len)
		snprintf(buf, size, "none");
	return buf;
}
