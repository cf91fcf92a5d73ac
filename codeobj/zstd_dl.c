/* libzstd on first use (zstd_dl.h). */
#include "zstd_dl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <zstd.h>

/* The runtime package's soname (Debian's libzstd1); a test points it at one that is not
 * there. */
#ifndef COB_ZSTD_SONAME
#define COB_ZSTD_SONAME "libzstd.so.1"
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct cob_zstd fns;
static const struct cob_zstd *loaded;
static char failure[256];

/* POSIX lets dlsym's object pointer become a function pointer; memcpy says so without a
 * cast warning. */
static int resolve(void *handle, const char *name, void *fn, size_t size)
{
	void *sym = dlsym(handle, name);

	if (!sym) {
		snprintf(failure, sizeof(failure), "%s has no %s: %s", COB_ZSTD_SONAME, name,
		         dlerror());
		return -1;
	}
	memcpy(fn, &sym, size);
	return 0;
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

#define RESOLVE(h, field, name) resolve(h, name, &fns.field, sizeof(fns.field))

static void load(void)
{
	void *handle = dlopen(COB_ZSTD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!handle) {
		snprintf(failure, sizeof(failure),
		         "cannot load %s to decompress it (install the zstd library, Debian's "
		         "libzstd1): %s",
		         COB_ZSTD_SONAME, dlerror());
		return;
	}
	if (RESOLVE(handle, find_frame_compressed_size, "ZSTD_findFrameCompressedSize") < 0 ||
	    RESOLVE(handle, decompress, "ZSTD_decompress") < 0 ||
	    RESOLVE(handle, is_error, "ZSTD_isError") < 0 ||
	    RESOLVE(handle, get_error_name, "ZSTD_getErrorName") < 0) {
		dlclose(handle);
		return;
	}
	loaded = &fns; /* the handle is kept: the functions are used until exit */
}

const struct cob_zstd *cob_zstd(const char **why)
{
	pthread_once(&once, load);
	if (!loaded)
		*why = failure;
	return loaded;
}
