/* dlopen() of a plugin, its entry point and the version of its table, with one set of messages. */
#include "plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "object_path.h"

__attribute__((format(printf, 3, 4))) static void
fail(struct plugin_error *err, enum plugin_failure failure, const char *fmt, ...)
{
	va_list ap;

	err->failure = failure;
	va_start(ap, fmt);
	vsnprintf(err->text, sizeof(err->text), fmt, ap);
	va_end(ap);
}

void *plugin_open(const char *path, int flags, struct plugin_error *err)
{
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL | flags);
	const char *why;
	size_t len = strlen(path);

	if (handle)
		return handle;
	why = dlerror();
	/* glibc starts with "<path>: ", which the message already says. */
	if (!why)
		why = "unknown error";
	else if (!strncmp(why, path, len) && !strncmp(why + len, ": ", 2))
		why += len + 2;
	fail(err, PLUGIN_CANNOT_LOAD, "cannot load '%s': %s", path, why);
	return NULL;
}

void *plugin_symbol(void *handle, const char *path, const char *name, struct plugin_error *err)
{
	void *sym = dlsym(handle, name);

	if (!sym && err)
		fail(err, PLUGIN_NO_SYMBOL, "'%s' does not export %s", path, name);
	return sym;
}

int plugin_function(void *handle, const char *path, const char *name, void *fn_ptr, size_t size,
                    struct plugin_error *err)
{
	void *sym = plugin_symbol(handle, path, name, err);

	memcpy(fn_ptr, &sym, size);
	return sym ? 0 : -1;
}

const void *plugin_load(const char *path, const struct plugin_spec *spec, struct plugin_error *err)
{
	void *handle = plugin_open(path, spec->dlopen_flags, err);
	void *entry;
	const void *api;
	uint32_t version;

	if (!handle)
		return NULL;
	entry = plugin_symbol(handle, path, spec->entry, err);
	if (!entry) {
		dlclose(handle);
		return NULL;
	}
	api = spec->call_entry(entry);
	/* The table's first member is its version (plugin.h). */
	version = api ? *(const uint32_t *)api : 0;
	if (!api || version != spec->version) {
		fail(err, PLUGIN_BAD_VERSION, "'%s' has no usable %s (API version %u, need %u)",
		     path, spec->entry, (unsigned)version, (unsigned)spec->version);
		dlclose(handle);
		return NULL;
	}
	err->failure = PLUGIN_OK;
	err->text[0] = '\0';
	return api;
}

const void *plugin_load_beside(const void *anchor, const struct plugin_spec *spec,
                               struct plugin_error *err)
{
	char path[PATH_MAX];

	if (!object_path(anchor)) {
		fail(err, PLUGIN_NO_DIRECTORY, "cannot find the directory of %s to load %s",
		     spec->owner, spec->file);
		return NULL;
	}
	if (object_sibling_path(anchor, spec->file, path, sizeof(path)) < 0) {
		fail(err, PLUGIN_NO_DIRECTORY, "the path of %s beside '%s' is too long", spec->file,
		     object_path(anchor));
		return NULL;
	}
	return plugin_load(path, spec, err);
}
