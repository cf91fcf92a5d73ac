/* The host binding (mx.* -> runner), the no-amdgcn check, and ORC LLJIT (host_jit.h). */
#include "host_jit.h"

#include "runner.h"

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HOST_PREFIX "mirage_host."

struct host_jit {
	LLVMOrcLLJITRef jit;
};

int host_bind(LLVMModuleRef m, char *msg, size_t size)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		size_t len;
		const char *name = LLVMGetValueName2(f, &len);
		char bound[96];
		if (!strncmp(name, "llvm.amdgcn.", 12)) {
			snprintf(msg, size, "%s is a target intrinsic the host cannot run", name);
			return -1;
		}
		if (strncmp(name, "mx.", 3))
			continue;
		if (!runner_hook_address(name)) {
			snprintf(msg, size, "hook %s has no host binding", name);
			return -1;
		}
		snprintf(bound, sizeof(bound), HOST_PREFIX "%s", name + 3);
		LLVMSetValueName2(f, bound, strlen(bound));
	}
	/* What is left must be bound hooks, definitions, or target-neutral intrinsics. */
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		size_t len;
		const char *name = LLVMGetValueName2(f, &len);
		if (!LLVMIsDeclaration(f) || !strncmp(name, HOST_PREFIX, strlen(HOST_PREFIX)) ||
		    (!strncmp(name, "llvm.", 5) && strncmp(name, "llvm.amdgcn.", 12)))
			continue;
		snprintf(msg, size, "%s is declared but neither a hook nor an intrinsic", name);
		return -1;
	}
	return 0;
}

/*
 * noimplicitfloat on every definition while O2 runs: the loop and SLP vectorizers skip such a
 * function.  The raised IR is one lane's scalar work, and on a 150 k-instruction kernel SLP
 * took most of O2's time (docs/translate.md, "Compile time").  Removed again before codegen.
 */
static void set_no_implicit_float(LLVMModuleRef m, int on)
{
	LLVMContextRef C = LLVMGetModuleContext(m);
	static const char name[] = "noimplicitfloat";
	unsigned kind = LLVMGetEnumAttributeKindForName(name, sizeof(name) - 1);
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f))
			continue;
		if (on)
			LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
			                        LLVMCreateEnumAttribute(C, kind, 0));
		else
			LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
	}
}

/*
 * The compile tier.  Calls in the raised code are jumps inside one function.  Raised inline
 * (raise_inline.c) each return is a switch of one case; shared by their callers, each return
 * is a switch over its function's return addresses or every one (raise.c), and at -O0, where
 * libclc's functions are calls, every block merges into every return site.  Promoting the
 * register slots to SSA there (mem2reg, O2 and the register allocator) grows with blocks times
 * switch edges, measured when every call was shared:
 * 2.8 s for 996 blocks and 2,610 edges, 38 s for 1,596 and 7,350, over 3 minutes for 2,078
 * and 15,578.  Past the bound the module is compiled as raised, its slots left in memory, by
 * the fast instruction selector: 0.1 to 0.3 s for those three, and 65,536 work-items of the
 * first run in 2.6 s against O2's 2.4 (docs/emulate.md, "Compile tiers").  The results are
 * the same: no pass changes what well-defined IR computes.
 */
#define HOST_QUICK_BOUND 1000000ull

/*
 * The other shape that takes minutes: a huge kernel, calls or not.  O2's register allocation
 * grows faster than the code: a straight-line kernel of 43 k raised instructions (14 k machine
 * instructions) took 3.7 s to compile at opt against 0.5 s at quick, one of 173 k (56 k) 28 s
 * against 1.8 s, and 150 k machine instructions ran past 10 minutes.  Its run is slower at
 * quick (the slots stay in memory: 11 ms against 0.5 ms for 64 work-items of the 56 k one),
 * which a launch of a million work-items of such a kernel would still pay back.
 */
#define HOST_QUICK_INSTRUCTIONS 150000u

struct host_shape host_shape_of(LLVMModuleRef m)
{
	struct host_shape s = {0, 0, 0};
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
		     b = LLVMGetNextBasicBlock(b)) {
			LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
			s.blocks++;
			if (t && LLVMGetInstructionOpcode(t) == LLVMSwitch)
				s.switch_edges += LLVMGetNumSuccessors(t);
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
			     i = LLVMGetNextInstruction(i))
				s.instructions++;
		}
	return s;
}

enum host_tier host_tier_for(struct host_shape s, const char *forced)
{
	if (forced && !strcmp(forced, "opt"))
		return HOST_TIER_OPT;
	if (forced && !strcmp(forced, "quick"))
		return HOST_TIER_QUICK;
	if ((unsigned long long)s.blocks * s.switch_edges > HOST_QUICK_BOUND ||
	    s.instructions > HOST_QUICK_INSTRUCTIONS)
		return HOST_TIER_QUICK;
	return HOST_TIER_OPT;
}

int host_optimize(LLVMModuleRef m, char *msg, size_t size)
{
	LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
	LLVMErrorRef e;
	set_no_implicit_float(m, 1);
	e = LLVMRunPasses(m, "default<O2>", NULL, o);
	set_no_implicit_float(m, 0);
	LLVMDisposePassBuilderOptions(o);
	if (e) {
		char *t = LLVMGetErrorMessage(e);
		snprintf(msg, size, "optimising the bound module: %s", t);
		LLVMDisposeErrorMessage(t);
		return -1;
	}
	return 0;
}

static int jit_error(LLVMErrorRef e, const char *what, char *msg, size_t size)
{
	char *t = LLVMGetErrorMessage(e);
	snprintf(msg, size, "%s: %s", what, t);
	LLVMDisposeErrorMessage(t);
	return -1;
}

/*
 * double -> half, which LLVM calls for an f16 fma (x86 computes it in double, where it is
 * exact, then rounds once); the C compiler's own conversion rounds to nearest even.
 */
static _Float16 truncdfhf2(double x)
{
	return (_Float16)x;
}

/* Symbols the compiled code may call besides the hooks: libm, the mem* family and the
 * compiler-runtime conversion above. */
static const struct {
	const char *name;
	void *fn;
} libc_syms[] = {
    {"fmaf", (void *)fmaf},           {"fma", (void *)fma},
    {"memcpy", (void *)memcpy},       {"memset", (void *)memset},
    {"memmove", (void *)memmove},     {"ldexpf", (void *)ldexpf},
    {"ldexp", (void *)ldexp},         {"frexpf", (void *)frexpf},
    {"frexp", (void *)frexp},         {"floorf", (void *)floorf},
    {"floor", (void *)floor},         {"ceilf", (void *)ceilf},
    {"ceil", (void *)ceil},           {"truncf", (void *)truncf},
    {"trunc", (void *)trunc},         {"roundevenf", (void *)roundevenf},
    {"roundeven", (void *)roundeven}, {"fminf", (void *)fminf},
    {"fmaxf", (void *)fmaxf},         {"fmin", (void *)fmin},
    {"fmax", (void *)fmax},           {"sqrtf", (void *)sqrtf},
    {"sqrt", (void *)sqrt},           {"__truncdfhf2", (void *)truncdfhf2},
};

static int define_symbols(LLVMOrcLLJITRef j, LLVMModuleRef m, char *msg, size_t size)
{
	size_t cap = sizeof(libc_syms) / sizeof(libc_syms[0]) + 64, n = 0;
	LLVMOrcCSymbolMapPair *pairs = calloc(cap, sizeof(*pairs));
	LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(j);
	LLVMErrorRef e;

	if (!pairs)
		return -1;
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f && n < cap; f = LLVMGetNextFunction(f)) {
		size_t len;
		const char *name = LLVMGetValueName2(f, &len);
		char hook[96];
		void *addr;
		if (strncmp(name, HOST_PREFIX, strlen(HOST_PREFIX)))
			continue;
		snprintf(hook, sizeof(hook), "mx.%s", name + strlen(HOST_PREFIX));
		addr = runner_hook_address(hook);
		pairs[n].Name = LLVMOrcLLJITMangleAndIntern(j, name);
		pairs[n].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)addr;
		pairs[n].Sym.Flags.GenericFlags =
		    LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
		n++;
	}
	for (size_t i = 0; i < sizeof(libc_syms) / sizeof(libc_syms[0]); i++, n++) {
		pairs[n].Name = LLVMOrcLLJITMangleAndIntern(j, libc_syms[i].name);
		pairs[n].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)libc_syms[i].fn;
		pairs[n].Sym.Flags.GenericFlags =
		    LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
	}
	e = LLVMOrcJITDylibDefine(jd, LLVMOrcAbsoluteSymbols(pairs, n));
	free(pairs);
	if (e)
		return jit_error(e, "defining the runner's symbols", msg, size);
	return 0;
}

/* An LLJIT for the host; the quick tier's target machine generates code at -O0 (fast-isel). */
static LLVMErrorRef create_jit(LLVMOrcLLJITRef *jit, enum host_tier tier)
{
	LLVMOrcJITTargetMachineBuilderRef jtmb;
	LLVMOrcLLJITBuilderRef builder;
	LLVMTargetMachineRef tm;
	LLVMTargetRef target;
	char *triple, *cpu, *features, *err = NULL;

	if (tier == HOST_TIER_OPT)
		return LLVMOrcCreateLLJIT(jit, NULL);
	triple = LLVMGetDefaultTargetTriple();
	if (LLVMGetTargetFromTriple(triple, &target, &err)) {
		LLVMErrorRef e = LLVMCreateStringError(err ? err : "no host target");
		LLVMDisposeMessage(err);
		LLVMDisposeMessage(triple);
		return e;
	}
	cpu = LLVMGetHostCPUName();
	features = LLVMGetHostCPUFeatures();
	tm = LLVMCreateTargetMachine(target, triple, cpu, features, LLVMCodeGenLevelNone,
	                             LLVMRelocDefault, LLVMCodeModelJITDefault);
	LLVMDisposeMessage(triple);
	LLVMDisposeMessage(cpu);
	LLVMDisposeMessage(features);
	jtmb = LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm); /* takes tm */
	builder = LLVMOrcCreateLLJITBuilder();
	LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(builder, jtmb); /* takes jtmb */
	return LLVMOrcCreateLLJIT(jit, builder);                      /* takes builder */
}

struct host_jit *host_jit_compile(LLVMContextRef ctx, LLVMModuleRef m, const char *fn,
                                  void (**entry)(void), char *msg, size_t size)
{
	struct host_jit *hj = calloc(1, sizeof(*hj));
	LLVMOrcThreadSafeContextRef tsc = NULL;
	LLVMOrcThreadSafeModuleRef tsm;
	LLVMOrcExecutorAddress addr = 0;
	enum host_tier tier;
	LLVMErrorRef e;

	*entry = NULL;
	if (!hj || host_bind(m, msg, size))
		goto fail_module;
	tier = host_tier_for(host_shape_of(m), getenv("MIRAGE_JIT_TIER"));
	if (tier == HOST_TIER_OPT && host_optimize(m, msg, size))
		goto fail_module;
	LLVMInitializeNativeTarget();
	LLVMInitializeNativeAsmPrinter();
	e = create_jit(&hj->jit, tier);
	if (e) {
		jit_error(e, "creating the JIT", msg, size);
		goto fail_module;
	}
	if (define_symbols(hj->jit, m, msg, size))
		goto fail_module;
	LLVMSetTarget(m, LLVMOrcLLJITGetTripleString(hj->jit));
	LLVMSetDataLayout(m, LLVMOrcLLJITGetDataLayoutStr(hj->jit));
	tsc = LLVMOrcCreateNewThreadSafeContextFromLLVMContext(ctx);
	tsm = LLVMOrcCreateNewThreadSafeModule(m, tsc);
	LLVMOrcDisposeThreadSafeContext(tsc);
	e = LLVMOrcLLJITAddLLVMIRModule(hj->jit, LLVMOrcLLJITGetMainJITDylib(hj->jit), tsm);
	if (e) {
		LLVMOrcDisposeThreadSafeModule(tsm);
		jit_error(e, "adding the module to the JIT", msg, size);
		host_jit_free(hj);
		return NULL;
	}
	e = LLVMOrcLLJITLookup(hj->jit, &addr, fn);
	if (e) {
		jit_error(e, "compiling the kernel", msg, size);
		host_jit_free(hj);
		return NULL;
	}
	*entry = (void (*)(void))(uintptr_t)addr;
	return hj;
fail_module:
	LLVMDisposeModule(m);
	LLVMContextDispose(ctx);
	host_jit_free(hj);
	return NULL;
}

void host_jit_free(struct host_jit *j)
{
	if (!j)
		return;
	if (j->jit)
		LLVMOrcDisposeLLJIT(j->jit);
	free(j);
}
