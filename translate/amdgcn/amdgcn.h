/*
 * The amdgcn side of the translator (docs/translate.md): a raised gfx1250 kernel (wave32) bound
 * to amdgcn intrinsics for a wave64 target (gfx942, gfx950) under the WaveNative projection,
 * proven, lowered by LLVM's TargetMachine, linked by ld.lld and its descriptor validated.
 * One file per step; amdgcn_translate.c strings them together behind translate_object.
 */
#ifndef MIRAGE_AMDGCN_H
#define MIRAGE_AMDGCN_H

#include "mirage/code_object.h"
#include "mirage/raise.h"

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>
#include <stddef.h>
#include <stdint.h>

/* A wave64 target the translator lowers for (one table, amdgcn_target.c). */
struct amdgcn_target {
	const char *name; /* "gfx942": LLVM's -mcpu and the caller's spelling */
	unsigned arch;    /* its decoder table (enum isa_arch): isa_arch_lds_limit gives its LDS */
};
const struct amdgcn_target *amdgcn_target_find(const char *name);
/* "gfx942, gfx950", for messages. */
const char *amdgcn_target_list(void);

/* The marker amdgcn_mark_exec_writes puts before every EXEC store (proof only). */
#define AMDGCN_EXEC_WRITE "mirage.exec_write"

/*
 * WaveNative proofs (amdgcn_proof.c).  Before mem2reg, amdgcn_mark_exec_writes() makes each
 * store to the raised EXEC a call of AMDGCN_EXEC_WRITE(value, pc) too, so that after mem2reg
 * the SSA value each write stores is known; amdgcn_prove_wave_native() then proves every one
 * within the entry EXEC and every barrier independent of branches that may differ between the
 * two halves, removes the markers, and returns 0, or -1 with *why filled (kernel, pc,
 * mnemonic from co, reason, detail).  It returns 1 when the only failure is an EXEC write not
 * proven within the entry EXEC or a v_writelane to a lane other than 0: *why names the first
 * such site, and the kernel is exact in whole-wave mode (amdgcn_whole_wave_entry()).
 */
void amdgcn_mark_exec_writes(LLVMModuleRef m, LLVMValueRef fn);
int amdgcn_prove_wave_native(LLVMModuleRef m, LLVMValueRef fn, const struct code_object *co,
                             const struct co_kernel *k, struct raise_refusal *why);

/*
 * The binding (amdgcn_bind.c): replaces the raised `void @<kernel>()` by an amdgpu_kernel of
 * the same name taking the source's kernarg segment as one byref([N x i8]) param, every mx.*
 * hook by amdgcn intrinsics under WaveNative, with the kernel attributes of the source (flat
 * workgroup size, LDS size, FP mode, reqd_work_group_size), in whole-wave mode if whole_wave.
 * image_of, for a kernel that reads its object's image (raise_result.reads_image), is that
 * object: its loaded image becomes a global of the translation, and a global or scalar access
 * at one of the object's addresses reads the copy.  The module must have the target's triple
 * and data layout.  Returns the kernel, or NULL with msg.
 */
LLVMValueRef amdgcn_bind(LLVMModuleRef m, LLVMValueRef raised, const struct co_kernel *k,
                         const struct code_object *image_of, uint32_t scratch_bytes, int whole_wave,
                         char *msg, size_t size);
/* A call of the intrinsic name (overloaded on over) at B in m, or NULL when LLVM lacks it. */
LLVMValueRef amdgcn_call_intrinsic(LLVMModuleRef m, LLVMBuilderRef B, const char *name,
                                   LLVMTypeRef *over, unsigned nover, LLVMValueRef *args,
                                   unsigned nargs);
/*
 * Whole-wave mode (amdgcn_whole_wave.c): a new entry block, holding kernel's static allocas,
 * turns every lane of the wave64 on (llvm.amdgcn.init.whole.wave) and ends the lanes of a
 * half that launched none.  Returns the i64 ballot of the launched lanes, the raised code's
 * entry EXEC, or NULL with msg.
 */
LLVMValueRef amdgcn_whole_wave_entry(LLVMModuleRef m, LLVMValueRef kernel, char *msg, size_t size);
/* After optimisation: the amdgpu-no-* attributes for every input the kernel no longer reads. */
void amdgcn_no_input_attributes(LLVMValueRef kernel);

/* Lowering (amdgcn_lower.c). */
LLVMTargetMachineRef amdgcn_target_machine(const struct amdgcn_target *t, char *msg, size_t size);
/* Sets m's triple, data layout and code object version for tm. */
void amdgcn_prepare_module(LLVMModuleRef m, LLVMTargetMachineRef tm);
/* A module holding a kernel named name that only traps: a refused kernel's entry in a partial
 * translation (amdgcn_trap.c). */
LLVMModuleRef amdgcn_trap_kernel(LLVMContextRef ctx, LLVMTargetMachineRef tm, const char *name);
/* Runs the pipeline text (e.g. "mem2reg") on m; tm may be NULL. */
int amdgcn_run_passes(LLVMModuleRef m, const char *pipeline, LLVMTargetMachineRef tm, char *msg,
                      size_t size);
/* Optimises m for tm: LLVM's O2 without two passes (amdgcn_o2_pipeline.inc says which, why). */
int amdgcn_optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, char *msg, size_t size);
/* Emits m as a relocatable object into *obj (malloc'd). */
int amdgcn_emit_object(LLVMModuleRef m, LLVMTargetMachineRef tm, unsigned char **obj,
                       size_t *obj_size, char *msg, size_t size);

/*
 * Parallel translation (amdgcn_chunks.c).  An object of n kernels is cut into
 * amdgcn_chunk_count(n) chunks of consecutive kernels (1 below 16 kernels), chunk c holding
 * amdgcn_chunk_range's kernels; each is raised, optimised and emitted in an LLVM context of its
 * own, and the objects are linked in chunk order.
 */
size_t amdgcn_chunk_count(size_t nkernels);
void amdgcn_chunk_range(size_t nkernels, size_t nchunks, size_t c, size_t *first, size_t *count);
/* Threads for one translation: $HSA_HOTSWAP_JOBS when it is 1 to 256, else the CPUs the
 * calling thread may run on (sched_getaffinity), else 1. */
unsigned amdgcn_jobs(void);
/* Calls fn(ctx, c) once for every c below n, on up to jobs threads, the caller's among them
 * (one job starts none); returns when all are done.  A thread that cannot start leaves its
 * share to the others. */
void amdgcn_run_chunks(size_t n, unsigned jobs, void (*fn)(void *ctx, size_t c), void *ctx);

/* A relocatable object in memory, one chunk's (amdgcn_translate.c). */
struct amdgcn_object {
	unsigned char *bytes;
	size_t size;
};
/*
 * Linking (amdgcn_link.c): `ld.lld -shared` of n relocatable objects (1 to 64), in that order,
 * in a private temporary directory, without a shell.  The linker is $MIRAGE_LLD when it is set,
 * else lld in this process (amdgcn_lld_link), else, where the build has no lld library or lld
 * cannot run again, the HotSwap tree's llvm-tools/ld.lld next to this library, else ld.lld-22
 * on PATH, else /usr/lib/llvm-22/bin/ld.lld.  Returns 0 and the ET_DYN image (malloc'd), or -1
 * with msg.
 */
int amdgcn_link(const struct amdgcn_object *objs, size_t n, unsigned char **image,
                size_t *image_size, char *msg, size_t size);
/*
 * lld in process (amdgcn_lld.cpp, when the build has liblld-22-dev: MIRAGE_HAVE_LLD): runs
 * `ld.lld` with argv (argv[0] the program name).  Returns 0 linked, 1 lld refused the link (msg:
 * its first line), -1 lld cannot run here (any more): spawn a linker instead.
 */
int amdgcn_lld_link(const char *const *argv, int argc, char *msg, size_t size);
/*
 * The linker amdgcn_link runs, in that order, with lib_dir the directory of the library whose
 * HotSwap tree is searched (common/tree_tools.h; NULL: none): its path into out, or -1 with
 * msg.
 */
int amdgcn_find_linker(const char *lib_dir, char *out, size_t size, char *msg, size_t msize);

/*
 * Descriptor validation (amdgcn_validate.c): kernel out of the linked object against its
 * source src for target t.  Returns 0, or -1 with detail saying which check failed.
 */
int amdgcn_validate(const struct co_kernel *out, const struct co_kernel *src,
                    const struct amdgcn_target *t, uint32_t scratch_bytes, char *detail,
                    size_t size);

#endif
