/*
 * The translator, libmirage_translate.so (translate/api/mirage_translate.h), loaded from this
 * library's directory on the first translation and never before: a process that only rewrites
 * never maps it, nor the libLLVM it links.  A leaf: include it only where a route translates.
 */
#ifndef HS_TRANSLATOR_H
#define HS_TRANSLATOR_H

#include "hs_attr.h"
#include "mirage_translate.h"

/*
 * The translator's API table, loaded once per process; NULL when it cannot be loaded, with
 * why ("cannot load '<path>': <dlerror>", another API version, ...) as hs_last_error and
 * reason HS_REASON_NO_TRANSLATOR.
 */
HS_INTERNAL const struct translate_api *hs_translator_get(void);

#endif
