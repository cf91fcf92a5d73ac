/* dlopen() of a module of mirage's beside the running mirage, and its API version (module_dl.h). */
#include "module_dl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * CMake puts the modules at <prefix>/lib/mirage next to <prefix>/bin/mirage, in the build tree
 * and in an install alike.  self_exe comes from /proc/self/exe and has no symlinks or dot
 * components, so dropping its last two components is the same as <mirage dir>/.. and reads
 * better in messages.
 */
#define MODULE_SUBDIR "lib/mirage"

char *module_dl_path(const char *self_exe, const char *file)
{
	const char *end = self_exe ? strrchr(self_exe, '/') : NULL;

	if (!end)
		return NULL;
	/* Step out of the bin directory: back to the slash before it, or to the root. */
	while (end > self_exe && *--end != '/')
		;
	return xstrfmt("%.*s/" MODULE_SUBDIR "/%s", (int)(end - self_exe), self_exe, file);
}

struct module_request {
	const struct plugin_spec *spec;
	const char *self_exe;
};

static const void *load_module(struct plugin_error *err, const void *arg)
{
	const struct module_request *req = arg;
	char *path = module_dl_path(req->self_exe, req->spec->file);
	const void *api;

	if (!path) {
		err->failure = PLUGIN_NO_DIRECTORY;
		snprintf(err->text, sizeof(err->text),
		         "cannot find %s: the path of the running mirage is unknown (is /proc "
		         "mounted?)",
		         req->spec->file);
		return NULL;
	}
	api = plugin_load(path, req->spec, err);
	free(path);
	return api;
}

const void *module_dl_load(struct plugin_slot *slot, const struct plugin_spec *spec,
                           const char *self_exe, struct diag *err)
{
	struct module_request req = {spec, self_exe};
	const void *api = plugin_slot_get(slot, load_module, &req);
	/* A module that is not there is an incomplete installation; one that is, another build's.
	 */
	bool missing =
	    slot->error.failure == PLUGIN_NO_DIRECTORY || slot->error.failure == PLUGIN_CANNOT_LOAD;

	if (!api) {
		diag_set(err, "%s", slot->error.text);
		diag_hint(
		    err,
		    "%s: reinstall mirage, or rebuild it (`cmake --build`) so that " MODULE_SUBDIR
		    "/%s lies beside bin/mirage",
		    missing ? "mirage's installation is incomplete"
		            : "it belongs to another mirage build",
		    spec->file);
	}
	return api;
}
