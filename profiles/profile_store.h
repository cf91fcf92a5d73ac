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
/* profile_load_typed()'s return when the typed name itself is invalid (a usage error). */
#define PROFILE_BAD_NAME (-2)
/*
 * Loads the profile a user typed (profile_lookup_name(), then profile_load()).
 * p is always initialised (release it).  Returns 0, -1 if it cannot be loaded,
 * or PROFILE_BAD_NAME; err says why.
 */
int profile_load_typed(const char *typed, struct profile *p, struct diag *err);
/* Returns 0 if the profile's file exists, or -1 with "not found" (or why not) in err. */
int profile_exists(const char *name, struct diag *err);
/* Writes a new profile; fails if one of that name exists. */
int profile_create(const struct profile *p, struct diag *err);
/* Replaces an existing profile's file. */
int profile_save(const struct profile *p, struct diag *err);
int profile_delete(const char *name, struct diag *err);
/* Appends the names of every stored profile, sorted. */
int profile_list(struct strvec *names, struct diag *err);

#endif
