/*
 * The routes: which source processor's code mirage can make run on which target, and how.
 * One rule over the gfx table's columns, read by the rewriter (which route a rewrite takes), the
 * intercept (which loads it translates), discovery (which detected GPU can be the target) and
 * every message that lists what exists.  A pair without a route is refused, never loaded as is.
 */
#ifndef MIRAGE_GFX_ROUTE_H
#define MIRAGE_GFX_ROUTE_H

#include <stddef.h>

#include "gfx_table.h"

enum gfx_route {
	GFX_ROUTE_NONE = 0,  /* no route: the pair is refused */
	GFX_ROUTE_SAME_ISA,  /* gfx12.5 onto itself: entry trampolines, stubs, stepping patches */
	GFX_ROUTE_TRANSLATE, /* a translation source onto a GFX_RETARGET_CROSS target */
};

/* The route from src's code to dst; NONE for a NULL or generic side. */
enum gfx_route gfx_route(const struct gfx_info *src, const struct gfx_info *dst);
/* The same by processor name. */
enum gfx_route gfx_route_by_name(const char *src, const char *dst);
/*
 * Writes the pairs that have a route into buf as "gfx1250 -> gfx942, ..." (with source NULL:
 * every pair; else the targets of source only, as "gfx942, gfx950, gfx1250"), "none" when there
 * is none.  Returns buf; the text is cut short, never overrun, when buf is too small.
 */
char *gfx_routes_text(const char *source, char *buf, size_t size);

#endif
