/*
 * Runs a kernel compiled as host C (prelude/host.h) over a grid: workgroups one after
 * another, each work-item of a workgroup its own thread, so barriers and sub-group
 * exchanges are real rendezvous.  The kernel table comes from tools/gen_host_entry.py.
 */
#ifndef MIRAGE_HOST_RUNTIME_H
#define MIRAGE_HOST_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

struct mirage_host_param {
	int pointer;      /* a buffer (a __global pointer), else a by-value scalar */
	size_t size;      /* bytes of the by-value scalar */
	const char *decl; /* the parameter as the source declares it, for messages */
};

struct mirage_host_kernel {
	const char *name;
	size_t nparams;
	const struct mirage_host_param *params;
	/* Calls the kernel; args[i] points at parameter i's value (a pointer for buffers). */
	void (*entry)(void *const *args);
};

/* The kernels of the linked source, ending with a NULL name. */
extern const struct mirage_host_kernel mirage_host_kernels[];

/* Runs k once per work-item of grid (work-items per dimension, the last workgroup of a
 * dimension partial when workgroup does not divide it).  Returns 0, or -1 with *err set to a
 * static message. */
int mirage_host_run(const struct mirage_host_kernel *k, void *const *args, const uint32_t grid[3],
                    const uint32_t workgroup[3], const char **err);

#endif
