/*
 * The profile store: one INI file per profile in <config>/profiles/<name>.ini.
 * Writes are atomic; create never overwrites (of N racing creates exactly one
 * wins).  Functions return 0, or -1 with err filled in.
 */
#ifndef MIRAGE_PROFILE_STORE_H
#define MIRAGE_PROFILE_STORE_H

#include "profile.h"

/* Path of a profile's file; caller frees with free(). */
char *profile_path(const char *name);
/*
 * Validates a name given to look a profile up (show, edit, run --profile):
 * the name rule, but mixed case is folded to lowercase as the store keeps it.
 * Returns a lowercase copy the caller frees, or NULL with err filled in.
 */
char *profile_lookup_name(const char *name, struct diag *err);
/* Loads the profile called name into p (profile_init()'ed by the callee; release it). */
int profile_load(const char *name, struct profile *p, struct diag *err);
/* Writes a new profile; fails if one of that name exists. */
int profile_create(const struct profile *p, struct diag *err);
/* Replaces an existing profile's file. */
int profile_save(const struct profile *p, struct diag *err);
int profile_delete(const char *name, struct diag *err);
/* Appends the names of every stored profile, sorted. */
int profile_list(struct strvec *names, struct diag *err);

#endif
