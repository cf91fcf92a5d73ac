/* libzstd on first use (zstd_dl.h). */
#include "zstd_dl.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

#include "plugin.h"
#include "plugin_slot.h"

/* The runtime package's soname (Debian's libzstd1); a test points it at one that is not
 * there. */
#ifndef COB_ZSTD_SONAME
#define COB_ZSTD_SONAME "libzstd.so.1"
#endif

static struct plugin_slot zstd_slot = PLUGIN_SLOT_INIT;
static struct cob_zstd fns;

/* One function of libzstd, or -1 with the message that names it and dlerror()'s. */
static int resolve(void *handle, const char *name, void *fn, size_t size, struct plugin_error *err)
{
	if (!plugin_function(handle, COB_ZSTD_SONAME, name, fn, size, NULL))
		return 0;
	snprintf(err->text, sizeof(err->text), "%s has no %s: %s", COB_ZSTD_SONAME, name,
	         dlerror());
	return -1;
}

/* zstd.h's declarations hold each field's type to the library's own (unevaluated: no
 * reference to the library is linked). */
#define SAME_TYPE(field, fn)                                                                       \
	_Static_assert(__builtin_types_compatible_p(__typeof__(fns.field), __typeof__(&fn)),       \
	               #field " is not " #fn "'s type")
SAME_TYPE(find_frame_compressed_size, ZSTD_findFrameCompressedSize);
SAME_TYPE(decompress, ZSTD_decompress);
SAME_TYPE(is_error, ZSTD_isError);
SAME_TYPE(get_error_name, ZSTD_getErrorName);

#define RESOLVE(h, field, name) resolve(h, name, &fns.field, sizeof(fns.field), err)

/* By its soname, not plugin_open(): the system's library, wherever the loader finds it. */
static const void *load(struct plugin_error *err, const void *arg)
{
	void *handle = dlopen(COB_ZSTD_SONAME, RTLD_NOW | RTLD_LOCAL);

	(void)arg;
	if (!handle) {
		snprintf(err->text, sizeof(err->text),
		         "cannot load %s to decompress it (install the zstd library, Debian's "
		         "libzstd1): %s",
		         COB_ZSTD_SONAME, dlerror());
		return NULL;
	}
	if (RESOLVE(handle, find_frame_compressed_size, "ZSTD_findFrameCompressedSize") < 0 ||
	    RESOLVE(handle, decompress, "ZSTD_decompress") < 0 ||
	    RESOLVE(handle, is_error, "ZSTD_isError") < 0 ||
	    RESOLVE(handle, get_error_name, "ZSTD_getErrorName") < 0) {
		dlclose(handle);
		return NULL;
	}
	return &fns; /* the handle is kept: the functions are used until exit */
}

const struct cob_zstd *cob_zstd(const char **why)
{
	const struct cob_zstd *loaded = plugin_slot_get(&zstd_slot, load, NULL);

	if (!loaded)
		*why = zstd_slot.error.text;
	return loaded;
}
