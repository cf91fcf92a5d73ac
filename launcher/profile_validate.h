/* Checks that a profile's backend can run here (for hotswap: a complete HotSwap tree). */
#ifndef MIRAGE_PROFILE_VALIDATE_H
#define MIRAGE_PROFILE_VALIDATE_H

#include "profile.h"

/* Returns 0, or -1 with the discovery message (not found / incomplete) in err. */
int profile_validate_backend(const struct profile *p, const char *self_exe, struct diag *err);

#endif
