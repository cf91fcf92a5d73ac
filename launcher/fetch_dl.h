/*
 * Loading libmirage_fetch.so (fetch.h), the only object that links libcurl,
 * libarchive and libcrypto, from <mirage dir>/../lib/mirage/ (module_dl.h) when
 * `mirage hotswap install` first needs it; no other command ever loads it.
 */
#ifndef MIRAGE_FETCH_DL_H
#define MIRAGE_FETCH_DL_H

#include "diag.h"
#include "fetch.h"

/*
 * Loads the module once per process and returns its table; NULL with err
 * naming the path and dlerror(), plus a hint to reinstall or rebuild.  Never
 * unloaded: the process is a short-lived command that exits soon after.
 */
const struct fetch_api *fetch_dl_load(const char *self_exe, struct diag *err);

#endif
