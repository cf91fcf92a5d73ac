/* Per-kernel results of one rewrite call, built from the object and the finalized plan. */
#ifndef HS_RESULT_H
#define HS_RESULT_H

#include "plan.h"

/* passes[k]: the HS_PASS_* bits of the rows that changed kernel k's entry or resources. */
HS_INTERNAL enum hs_status hs_result_build(const struct hs_object *o, const struct hs_plan *p,
                                           const uint32_t *passes, struct hs_rewrite_result **out);

#endif
