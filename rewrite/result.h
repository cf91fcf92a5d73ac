/* Per-kernel results of one rewrite call, built from the object and the finalized plan. */
#ifndef HS_RESULT_H
#define HS_RESULT_H

#include "plan.h"

/* passes[k]: the HS_PASS_* bits of the rows that changed kernel k's entry or resources. */
HS_INTERNAL enum hs_status hs_result_build(const struct hs_object *o, const struct hs_plan *p,
                                           const uint32_t *passes, struct hs_rewrite_result **out);

/* An empty result of n kernels, for a route that fills it with hs_result_set. */
HS_INTERNAL enum hs_status hs_result_new(size_t n, struct hs_rewrite_result **out);
/* Kernel i becomes v (its strings copied; v->sz is not read). */
HS_INTERNAL enum hs_status hs_result_set(struct hs_rewrite_result *r, size_t i,
                                         const struct hs_kernel_result *v);

#endif
