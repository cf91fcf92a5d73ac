/*
 * Where mirage keeps things.  Each directory honours its MIRAGE_* variable,
 * then the XDG one, then a default under $HOME (an empty variable counts as
 * unset; a relative XDG one is ignored, as the XDG spec says: xdg_dir.h).
 * Returned strings are allocated; the caller frees them with free().
 */
#ifndef MIRAGE_CONFIG_PATHS_H
#define MIRAGE_CONFIG_PATHS_H

/* $MIRAGE_CONFIG, else $XDG_CONFIG_HOME/mirage, else ~/.config/mirage. */
char *mirage_config_dir(void);
/* <config>/profiles */
char *mirage_profiles_dir(void);
/* $MIRAGE_DATA, else $XDG_DATA_HOME/mirage, else ~/.local/share/mirage (installed trees). */
char *mirage_data_dir(void);
/* $MIRAGE_CACHE, else $XDG_CACHE_HOME/mirage, else ~/.cache/mirage. */
char *mirage_cache_dir(void);
/* The translation cache the intercept uses by default (translation_cache_default_root()); NULL
 * when it keeps none (neither XDG_CACHE_HOME nor HOME is an absolute path). */
char *mirage_translation_cache_dir(void);
/* Which variable decided mirage_config_dir(): "MIRAGE_CONFIG", "XDG_CONFIG_HOME" or "HOME". */
const char *mirage_config_dir_source(void);
/* Likewise for mirage_data_dir(): "MIRAGE_DATA", "XDG_DATA_HOME" or "HOME". */
const char *mirage_data_dir_source(void);

#endif
