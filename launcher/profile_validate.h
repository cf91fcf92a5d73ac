/* Checks that a profile's backend can run here (for hotswap: a complete HotSwap tree), and
 * shows where the HotSwap tree was looked for. */
#ifndef MIRAGE_PROFILE_VALIDATE_H
#define MIRAGE_PROFILE_VALIDATE_H

#include "profile.h"

struct hotswap_tree;

/* Returns 0, or -1 with the discovery message (not found / incomplete) in err. */
int profile_validate_backend(const struct profile *p, const char *self_exe, struct diag *err);

/* Appends one row per discovery probe, "PATH   (reason)", the paths padded to one width. */
void probe_rows(const struct hotswap_tree *tree, struct strvec *rows);

#endif
