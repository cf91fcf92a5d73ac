/* Lowering (amdgcn.h): LLVM's AMDGPU TargetMachine, the pass pipelines, the object in memory. */
#include "amdgcn.h"

#include <llvm-c/Error.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRIPLE "amdgcn-amd-amdhsa"

static void init_amdgpu(void)
{
	LLVMInitializeAMDGPUTargetInfo();
	LLVMInitializeAMDGPUTarget();
	LLVMInitializeAMDGPUTargetMC();
	LLVMInitializeAMDGPUAsmPrinter();
}

LLVMTargetMachineRef amdgcn_target_machine(const struct amdgcn_target *t, char *msg, size_t size)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	LLVMTargetRef target;
	LLVMTargetMachineOptionsRef o;
	LLVMTargetMachineRef tm;
	char *err = NULL;

	pthread_once(&once, init_amdgpu);
	if (LLVMGetTargetFromTriple(TRIPLE, &target, &err)) {
		snprintf(msg, size, "LLVM has no AMDGPU target: %s", err ? err : "?");
		LLVMDisposeMessage(err);
		return NULL;
	}
	o = LLVMCreateTargetMachineOptions();
	LLVMTargetMachineOptionsSetCPU(o, t->name);
	LLVMTargetMachineOptionsSetRelocMode(o, LLVMRelocPIC);
	LLVMTargetMachineOptionsSetCodeGenOptLevel(o, LLVMCodeGenLevelDefault);
	tm = LLVMCreateTargetMachineWithOptions(target, TRIPLE, o);
	LLVMDisposeTargetMachineOptions(o);
	if (!tm)
		snprintf(msg, size, "LLVM cannot make a target machine for %s", t->name);
	return tm;
}

void amdgcn_prepare_module(LLVMModuleRef m, LLVMTargetMachineRef tm)
{
	LLVMContextRef C = LLVMGetModuleContext(m);
	LLVMTargetDataRef dl = LLVMCreateTargetDataLayout(tm);
	char *layout = LLVMCopyStringRepOfTargetData(dl);
	static const char flag[] = "amdhsa_code_object_version";

	LLVMSetTarget(m, TRIPLE);
	LLVMSetDataLayout(m, layout);
	LLVMDisposeMessage(layout);
	LLVMDisposeTargetData(dl);
	/* Code object v5, whatever LLVM's default: the hidden block layout the source has. */
	LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorError, flag, sizeof(flag) - 1,
	                  LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(C), 500, 0)));
}

static int run_passes(LLVMModuleRef m, const char *pipeline, const char *name,
                      LLVMTargetMachineRef tm, char *msg, size_t size)
{
	LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
	LLVMErrorRef e = LLVMRunPasses(m, pipeline, tm, o);
	LLVMDisposePassBuilderOptions(o);
	if (e) {
		char *t = LLVMGetErrorMessage(e);
		snprintf(msg, size, "running %s: %s", name, t);
		LLVMDisposeErrorMessage(t);
		return -1;
	}
	return 0;
}

int amdgcn_run_passes(LLVMModuleRef m, const char *pipeline, LLVMTargetMachineRef tm, char *msg,
                      size_t size)
{
	return run_passes(m, pipeline, pipeline, tm, msg, size);
}

int amdgcn_optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, char *msg, size_t size)
{
	static const char o2[] =
#include "amdgcn_o2_pipeline.inc"
	    ;
	return run_passes(m, o2, "LLVM's O2 pipeline", tm, msg, size);
}

int amdgcn_emit_object(LLVMModuleRef m, LLVMTargetMachineRef tm, unsigned char **obj,
                       size_t *obj_size, char *msg, size_t size)
{
	LLVMMemoryBufferRef buf = NULL;
	char *err = NULL;

	*obj = NULL;
	*obj_size = 0;
	if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMObjectFile, &err, &buf)) {
		snprintf(msg, size, "LLVM cannot emit the object: %s", err ? err : "?");
		LLVMDisposeMessage(err);
		return -1;
	}
	*obj_size = LLVMGetBufferSize(buf);
	*obj = malloc(*obj_size ? *obj_size : 1);
	if (*obj)
		memcpy(*obj, LLVMGetBufferStart(buf), *obj_size);
	LLVMDisposeMemoryBuffer(buf);
	if (!*obj) {
		snprintf(msg, size, "out of memory");
		return -1;
	}
	return 0;
}
