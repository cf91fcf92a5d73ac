/* The XDG base-directory rule, spelled once for the launcher and the intercept. */
#ifndef MIRAGE_XDG_DIR_H
#define MIRAGE_XDG_DIR_H

/*
 * The value of the XDG base-directory variable var (XDG_CONFIG_HOME, XDG_DATA_HOME,
 * XDG_CACHE_HOME) when it is an absolute path; NULL when it is unset, empty or relative: the
 * XDG Base Directory spec says a relative value is invalid and must be ignored.  Points into
 * the environment; libc only, no allocation.
 */
const char *xdg_base_dir(const char *var);

#endif
