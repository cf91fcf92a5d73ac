/*
 * Loading one of mirage's plugins: a shared object, found at a path or beside a given object,
 * whose one entry point returns a versioned API table (libmirage_fetch, libhotswap_mc, the
 * intercept's core), or a library whose functions are looked up one by one (the rewriter the
 * launcher loads).  libc only, never allocates, never prints: the shim uses it.  Failures fill
 * a struct plugin_error naming the path and dlerror().  No state of its own, so any thread may
 * call it; a plugin loaded once per process is kept in a plugin_slot (plugin_slot.h).
 */
#ifndef MIRAGE_PLUGIN_H
#define MIRAGE_PLUGIN_H

#include <stdint.h>
#include <string.h>

enum plugin_failure {
	PLUGIN_OK = 0,
	PLUGIN_NO_DIRECTORY, /* the anchor's object is unknown, or the path would be too long */
	PLUGIN_CANNOT_LOAD,  /* dlopen() failed: missing, not an ELF, a missing dependency, ... */
	PLUGIN_NO_SYMBOL,    /* loaded, but it does not export the symbol */
	PLUGIN_BAD_VERSION,  /* the entry point gave no table, or one of another version */
};

/* A PATH_MAX path and a dlerror() fit. */
#define PLUGIN_ERROR_MAX 5120

struct plugin_error {
	enum plugin_failure failure;
	/* "cannot load '<path>': <dlerror>", "'<path>' does not export <symbol>", "'<path>' has
	 * no usable <entry> (API version <v>, need <w>)"; lowercase, no full stop. */
	char text[PLUGIN_ERROR_MAX];
};

/*
 * How to load a plugin with an entry point.  The entry point takes no argument and returns a
 * pointer to the plugin's API table, whose first member is its uint32_t version.
 */
struct plugin_spec {
	const char *file;  /* the file name, for plugin_load_beside() */
	const char *owner; /* the object plugin_load_beside() looks beside, for messages */
	const char *entry; /* the entry point's symbol */
	uint32_t version;  /* the version the table must carry */
	int dlopen_flags;  /* ORed into RTLD_NOW | RTLD_LOCAL (e.g. RTLD_NODELETE) */
	/* Calls the entry point through its own type; define it with PLUGIN_ENTRY_CALLER. */
	const void *(*call_entry)(void *entry);
};

/*
 * Defines `static const void *name(void *entry)`, which calls entry as fn_type (the entry
 * point's typedef in the plugin's header).  Calling it through its real type keeps UBSan's
 * function-type check quiet; memcpy is POSIX's way from dlsym's object pointer to a function.
 */
#define PLUGIN_ENTRY_CALLER(name, fn_type)                                                         \
	static const void *name(void *entry)                                                       \
	{                                                                                          \
		fn_type get;                                                                       \
		memcpy(&get, &entry, sizeof(get));                                                 \
		return get();                                                                      \
	}

/* dlopen()s path with RTLD_NOW | RTLD_LOCAL | flags: the handle, or NULL with err set. */
void *plugin_open(const char *path, int flags, struct plugin_error *err);
/*
 * The address of name in handle (opened from path, which messages name); NULL when it is not
 * exported, with err set unless err is NULL (an optional symbol).
 */
void *plugin_symbol(void *handle, const char *path, const char *name, struct plugin_error *err);
/*
 * plugin_symbol() of a function, stored into the function pointer at fn_ptr (size bytes, the
 * pointer's own size): 0, or -1 with the pointer NULL when it is not exported (err as for
 * plugin_symbol; with err NULL, dlerror() still says why).  POSIX lets dlsym's object pointer
 * become a function pointer; memcpy says so without a cast warning.
 */
int plugin_function(void *handle, const char *path, const char *name, void *fn_ptr, size_t size,
                    struct plugin_error *err);
/*
 * Opens path, calls spec's entry point and checks its table's version: the table, or NULL
 * with err set and nothing left loaded.  A plugin loaded is never unloaded.
 */
const void *plugin_load(const char *path, const struct plugin_spec *spec, struct plugin_error *err);
/* plugin_load() of spec->file in the directory of the object that holds anchor. */
const void *plugin_load_beside(const void *anchor, const struct plugin_spec *spec,
                               struct plugin_error *err);

#endif
