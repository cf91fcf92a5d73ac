/*
 * Routes: how one rewrite call gets from the input to the output.  The same-family route runs
 * the pass table over the object and the patch writer over its plan; the translation route
 * (route_translate.c) asks the translator for a new object and plans over that one.  rewrite.c
 * picks the route from the ISA pair, before any pass runs, so no pass ever sees a translation.
 * See docs/rewriter.md.
 */
#ifndef HS_ROUTE_H
#define HS_ROUTE_H

#include "writer.h"

/* hs_rewrite_opts.progress and its context (NULL: nobody asked). */
struct hs_progress {
	void (*fn)(void *ctx, size_t done, size_t total);
	void *ctx;
};

struct hs_route_ctx {
	uint64_t flags;              /* HS_REWRITE_* */
	const struct hs_object *src; /* the input, loaded */
	const struct hs_isa *dst;    /* the target */
	struct hs_progress progress;
};

/* True when src -> dst is a translation (gfx1250 -> a cross-family target: gfx942, gfx950). */
HS_INTERNAL bool hs_route_translates(const struct hs_isa *src, const struct hs_isa *dst);
/*
 * Translates c->src for c->dst into *w, filling r's translation counts.  Refused kernels are
 * trap entries of a partial object (r->reason HS_REASON_PARTIAL, the message naming each and
 * why), or under HS_REWRITE_ALL_KERNELS (or when none translated) HS_ERROR with reason
 * HS_REASON_TRANSLATION_REFUSED; when result is set, every kernel's verdict is in *result,
 * on success too.
 */
HS_INTERNAL enum hs_status hs_route_translate(const struct hs_route_ctx *c, struct hs_written *w,
                                              struct hs_rewrite_report *r,
                                              struct hs_rewrite_result **result);

#endif
