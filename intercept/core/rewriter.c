/* The rewriter on first use, and its identity without it (rewriter.h). */
#include "rewriter.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <hotswap/version.h>

#include "build_identity.h"
#include "hotswap_contract.h"
#include "log.h"
#include "object_path.h"
#include "plugin.h"
#include "plugin_slot.h"

static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static struct plugin_slot rewriter_slot = PLUGIN_SLOT_INIT;
static struct hsi_rewriter fns;
static char identity[BUILD_IDENTITY_MAX];

/* The directory this core was loaded from, where the tree keeps the rewriter too. */
static int own_dir(char *dir, size_t size)
{
	const char *self = object_path((const void *)own_dir);
	const char *slash = self ? strrchr(self, '/') : NULL;

	if (!slash || (size_t)(slash - self) >= size)
		return -1;
	snprintf(dir, size, "%.*s", (int)(slash - self), self);
	return 0;
}

/* One function of the rewriter, or -1 with the message that names it. */
static int resolve(void *handle, const char *path, const char *name, void *fn, size_t size,
                   struct plugin_error *err)
{
	if (!plugin_function(handle, path, name, fn, size, NULL))
		return 0;
	snprintf(err->text, sizeof(err->text), "%s has no %s (a rewriter older than this core?)",
	         path, name);
	return -1;
}

#define RESOLVE(field, name) resolve(handle, path, name, &fns.field, sizeof(fns.field), err)

static const void *load(struct plugin_error *err, const void *arg)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	hs_set_log_fn_fn set_log_fn = NULL;
	void *handle;

	(void)arg;
	if (own_dir(dir, sizeof(dir)) < 0) {
		snprintf(err->text, sizeof(err->text),
		         "cannot tell which directory the core is in");
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, HOTSWAP_REWRITE_LIB);
	/* Not plugin_open(): this message quotes dlerror() whole, path first. */
	if (!(handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		snprintf(
		    err->text, sizeof(err->text),
		    "cannot load the rewriter: %s (an incomplete HotSwap tree: `mirage doctor` "
		    "says what is missing)",
		    dlerror());
		return NULL;
	}
	if (RESOLVE(rewrite, HOTSWAP_REWRITE_SYMBOL) < 0 ||
	    RESOLVE(last_error, "hs_last_error") < 0 || RESOLVE(status_str, "hs_status_str") < 0 ||
	    RESOLVE(result_kernels, "hs_rewrite_result_kernels") < 0 ||
	    RESOLVE(result_kernel, "hs_rewrite_result_kernel") < 0 ||
	    RESOLVE(result_free, "hs_rewrite_result_free") < 0 ||
	    resolve(handle, path, "hs_set_log_fn", &set_log_fn, sizeof(set_log_fn), err) < 0) {
		dlclose(handle);
		return NULL;
	}
	set_log_fn(hsi_rewriter_log, NULL);
	return &fns; /* the handle is kept: rewritten objects and late calls point into it */
}

const struct hsi_rewriter *hsi_rewriter(char *why, size_t why_size)
{
	const struct hsi_rewriter *loaded = plugin_slot_get(&rewriter_slot, load, NULL);

	if (!loaded)
		snprintf(why, why_size, "%s", rewriter_slot.error.text);
	return loaded;
}

static void compute_identity(void)
{
	char dir[PATH_MAX];

	build_identity_format(hsi_rewriter_version(), own_dir(dir, sizeof(dir)) < 0 ? NULL : dir,
	                      identity, sizeof(identity));
}

const char *hsi_build_identity(void)
{
	pthread_once(&identity_once, compute_identity);
	return identity;
}

const char *hsi_rewriter_version(void)
{
	return HS_REWRITE_VERSION_STRING;
}
