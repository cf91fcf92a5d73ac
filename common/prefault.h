/*
 * Fills in the page tables of a fresh buffer that is about to be written whole, in one call.
 * Each first touch of an anonymous page is otherwise a fault of its own, and in a VM (where
 * the intercept runs in every rank of a job) that costs microseconds apiece: a 128 KiB code
 * object read into a new buffer took 32 of them.  Only a hint: a kernel without
 * MADV_POPULATE_WRITE (before Linux 5.14) refuses it and the buffer faults in as before.
 */
#ifndef MIRAGE_PREFAULT_H
#define MIRAGE_PREFAULT_H

#include <stddef.h>

/* Below this, the call costs about what the faults would. */
#define PREFAULT_MIN ((size_t)64 * 1024)

void prefault_write(void *buf, size_t size);

#endif
