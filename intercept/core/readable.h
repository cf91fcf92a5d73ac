/*
 * The HIP entries hand us bare pointers: a fat binary or an image whose size nobody says.
 * Its own headers say it, but they are outside bytes, so every read is first bounded by
 * the memory actually mapped there.
 */
#ifndef HOTSWAP_INTERCEPT_READABLE_H
#define HOTSWAP_INTERCEPT_READABLE_H

#include <stddef.h>

/* Bytes readable from p on (adjacent readable mappings joined); 0 when p is not mapped. */
size_t hsi_readable_extent(const void *p);
/* The same from /proc/self/maps alone, which hsi_readable_extent asks for what no loaded
 * object's segment holds (the unit test holds the two answers to each other). */
size_t hsi_readable_extent_kernel(const void *p);

#endif
