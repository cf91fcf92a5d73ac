/*
 * A plugin loaded once per process, on first use, by whichever thread asks first: the one
 * pattern behind every loader of ours (the rewriter's MC library and translator, the intercept's
 * core and rewriter, libzstd, the launcher's modules).  The slot keeps the table, or NULL and
 * why, for every later caller: a load that failed is not tried again, so the answer stays the
 * same for the life of the process.  What a load does is the caller's (plugin.h's loaders, or
 * its own dlopen and lookups); a plugin loaded is never unloaded.  libc only, never allocates,
 * never prints: the shim uses it.
 */
#ifndef MIRAGE_PLUGIN_SLOT_H
#define MIRAGE_PLUGIN_SLOT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "plugin.h"

struct plugin_slot {
	pthread_mutex_t lock;      /* held by the one load */
	atomic_bool done;          /* the load has run: api and error are final */
	const void *api;           /* what the load returned: the table, or NULL */
	struct plugin_error error; /* why api is NULL */
};

#define PLUGIN_SLOT_INIT                                                                           \
	{                                                                                          \
		.lock = PTHREAD_MUTEX_INITIALIZER                                                  \
	}

/*
 * Signature of a load: the table (or the caller's own struct of functions), or NULL with err
 * saying why.  arg is plugin_slot_get's.
 */
typedef const void *(*plugin_slot_load_fn)(struct plugin_error *err, const void *arg);

/*
 * The slot's table: the first call in the process runs load(&slot->error, arg), other threads
 * waiting for it, and every call returns what that load returned.  NULL: slot->error says
 * why.  A load must not ask for its own slot.
 */
const void *plugin_slot_get(struct plugin_slot *slot, plugin_slot_load_fn load, const void *arg);

/* The table if a load has run and succeeded, without ever running one: NULL otherwise. */
const void *plugin_slot_loaded(struct plugin_slot *slot);

#endif
