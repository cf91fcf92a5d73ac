/* dladdr() on an address names the file the dynamic loader mapped it from. */
#include "object_path.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

const char *object_path(const void *anchor)
{
	Dl_info info;

	if (!dladdr(anchor, &info) || !info.dli_fname || !info.dli_fname[0])
		return NULL;
	return info.dli_fname;
}

int object_sibling_path(const void *anchor, const char *name, char *buf, size_t size)
{
	const char *self = object_path(anchor);
	const char *slash = self ? strrchr(self, '/') : NULL;
	int n;

	if (!self)
		return -1;
	if (slash)
		n = snprintf(buf, size, "%.*s/%s", (int)(slash - self), self, name);
	else
		n = snprintf(buf, size, "./%s", name);
	return n >= 0 && (size_t)n < size ? 0 : -1;
}
