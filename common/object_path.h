/*
 * Where one of our shared objects was loaded from, found through an address inside it, so a
 * HotSwap tree copied anywhere still finds its own parts.  libc only: the shim uses it.
 */
#ifndef MIRAGE_OBJECT_PATH_H
#define MIRAGE_OBJECT_PATH_H

#include <stddef.h>

/* The file of the object that contains anchor (any of its functions); NULL when unknown.  The
 * string belongs to the dynamic loader. */
const char *object_path(const void *anchor);
/* "<that file's directory>/<name>" into buf; 0, or -1 when unknown or longer than size. */
int object_sibling_path(const void *anchor, const char *name, char *buf, size_t size);

#endif
