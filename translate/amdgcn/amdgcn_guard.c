/*
 * The launch guard (amdgcn.h, docs/translate.md "The launch guard"): a kernel whose EXEC
 * writes or lane writes are not proven within the lanes its source wave launched is exact
 * when every source wave is full, that is when this workgroup's work-item count is a multiple
 * of 32.  Anything else traps at entry: never a silent wrong result.
 *
 * The count comes from the dispatch packet (hsa_kernel_dispatch_packet_t: workgroup_size_x..z
 * u16 at 4, 6, 8; grid_size_x..z u32 at 12, 16, 20) and the workgroup ids: per dimension
 * min(wg, grid - id * wg), the last workgroup of a dimension being partial.  The packet is
 * what the hardware formed the waves from and is always there; the COV5 hidden arguments are
 * there only when the source declares them.
 */
#include "amdgcn.h"

#include <stdio.h>
#include <string.h>

static LLVMValueRef call(LLVMModuleRef m, LLVMBuilderRef B, const char *name)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMContextRef C = LLVMGetModuleContext(m);
	return id ? LLVMBuildCall2(B, LLVMIntrinsicGetType(C, id, NULL, 0),
	                           LLVMGetIntrinsicDeclaration(m, id, NULL, 0), NULL, 0, "")
	          : NULL;
}

/* The packet's field at offset off, of type ty, as an i64. */
static LLVMValueRef packet_field(LLVMBuilderRef B, LLVMValueRef packet, unsigned off,
                                 LLVMTypeRef ty, unsigned bytes, LLVMTypeRef i8, LLVMTypeRef i64)
{
	LLVMValueRef idx = LLVMConstInt(i64, off, 0);
	LLVMValueRef p = LLVMBuildInBoundsGEP2(B, i8, packet, &idx, 1, "");
	LLVMValueRef v = LLVMBuildLoad2(B, ty, p, "");
	LLVMSetAlignment(v, bytes);
	return LLVMBuildZExt(B, v, i64, "");
}

int amdgcn_launch_guard(LLVMModuleRef m, LLVMValueRef kernel, char *msg, size_t size)
{
	static const char *const ids[3] = {"llvm.amdgcn.workgroup.id.x",
	                                   "llvm.amdgcn.workgroup.id.y",
	                                   "llvm.amdgcn.workgroup.id.z"};
	LLVMContextRef C = LLVMGetModuleContext(m);
	LLVMTypeRef i8 = LLVMInt8TypeInContext(C), i16 = LLVMInt16TypeInContext(C);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(C), i64 = LLVMInt64TypeInContext(C);
	LLVMBasicBlockRef body = LLVMGetEntryBasicBlock(kernel), guard, trap;
	LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
	LLVMValueRef packet, count = LLVMConstInt(i64, 1, 0), ragged, i, next;

	guard = LLVMInsertBasicBlockInContext(C, body, "launch.guard");
	trap = LLVMAppendBasicBlockInContext(C, kernel, "launch.ragged");
	LLVMPositionBuilderAtEnd(B, guard);
	packet = call(m, B, "llvm.amdgcn.dispatch.ptr");
	if (!packet) {
		snprintf(msg, size, "LLVM has no intrinsic llvm.amdgcn.dispatch.ptr");
		LLVMDisposeBuilder(B);
		return -1;
	}
	for (unsigned d = 0; d < 3; d++) {
		LLVMValueRef wg = packet_field(B, packet, 4 + 2 * d, i16, 2, i8, i64);
		LLVMValueRef grid = packet_field(B, packet, 12 + 4 * d, i32, 4, i8, i64);
		LLVMValueRef id = LLVMBuildZExt(B, call(m, B, ids[d]), i64, "");
		LLVMValueRef left = LLVMBuildSub(B, grid, LLVMBuildMul(B, id, wg, ""), "");
		LLVMValueRef n =
		    LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntULT, left, wg, ""), left, wg, "");
		count = LLVMBuildMul(B, count, n, "");
	}
	ragged = LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B, count, LLVMConstInt(i64, 31, 0), ""),
	                       LLVMConstInt(i64, 0, 0), "launch.ragged");
	LLVMBuildCondBr(B, ragged, trap, body);
	LLVMPositionBuilderAtEnd(B, trap);
	call(m, B, "llvm.trap");
	LLVMBuildUnreachable(B);
	/* The body's static allocas stay in the entry block, or they would become dynamic. */
	for (i = LLVMGetFirstInstruction(body); i; i = next) {
		next = LLVMGetNextInstruction(i);
		if (!LLVMIsAAllocaInst(i) || !LLVMIsAConstant(LLVMGetOperand(i, 0)))
			continue;
		LLVMInstructionRemoveFromParent(i);
		LLVMPositionBuilderBefore(B, LLVMGetFirstInstruction(guard));
		LLVMInsertIntoBuilder(B, i);
	}
	LLVMDisposeBuilder(B);
	return 0;
}
