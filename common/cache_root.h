/* The translation cache's default root, resolved one way for the intercept and `mirage paths`. */
#ifndef MIRAGE_CACHE_ROOT_H
#define MIRAGE_CACHE_ROOT_H

/*
 * $XDG_CACHE_HOME/mirage/hotswap when XDG_CACHE_HOME is absolute (the XDG rule: a relative
 * value is ignored), else $HOME/.cache/mirage/hotswap when HOME is absolute, else NULL: with
 * neither, the intercept keeps no disk cache.  malloc'ed (NULL also when out of memory); no
 * abort, libc only.  HSA_HOTSWAP_CACHE_DIR and _DISABLE are the intercept's business.
 */
char *translation_cache_default_root(void);

#endif
