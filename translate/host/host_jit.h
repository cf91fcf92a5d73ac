/*
 * The host binding and the JIT: every `mx.*` hook of a raised module becomes a call into the
 * CPU runner (runner_hook_address), the module is checked to hold no `llvm.amdgcn.*` (which
 * would abort the process in the x86 backend) and no unbound hook, optimised (mem2reg,
 * default<O2>) and compiled by ORC LLJIT; or, for a module whose shape makes that take
 * minutes, compiled as raised at -O0 (host_tier_for).
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

/* What decides the compile tier: the blocks of the module, its switches' edges (a raised
 * call's return is a switch over the return addresses), and its instructions. */
struct host_shape {
	size_t blocks, switch_edges, instructions;
};
struct host_shape host_shape_of(LLVMModuleRef m);

enum host_tier {
	HOST_TIER_OPT,   /* mem2reg and default<O2>, then codegen at -O2 */
	HOST_TIER_QUICK, /* the module as raised, codegen at -O0 */
};

/* The tier for a module of shape s; forced ("opt" or "quick", from $MIRAGE_JIT_TIER) wins,
 * anything else is the automatic choice. */
enum host_tier host_tier_for(struct host_shape s, const char *forced);

struct host_jit;

/*
 * Binds, optimises (at the tier host_tier_for picks) and JIT-compiles module m (created in ctx;
 * both are consumed, whatever the outcome) and looks up function fn.  Returns the JIT
 * (host_jit_free) and *entry, or NULL with msg.
 */
struct host_jit *host_jit_compile(LLVMContextRef ctx, LLVMModuleRef m, const char *fn,
                                  void (**entry)(void), char *msg, size_t size);
void host_jit_free(struct host_jit *j);

#endif
