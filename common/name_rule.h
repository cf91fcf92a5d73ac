/*
 * The one rule for names that become file or directory names (profiles, HotSwap trees):
 * 1-128 bytes of [a-z0-9._+-], not starting with '.'.
 */
#ifndef MIRAGE_NAME_RULE_H
#define MIRAGE_NAME_RULE_H

#include "diag.h"

/*
 * Returns 0 when name follows the rule, else fills err with "invalid <what> name ...: <why>"
 * (upper case gets lowercase_why, e.g. "profiles are stored lowercase") and returns -1.
 */
int name_rule_check(const char *what, const char *name, const char *lowercase_why,
                    struct diag *err);

#endif
