/*
 * Whole-wave mode (amdgcn.h, docs/translate.md "Whole-wave mode"), for a kernel whose EXEC
 * writes or lane writes are not proven within the lanes its source wave launched.  On the
 * source every one of a wave's 32 lanes exists whatever EXEC holds: clang's whole-wave spill
 * code enables the unlaunched lanes of a partial wave and v_writelane writes any lane.  Here
 * the wave64 runs with all 64 lanes on (llvm.amdgcn.init.whole.wave), the raised code's own
 * EXEC, which starts as the launched lanes, predicating each one, so each half holds all 32
 * lanes of its source wave.  A half with no launched lane has no source wave: it leaves at
 * entry, so nothing it would compute in whole-wave mode reaches memory.
 */
#include "amdgcn.h"

#include <stdio.h>

LLVMValueRef amdgcn_whole_wave_entry(LLVMModuleRef m, LLVMValueRef kernel, char *msg, size_t size)
{
	LLVMContextRef C = LLVMGetModuleContext(m);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(C), i64 = LLVMInt64TypeInContext(C);
	LLVMBasicBlockRef body = LLVMGetEntryBasicBlock(kernel), entry, phantom;
	LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
	LLVMValueRef launched = NULL, on, lane, args[2], i, next;

	entry = LLVMInsertBasicBlockInContext(C, body, "whole.wave");
	phantom = LLVMAppendBasicBlockInContext(C, kernel, "no.source.wave");
	/* The body's static allocas move to the new entry block, or they would become dynamic. */
	for (i = LLVMGetFirstInstruction(body); i; i = next) {
		next = LLVMGetNextInstruction(i);
		if (!LLVMIsAAllocaInst(i) || !LLVMIsAConstant(LLVMGetOperand(i, 0)))
			continue;
		LLVMInstructionRemoveFromParent(i);
		LLVMPositionBuilderAtEnd(B, entry);
		LLVMInsertIntoBuilder(B, i);
	}
	LLVMPositionBuilderAtEnd(B, entry);
	on = amdgcn_call_intrinsic(m, B, "llvm.amdgcn.init.whole.wave", NULL, 0, NULL, 0);
	if (on)
		launched = amdgcn_call_intrinsic(m, B, "llvm.amdgcn.ballot", &i64, 1, &on, 1);
	args[0] = LLVMConstInt(i32, UINT32_MAX, 0);
	args[1] = LLVMConstInt(i32, 0, 0);
	args[1] = amdgcn_call_intrinsic(m, B, "llvm.amdgcn.mbcnt.lo", NULL, 0, args, 2);
	lane =
	    args[1] ? amdgcn_call_intrinsic(m, B, "llvm.amdgcn.mbcnt.hi", NULL, 0, args, 2) : NULL;
	if (!launched || !lane) {
		snprintf(msg, size, "LLVM lacks llvm.amdgcn.init.whole.wave, ballot or mbcnt");
		LLVMDisposeBuilder(B);
		return NULL;
	}
	{
		LLVMValueRef half =
		    LLVMBuildZExt(B, LLVMBuildAnd(B, lane, LLVMConstInt(i32, 32, 0), ""), i64, "");
		LLVMValueRef mine =
		    LLVMBuildTrunc(B, LLVMBuildLShr(B, launched, half, ""), i32, "half.launched");
		LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntNE, mine, LLVMConstInt(i32, 0, 0), ""),
		                body, phantom);
	}
	LLVMPositionBuilderAtEnd(B, phantom);
	LLVMBuildRetVoid(B);
	LLVMDisposeBuilder(B);
	return launched;
}
