/* Attributes every internal header of libhotswap_rewrite uses (a leaf: includes nothing). */
#ifndef HS_ATTR_H
#define HS_ATTR_H

#define HS_PRINTF(a, b) __attribute__((format(printf, a, b)))
/* Internal to the shared object; the *_testable static twin sees every one of them. */
#define HS_INTERNAL __attribute__((visibility("hidden")))

#endif
