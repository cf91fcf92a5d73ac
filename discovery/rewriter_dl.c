/* dlopen() of a tree's rewriter library and lookup of its public entry points. */
#include "rewriter_dl.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* POSIX lets dlsym's object pointer become a function pointer; memcpy says so without a cast
 * warning. */
static int resolve(const struct rewriter_dl *rw, const char *name, void *fn_ptr, size_t size,
                   struct strbuf *err)
{
	void *sym = dlsym(rw->handle, name);
	if (!sym) {
		strbuf_addf(err, "'%s' does not export %s", rw->path, name);
		return -1;
	}
	memcpy(fn_ptr, &sym, size);
	return 0;
}

int rewriter_dl_open(const char *path, struct rewriter_dl *rw, struct strbuf *err)
{
	memset(rw, 0, sizeof(*rw));
	rw->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!rw->handle) {
		strbuf_addf(err, "cannot load '%s': %s", path, dlerror());
		return -1;
	}
	rw->path = xstrdup(path);
	if (resolve(rw, "hs_rewrite", &rw->rewrite, sizeof(rw->rewrite), err) < 0 ||
	    resolve(rw, "hs_rewrite_output_release", &rw->output_release,
	            sizeof(rw->output_release), err) < 0 ||
	    resolve(rw, "hs_last_error", &rw->last_error, sizeof(rw->last_error), err) < 0 ||
	    resolve(rw, "hs_status_str", &rw->status_str, sizeof(rw->status_str), err) < 0 ||
	    resolve(rw, "hs_version", &rw->version, sizeof(rw->version), err) < 0 ||
	    resolve(rw, "hs_inspect", &rw->inspect, sizeof(rw->inspect), err) < 0) {
		rewriter_dl_close(rw);
		return -1;
	}
	/* Optional: added in 0.2, and only ever shown to people. */
	void *identity = dlsym(rw->handle, "hs_build_identity");
	memcpy(&rw->build_identity, &identity, sizeof(rw->build_identity));
	return 0;
}

int rewriter_dl_open_tree(const struct hotswap_tree *tree, struct rewriter_dl *rw,
                          struct strbuf *err)
{
	char *path;
	int ret;
	if (!tree->complete || tree->flavour != HOTSWAP_FLAVOUR_NATIVE) {
		strbuf_addf(
		    err,
		    "the HotSwap tree%s%s is not a complete native tree with " HOTSWAP_REWRITE_LIB,
		    tree->root ? " at " : "", tree->root ? tree->root : "");
		return -1;
	}
	path = xstrfmt("%s/" HOTSWAP_REWRITE_LIB, tree->lib_dir);
	ret = rewriter_dl_open(path, rw, err);
	free(path);
	return ret;
}

void rewriter_dl_close(struct rewriter_dl *rw)
{
	if (rw->handle)
		dlclose(rw->handle);
	free(rw->path);
	memset(rw, 0, sizeof(*rw));
}
