/*
 * The bytes behind each code object reader, keyed by reader handle: the
 * runtime gives no way to read them back, and the caller may free its copy
 * right after creating the reader.
 */
#ifndef HOTSWAP_INTERCEPT_READERS_H
#define HOTSWAP_INTERCEPT_READERS_H

#include <stddef.h>
#include <stdint.h>

struct hsi_reader {
	uint64_t handle;
	void *bytes; /* owned */
	size_t size;
	char *uri;     /* owned: "file:///path" or "memory://<pid>#offset=0x..&size=.." */
	unsigned refs; /* guarded by the map's lock */
	int removed;
	struct hsi_reader *next;
};

/* Takes ownership of bytes and uri (both freed on failure too). Returns 0 or -1. */
int hsi_readers_add(uint64_t handle, void *bytes, size_t size, char *uri);
/* A counted reference, or NULL; release with hsi_readers_put(). */
struct hsi_reader *hsi_readers_get(uint64_t handle);
void hsi_readers_put(struct hsi_reader *r);
/* Forgets handle; the memory goes when the last reference does. */
void hsi_readers_remove(uint64_t handle);

#endif
