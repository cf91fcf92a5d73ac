/*
 * Loading libmirage_translate.so (translate/api/mirage_translate.h), the only object that
 * links libLLVM's JIT and the raiser, from <mirage dir>/../lib/mirage/ (module_dl.h) when `mirage
 * raise` or `mirage emulate` first needs it; no other command ever loads it.
 */
#ifndef MIRAGE_TRANSLATE_DL_H
#define MIRAGE_TRANSLATE_DL_H

#include "diag.h"
#include "mirage_translate.h"

/* Loads the module once per process; NULL with err naming the path and dlerror(). */
const struct translate_api *translate_dl_load(const char *self_exe, struct diag *err);

#endif
