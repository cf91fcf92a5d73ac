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
 * Validates a name given to look a profile up (show, edit, run --profile) by the rule of
 * create: a mixed-case name is refused with the lowercase suggestion, never folded.
 * Returns a copy the caller frees, or NULL with err filled in.
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
/*
 * Replaces an existing profile's file.  A caller that loaded the profile, changed it and now
 * saves it holds the store lock (profile_lock_store()) from before the load to after the save.
 */
int profile_save(const struct profile *p, struct diag *err);
/* Removes a profile's file, under the store lock (so never while holding it). */
int profile_delete(const char *name, struct diag *err);
/* The same, for a caller that holds the store lock (profile rename). */
int profile_delete_held(const char *name, struct diag *err);

/*
 * The store lock: an exclusive flock on <profiles>/.lock, taken around every read-modify-write
 * (edit: load, change, save; delete), so concurrent writers never lose each other's changes.
 * Readers need none: every write is an atomic rename.  A symlink or special file planted as
 * .lock is refused.  Waits up to wait_ms for another holder, then fails saying who is busy.
 * Locks held by one process do not nest.
 */
struct profile_lock {
	int fd; /* -1 when not held */
};
#define PROFILE_LOCK_INIT                                                                          \
	{                                                                                          \
		-1                                                                                 \
	}
#define PROFILE_LOCK_WAIT_MS 30000
int profile_lock_store(struct profile_lock *lock, unsigned wait_ms, struct diag *err);
/* Releases the lock if held; safe to call on PROFILE_LOCK_INIT. */
void profile_unlock_store(struct profile_lock *lock);
/* Appends the names of every stored profile, sorted. */
int profile_list(struct strvec *names, struct diag *err);

#endif
