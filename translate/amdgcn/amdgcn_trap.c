/*
 * The entry a refused kernel gets in a partial translation (docs/translate.md, "Partial
 * objects"): a kernel of the same name whose only instruction is a trap, so that the object
 * loads with every kernel the program may look up, and a launch of this one stops in the trap
 * handler instead of running anything.  Its launch contract (.args, the kernarg size) is the
 * source's, carried over by the rewriter like every kernel's.
 */
#include "amdgcn.h"

#include <string.h>

LLVMModuleRef amdgcn_trap_kernel(LLVMContextRef ctx, LLVMTargetMachineRef tm, const char *name)
{
	static const char trap[] = "llvm.trap";
	LLVMModuleRef m = LLVMModuleCreateWithNameInContext(name, ctx);
	LLVMTypeRef fn_type = LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, 0);
	LLVMValueRef fn = LLVMAddFunction(m, name, fn_type);
	unsigned id = LLVMLookupIntrinsicID(trap, strlen(trap));
	LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);

	LLVMSetFunctionCallConv(fn, LLVMAMDGPUKERNELCallConv);
	LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, "entry"));
	LLVMBuildCall2(b, LLVMIntrinsicGetType(ctx, id, NULL, 0),
	               LLVMGetIntrinsicDeclaration(m, id, NULL, 0), NULL, 0, "");
	LLVMBuildUnreachable(b);
	LLVMDisposeBuilder(b);
	amdgcn_prepare_module(m, tm);
	return m;
}
