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

static pthread_once_t load_once = PTHREAD_ONCE_INIT, identity_once = PTHREAD_ONCE_INIT;
static struct hsi_rewriter fns;
static const struct hsi_rewriter *loaded;
static char failure[PATH_MAX + 512];
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

/* POSIX lets dlsym's object pointer become a function pointer; memcpy says so without a
 * cast warning. */
static int resolve(void *handle, const char *path, const char *name, void *fn, size_t size)
{
	void *sym = dlsym(handle, name);

	if (!sym) {
		snprintf(failure, sizeof(failure),
		         "%s has no %s (a rewriter older than this core?)", path, name);
		return -1;
	}
	memcpy(fn, &sym, size);
	return 0;
}

#define RESOLVE(field, name) resolve(handle, path, name, &fns.field, sizeof(fns.field))

static void load(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 64];
	hs_set_log_fn_fn set_log_fn = NULL;
	void *handle;

	if (own_dir(dir, sizeof(dir)) < 0) {
		snprintf(failure, sizeof(failure), "cannot tell which directory the core is in");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, HOTSWAP_REWRITE_LIB);
	if (!(handle = dlopen(path, RTLD_NOW | RTLD_LOCAL))) {
		snprintf(
		    failure, sizeof(failure),
		    "cannot load the rewriter: %s (an incomplete HotSwap tree: `mirage doctor` "
		    "says what is missing)",
		    dlerror());
		return;
	}
	if (RESOLVE(rewrite, HOTSWAP_REWRITE_SYMBOL) < 0 ||
	    RESOLVE(last_error, "hs_last_error") < 0 || RESOLVE(status_str, "hs_status_str") < 0 ||
	    RESOLVE(result_kernels, "hs_rewrite_result_kernels") < 0 ||
	    RESOLVE(result_kernel, "hs_rewrite_result_kernel") < 0 ||
	    RESOLVE(result_free, "hs_rewrite_result_free") < 0 ||
	    resolve(handle, path, "hs_set_log_fn", &set_log_fn, sizeof(set_log_fn)) < 0) {
		dlclose(handle);
		return;
	}
	set_log_fn(hsi_rewriter_log, NULL);
	loaded = &fns; /* the handle is kept: rewritten objects and late calls point into it */
}

const struct hsi_rewriter *hsi_rewriter(char *why, size_t why_size)
{
	pthread_once(&load_once, load);
	if (!loaded)
		snprintf(why, why_size, "%s", failure);
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
