/*
 * Loading one of mirage's own modules (libmirage_fetch.so, libmirage_translate.so) from
 * <prefix>/lib/mirage beside <prefix>/bin/mirage, once per process (common/plugin_slot.h),
 * with one set of messages and hints: fetch_dl.c and translate_dl.c give only their module's
 * plugin_spec.
 */
#ifndef MIRAGE_MODULE_DL_H
#define MIRAGE_MODULE_DL_H

#include "diag.h"
#include "plugin.h"
#include "plugin_slot.h"

/*
 * The module file's path for the mirage at self_exe (absolute, as from /proc/self/exe):
 * <prefix>/lib/mirage/<file> for <prefix>/bin/mirage, the same layout in a build tree and an
 * install.  Caller frees with free(); NULL when self_exe is NULL or has no '/'.
 */
char *module_dl_path(const char *self_exe, const char *file);

/*
 * spec's module (spec->file), loaded into slot by the first call, and its table; NULL with err
 * naming the path and why, plus a hint to reinstall or rebuild.  Never unloaded: the process
 * is a short-lived command that exits soon after.
 */
const void *module_dl_load(struct plugin_slot *slot, const struct plugin_spec *spec,
                           const char *self_exe, struct diag *err);

#endif
