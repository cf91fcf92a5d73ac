/*
 * The raiser: one kernel (gfx1250, wave32; or gfx942/gfx950, wave64: the decoder table and the
 * wave size follow the object's processor) with its extent, plus the helper functions it
 * calls, becomes one per-lane SPMD LLVM function, built through the LLVM-C API (docs/raiser.md).
 * One LLVM thread is one lane; every architectural register is an alloca; VGPR writes and
 * lane-visible memory accesses are predicated on the lane's EXEC bit; scalar control flow stays
 * uniform.  The module declares environment hooks (`mx.*`, raise_hooks.def) instead of target
 * intrinsics; a binding (translate/host for the CPU) replaces them.
 */
#ifndef MIRAGE_RAISE_H
#define MIRAGE_RAISE_H

#include "mirage/code_object.h"

#include <llvm-c/Core.h>
#include <stddef.h>
#include <stdint.h>

/* Why a kernel is refused: one table (raise_reasons.def), codes and texts. */
enum raise_reason {
#define RAISE_REASON(id, code, text) RAISE_##id,
#include "mirage/raise_reasons.def"
#undef RAISE_REASON
	RAISE_REASON_COUNT
};
const char *raise_reason_code(enum raise_reason r); /* "unknown-instruction" */
const char *raise_reason_text(enum raise_reason r); /* "no table row decodes it" */

struct raise_refusal {
	char kernel[128];
	uint64_t offset; /* the instruction's address, as llvm-objdump prints it */
	char mnemonic[48];
	enum raise_reason reason;
	char detail[160];
};

/* An instruction of the raised code: its address (llvm-objdump's) and mnemonic. */
struct raise_site {
	uint64_t offset;
	char mnemonic[48];
};

/* The raised kernel: its function in module, and the facts the runner needs. */
struct raise_result {
	LLVMModuleRef module;
	LLVMValueRef function;  /* void @"<kernel>"() */
	size_t instructions;    /* machine instructions raised */
	uint32_t scratch_bytes; /* per lane: private segment (+ dynamic stack when used) */
	int uses_calls;
	unsigned wave_size; /* lanes per wave: 32 (gfx12.5) or 64 (gfx9.4), from the ISA */
	/* The first instruction with float sources (its row's ISA_F_FLOAT or ISA_F_F16), when
	 * has_float: what the descriptor's float mode applies to (translate/host/float_env.h). */
	int has_float;
	struct raise_site first_float;
	/* The kernel takes addresses from its own code address (an s_get_pc_i64 that starts no
	 * long branch): it reads its object's data, .rodata tables and the like, so the bindings
	 * map the object's loaded image (code_object.h) at the object's addresses. */
	int reads_image;
};

/*
 * Raises kernel k of co into a new module in ctx.  Returns 0 and *res, or -1 and *why (the
 * first refusal).  The module is verified (LLVMVerifyModule and raise_verify_invariant)
 * before it is returned; a verifier failure is a refusal with reason RAISER_BUG.
 */
int raise_kernel(LLVMContextRef ctx, const struct code_object *co, const struct co_kernel *k,
                 struct raise_result *res, struct raise_refusal *why);

/*
 * The invariant of every raised module: conditional branches are either lane predication
 * (tagged !mirage.lane_pred, their bodies free of cross-lane hooks and barriers) or
 * wave-uniform (their condition derives from scalar state only); every SGPR/EXEC/VCC/SCC
 * store is uniform (reaches per-lane values only through cross-lane hooks).  Returns 0, or
 * -1 with msg (size bytes) saying which instruction breaks it.
 */
int raise_verify_invariant(LLVMModuleRef m, char *msg, size_t size);

/*
 * Generic (flat) address apertures the raised code sees: scratch at PRIVATE (the lane in the
 * high dword, the scratch offset in the low one), LDS at SHARED.  Far above any host address.
 */
#define RAISE_APERTURE_PRIVATE UINT64_C(0x1000000000000000)
#define RAISE_APERTURE_SHARED  UINT64_C(0x2000000000000000)
#define RAISE_APERTURE_SIZE    (UINT64_C(1) << 59)

/* Names of the hooks, from raise_hooks.def. */
#define RAISE_HOOK_PREFIX "mx."

#endif
