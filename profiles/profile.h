/*
 * The profile model.  Every key a profile can hold is one row of a const
 * table (profile_keys.c, after tmux's options-table.c): the INI loader, JSON
 * import/export, `profile show`, `profile create` flags, `profile edit --set`,
 * validation messages and the README's key list all read it.
 */
#ifndef MIRAGE_PROFILE_H
#define MIRAGE_PROFILE_H

#include "diag.h"
#include "strvec.h"

#include <stdbool.h>
#include <stddef.h>

enum profile_key_type {
	PKEY_TEXT,          /* free single-line text */
	PKEY_BOOL,          /* true/false/yes/no/on/off/1/0, stored as true/false */
	PKEY_ENUM,          /* one of .choices */
	PKEY_SOURCE_TARGET, /* gfx<name>[:32|:64] from the gfx table */
	PKEY_TARGET,        /* auto, or a gfx name HotSwap can retarget onto */
	PKEY_PATH,          /* a directory path, empty for the default */
};

/* Index of every key, in table order. */
enum profile_key_id {
	PK_DESCRIPTION,
	PK_EMULATOR,
	PK_SOURCE_TARGET,
	PK_TARGET,
	PK_ADAPTER_POLICY,
	PK_STRICT,
	PK_ENTRY_TRAMPOLINES,
	PK_STEPPING,
	PK_CACHE_DIR,
	PK_COUNT,
};

struct profile_key {
	enum profile_key_id id;
	const char *section; /* INI section: "profile" or "hotswap" */
	const char *name;    /* key in INI, JSON and --set */
	const char *flag;    /* `profile create` long flag, without "--" */
	enum profile_key_type type;
	const char *const *choices; /* PKEY_ENUM */
	const char *def;            /* default value as written */
	const char *help;           /* one line */
};

extern const struct profile_key profile_keys[PK_COUNT];
extern const char *const profile_emulators[];        /* hotswap, native */
extern const char *const profile_adapter_policies[]; /* none env native_build triton compile full */
extern const char *const profile_steppings[];        /* auto a0 b0 */

/* Finds a key by "name" or "section.name"; NULL if unknown. */
const struct profile_key *profile_key_find(const char *name);

/*
 * Longest value a profile keeps: inih (as Debian builds it) reads lines of at
 * most 199 bytes, and "key = value" must fit on one.
 */
#define PROFILE_VALUE_MAX 160
#define PROFILE_LINE_MAX  199

struct profile {
	char *name;             /* lowercase, valid */
	char *values[PK_COUNT]; /* every key, normalised (bools as true/false); never NULL */
	struct strvec env;      /* extra workload variables as "K=V", in insertion order */
};

/* Sets every key to its default; name is copied.  Release with profile_release(). */
void profile_init(struct profile *p, const char *name);
void profile_release(struct profile *p);

/*
 * Validates value for key and stores its normalised form.  On failure fills
 * err ("key 'target': expected auto or one of gfx942, ...") and returns -1.
 */
int profile_set(struct profile *p, const struct profile_key *key, const char *value,
                struct diag *err);
const char *profile_get(const struct profile *p, enum profile_key_id id);
bool profile_get_bool(const struct profile *p, enum profile_key_id id);
bool profile_is_hotswap(const struct profile *p);

/* Sets (or replaces, in place) an [env] entry after checking the name and value. */
int profile_set_env(struct profile *p, const char *name, const char *value, struct diag *err);
/*
 * Checks and appends an [env] entry without looking for an earlier one of that name: for the
 * loaders, which refuse duplicates themselves (name_set.h), so a long table loads in linear
 * time.
 */
int profile_add_env(struct profile *p, const char *name, const char *value, struct diag *err);
/* Parses "K=V" for --env / --set env.K=V. */
int profile_set_env_assignment(struct profile *p, const char *assignment, struct diag *err);
/* Removes an [env] entry; returns 0 if it was there, -1 if not. */
int profile_unset_env(struct profile *p, const char *name);

/*
 * Checks a profile name: 1-128 bytes of [A-Za-z0-9._+-], not starting with
 * '.', lowercase.  A mixed-case name is refused with the lowercase suggestion.
 */
int profile_name_check(const char *name, struct diag *err);
/* Checks an environment variable name ([A-Za-z_][A-Za-z0-9_]*). */
bool env_name_valid(const char *name);

#endif
