/*
 * The host binding and the JIT: every `mx.*` hook of a raised module becomes a call into the
 * CPU runner (runner_hook_address), the module is checked to hold no `llvm.amdgcn.*` (which
 * would abort the process in the x86 backend) and no unbound hook, optimised (mem2reg,
 * default<O2>) and compiled by ORC LLJIT.
 */
#ifndef MIRAGE_HOST_JIT_H
#define MIRAGE_HOST_JIT_H

#include <llvm-c/Core.h>
#include <stddef.h>

/* Renames each hook declaration to its runner symbol ("mirage_host.ballot").  Returns 0, or
 * -1 with msg naming the hook or intrinsic that cannot run on the host. */
int host_bind(LLVMModuleRef m, char *msg, size_t size);

/* Runs mem2reg and default<O2> on a bound module; 0 or -1 with msg. */
int host_optimize(LLVMModuleRef m, char *msg, size_t size);

struct host_jit;

/*
 * Binds, optimises and JIT-compiles module m (created in ctx; both are consumed, whatever
 * the outcome) and looks up function fn.  Returns the JIT (host_jit_free) and *entry, or
 * NULL with msg.
 */
struct host_jit *host_jit_compile(LLVMContextRef ctx, LLVMModuleRef m, const char *fn,
                                  void (**entry)(void), char *msg, size_t size);
void host_jit_free(struct host_jit *j);

#endif
