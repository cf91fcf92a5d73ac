/* dlopen() of a tree's rewriter library and lookup of its public entry points. */
#include "rewriter_dl.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "plugin.h"

/* One function into its field; err NULL: an optional one, whose field stays NULL when absent. */
static int resolve(const struct rewriter_dl *rw, const char *name, void *fn_ptr, size_t size,
                   struct strbuf *err)
{
	struct plugin_error perr;

	if (!plugin_function(rw->handle, rw->path, name, fn_ptr, size, err ? &perr : NULL))
		return 0;
	if (err) {
		strbuf_addstr(err, perr.text);
		return -1;
	}
	return 0;
}

#define RESOLVE(rw, field, name, err) resolve(rw, name, &(rw)->field, sizeof((rw)->field), err)

int rewriter_dl_open(const char *path, struct rewriter_dl *rw, struct strbuf *err)
{
	struct plugin_error perr;

	memset(rw, 0, sizeof(*rw));
	rw->handle = plugin_open(path, 0, &perr);
	if (!rw->handle) {
		strbuf_addstr(err, perr.text);
		return -1;
	}
	rw->path = xstrdup(path);
	if (RESOLVE(rw, rewrite, HOTSWAP_REWRITE_SYMBOL, err) < 0 ||
	    RESOLVE(rw, output_release, "hs_rewrite_output_release", err) < 0 ||
	    RESOLVE(rw, last_error, "hs_last_error", err) < 0 ||
	    RESOLVE(rw, status_str, "hs_status_str", err) < 0 ||
	    RESOLVE(rw, version, "hs_version", err) < 0 ||
	    RESOLVE(rw, inspect, "hs_inspect", err) < 0) {
		rewriter_dl_close(rw);
		return -1;
	}
	/* Optional: added in HOTSWAP_REWRITE_0.2, and only ever shown to people. */
	RESOLVE(rw, build_identity, "hs_build_identity", NULL);
	/* Optional for the test doubles of the doctor's self-test; every real rewriter has it. */
	RESOLVE(rw, code_object_isa, "hs_code_object_isa", NULL);
	if (RESOLVE(rw, result_kernels, "hs_rewrite_result_kernels", NULL) < 0 ||
	    RESOLVE(rw, result_kernel, "hs_rewrite_result_kernel", NULL) < 0 ||
	    RESOLVE(rw, result_free, "hs_rewrite_result_free", NULL) < 0 || !rw->result_kernels ||
	    !rw->result_kernel || !rw->result_free) {
		rw->result_kernels = NULL;
		rw->result_kernel = NULL;
		rw->result_free = NULL;
	}
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
