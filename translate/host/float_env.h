/*
 * The float environment the CPU runner computes in, against the one a kernel's descriptor
 * starts its waves in (RSRC1).  The runner rounds to nearest even and keeps denormals (MXCSR
 * FTZ and DAZ off, runner.c), and the raiser models gfx9's IEEE mode and DX10 clamp as LLVM
 * sets them for compute kernels (both on).  A kernel whose descriptor asks for another mode
 * and that has float instructions is refused: x86 has no per-width denormal flush, and the
 * hardware's flush rules are not ones we can check, so its results would be approximations
 * (docs/emulate.md, "Float modes").
 */
#ifndef MIRAGE_HOST_FLOAT_ENV_H
#define MIRAGE_HOST_FLOAT_ENV_H

#include "mirage/code_object.h"
#include "mirage/raise.h"

/* 0 when the runner computes kernel k (raised as res) as its hardware would; else -1 and *why,
 * a float-mode refusal at the kernel's first float instruction. */
int host_float_env_check(const struct code_object *co, const struct co_kernel *k,
                         const struct raise_result *res, struct raise_refusal *why);

#endif
