/* What the shim's two halves share: the HSA tool (shim.c) and the HIP entries (hip.c). */
#ifndef HOTSWAP_INTERCEPT_SHIM_H
#define HOTSWAP_INTERCEPT_SHIM_H

#include <stdbool.h>

#include "core_api.h"

#define HSI_EXPORT __attribute__((visibility("default")))

/* The core, loaded on the first call (NULL when it cannot be: the reason said once). */
const struct hsi_core_api *shim_core(void);
/* HSA_HOTSWAP_STRICT, as the core's loading read it. */
bool shim_strict(void);
/* One "hotswap: " line on stderr, before the core's own log is there. */
void shim_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
