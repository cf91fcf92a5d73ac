/* The one truthiness rule for mirage's and HotSwap's variables and booleans. */
#ifndef MIRAGE_TRUTHY_H
#define MIRAGE_TRUTHY_H

#include <stdbool.h>

/*
 * False: NULL, "", "0", "off", "false", "no" (any case, surrounding blanks
 * ignored).  Anything else is true.  Used for every HSA_HOTSWAP_* switch.
 */
bool env_truthy(const char *value);
/* env_truthy(getenv(name)). */
bool env_flag(const char *name);
/*
 * Strict parse for user-written booleans (profiles, --set): accepts
 * true/false/yes/no/on/off/1/0 in any case.  Returns 0 and sets *out, or -1.
 */
int parse_bool(const char *value, bool *out);

#endif
