/* The kernarg segment of a launch, byte for byte as a HIP launch lays it out. */
#ifndef MIRAGE_KERNARG_H
#define MIRAGE_KERNARG_H

#include "launch_file.h"
#include "mirage/code_object.h"

#include <stdint.h>

/*
 * Fills kernarg (k->kernarg_size bytes, zeroed by the caller) from the launch: each explicit
 * argument of the metadata .args, in order, from lf->args (a buffer's address plus its
 * offset, or the value's bytes), and the code-object-v5 hidden block from the geometry
 * (block counts, group sizes, remainders, zero global offset, grid dims, dynamic LDS size;
 * the others zero).  bufs[i] is the memory of lf->buffers[i].  Returns 0, or -1 with msg
 * naming the argument ("args[2]: kernel argument 'n' is 4 bytes, the launch gives 8").
 */
int kernarg_build(const struct co_kernel *k, const struct launch_file *lf, uint8_t *const *bufs,
                  uint8_t *kernarg, char *msg, size_t size);

#endif
