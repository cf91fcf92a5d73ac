/*
 * Where mirage keeps things.  Each directory honours its MIRAGE_* variable,
 * then the XDG one, then a default under $HOME (an empty variable counts as
 * unset).  Returned strings are allocated; the caller frees them with free().
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
/* The translation cache HotSwap uses by default: $XDG_CACHE_HOME/mirage/hotswap, else ~/.cache/...
 */
char *mirage_translation_cache_dir(void);
/* Which variable decided mirage_config_dir(): "MIRAGE_CONFIG", "XDG_CONFIG_HOME" or "HOME". */
const char *mirage_config_dir_source(void);

#endif
