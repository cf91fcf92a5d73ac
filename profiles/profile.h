/*
 * The profile model.  Every key a profile can hold is one row of a const
 * table (PROFILE_KEY_ROWS below, after tmux's options-table.c): the INI loader, JSON
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

/*
 * The rows of the key table, one per key, in table order (the order of the INI file, JSON and
 * `profile show`): X(id, section, name, flag, type, choices, def, help) with
 *   section  INI section: "profile" or "hotswap"
 *   name     key in INI, JSON and --set
 *   flag     `profile create` long flag, without "--"
 *   choices  PKEY_ENUM's allowed values, else NULL
 *   def      default value as written ("" for none)
 *   help     one line, lowercase, no default in it
 * profile_keys.c expands it into profile_keys[] and cmd_profile.c into `profile create`'s
 * option rows, so a key is written once for every view.
 */
#define PROFILE_KEY_ROWS(X)                                                                        \
	X(PK_DESCRIPTION, "profile", "description", "description", PKEY_TEXT, NULL, "",            \
	  "what this profile is for")                                                              \
	X(PK_EMULATOR, "profile", "emulator", "emulator", PKEY_ENUM, profile_emulators, "hotswap", \
	  "backend: hotswap rewrites code objects, native runs the workload as is")                \
	X(PK_SOURCE_TARGET, "hotswap", "source_target", "source-target", PKEY_SOURCE_TARGET, NULL, \
	  "gfx1250:32", "what the workload was built for, gfx<name>[:wavefront size]")             \
	X(PK_TARGET, "hotswap", "target", "target", PKEY_TARGET, NULL, "auto",                     \
	  "GPU to run on: auto (the detected GPU) or a gfx name")                                  \
	X(PK_ADAPTER_POLICY, "hotswap", "adapter_policy", "policy", PKEY_ENUM,                     \
	  profile_adapter_policies, "compile", "which framework adapters retarget JIT compilers")  \
	X(PK_STRICT, "hotswap", "strict", "strict", PKEY_BOOL, NULL, "true",                       \
	  "refuse a load whose required rewrite fails")                                            \
	X(PK_ALL_KERNELS, "hotswap", "all_kernels", "all-kernels", PKEY_BOOL, NULL, "false",       \
	  "refuse a translated object whole when one kernel is refused (else that one traps)")     \
	X(PK_ENTRY_TRAMPOLINES, "hotswap", "entry_trampolines", "entry-trampolines", PKEY_BOOL,    \
	  NULL, "false", "retrofit the gfx12.5 entry-prologue erratum fix")                        \
	X(PK_STEPPING, "hotswap", "stepping", "stepping", PKEY_ENUM, profile_steppings, "auto",    \
	  "what the physical gfx1250 is: auto (detected), a0 or b0")                               \
	X(PK_CACHE_DIR, "hotswap", "cache_dir", "cache-dir", PKEY_PATH, NULL, "",                  \
	  "translation cache directory (empty: the default location)")

/* Index of every key, in table order. */
#define PROFILE_KEY_ID(id, ...) id,
enum profile_key_id {
	PROFILE_KEY_ROWS(PROFILE_KEY_ID) PK_COUNT
};
#undef PROFILE_KEY_ID

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
/*
 * A hotswap profile's source target and target must be a pair with a route (gfx_route.h):
 * returns 0, or -1 with "profile 'g51': there is no route from gfx1250 code to gfx1251" and
 * the routes that exist in err.  A target of auto is chosen at run time from the routes.
 */
int profile_check_route(const struct profile *p, struct diag *err);

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
