/*
 * The amdgcn binding (amdgcn.h): the raised kernel becomes an amdgpu_kernel for a wave64
 * target, each mx.* hook an amdgcn intrinsic under WaveNative (docs/translate.md): one wave64
 * runs two consecutive source wave32s, lanes 0-31 the first and 32-63 the second, so every
 * cross-lane hook works within the lane's half.
 */
#include "amdgcn.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum hook {
#define RAISE_HOOK(id, name, ret, args, kind) H_##id,
#include "mirage/raise_hooks.def"
#undef RAISE_HOOK
	H_COUNT
};

static const char *const hook_name[H_COUNT] = {
#define RAISE_HOOK(id, name, ret, args, kind) [H_##id] = name,
#include "mirage/raise_hooks.def"
#undef RAISE_HOOK
};

/* The hardware-approximate float ops: the amdgcn intrinsic of each (the same hardware
 * instruction as the source's; v_sin/v_cos take turns on both families, as the raiser
 * passes them). */
static const struct {
	enum hook hook;
	const char *intrinsic;
	int f64;
} approx[] = {
    {H_RCP_F32, "llvm.amdgcn.rcp", 0},   {H_RSQ_F32, "llvm.amdgcn.rsq", 0},
    {H_SQRT_F32, "llvm.amdgcn.sqrt", 0}, {H_EXP_F32, "llvm.amdgcn.exp2", 0},
    {H_LOG_F32, "llvm.amdgcn.log", 0},   {H_SIN_F32, "llvm.amdgcn.sin", 0},
    {H_COS_F32, "llvm.amdgcn.cos", 0},   {H_RCP_F64, "llvm.amdgcn.rcp", 1},
    {H_RSQ_F64, "llvm.amdgcn.rsq", 1},   {H_SQRT_F64, "llvm.amdgcn.sqrt", 1},
};

struct bind {
	LLVMContextRef C;
	LLVMModuleRef M;
	LLVMBuilderRef B;
	LLVMValueRef kernel, kernarg;
	LLVMTypeRef i1, i8, i32, i64, f32, f64, ptr, p1, p3, p5;
	/* Computed once at entry: the lane within its half, the half's base lane (0 or 32,
	 * i64), the wave64's launched lanes. */
	LLVMValueRef lane, half64, entry_ballot;
	LLVMValueRef scratch; /* the source's private segment, per lane (or NULL) */
	/* The translation's copy of the source object's loaded image, for a kernel that reads
	 * it (raise_result.reads_image), and the source addresses it stands for; else NULL. */
	LLVMValueRef image;
	uint64_t image_addr, image_size;
	const struct co_kernel *k;
	uint32_t scratch_bytes;
	int generic_apertures, whole_wave;
	char *msg;
	size_t size;
	int failed;
};

static void failf(struct bind *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(struct bind *b, const char *fmt, ...)
{
	va_list ap;
	if (b->failed)
		return;
	b->failed = 1;
	va_start(ap, fmt);
	vsnprintf(b->msg, b->size, fmt, ap);
	va_end(ap);
}

static LLVMValueRef c32(struct bind *b, uint64_t v)
{
	return LLVMConstInt(b->i32, v, 0);
}
static LLVMValueRef c64(struct bind *b, uint64_t v)
{
	return LLVMConstInt(b->i64, v, 0);
}

LLVMValueRef amdgcn_call_intrinsic(LLVMModuleRef m, LLVMBuilderRef B, const char *name,
                                   LLVMTypeRef *over, unsigned nover, LLVMValueRef *args,
                                   unsigned nargs)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	if (!id)
		return NULL;
	return LLVMBuildCall2(B, LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, over, nover),
	                      LLVMGetIntrinsicDeclaration(m, id, over, nover), args, nargs, "");
}

static LLVMValueRef intrinsic(struct bind *b, const char *name, LLVMTypeRef *over, unsigned nover,
                              LLVMValueRef *args, unsigned nargs)
{
	LLVMValueRef v = amdgcn_call_intrinsic(b->M, b->B, name, over, nover, args, nargs);
	if (!v) {
		failf(b, "LLVM has no intrinsic %s", name);
		return LLVMGetUndef(over && nover ? over[0] : b->i32);
	}
	return v;
}

/* A 64-lane ballot of p, then the 32 bits of this lane's half. */
static LLVMValueRef half_slice(struct bind *b, LLVMValueRef mask64)
{
	return LLVMBuildTrunc(b->B, LLVMBuildLShr(b->B, mask64, b->half64, ""), b->i32, "");
}

static LLVMValueRef ballot(struct bind *b, LLVMValueRef p)
{
	LLVMTypeRef over[1] = {b->i64};
	return intrinsic(b, "llvm.amdgcn.ballot", over, 1, &p, 1);
}

/* The value v of lane idx (0..31) of this lane's half: ds_bpermute by byte address. */
static LLVMValueRef half_lane(struct bind *b, LLVMValueRef v, LLVMValueRef idx)
{
	LLVMValueRef lane = LLVMBuildOr(b->B, LLVMBuildTrunc(b->B, b->half64, b->i32, ""),
	                                LLVMBuildAnd(b->B, idx, c32(b, 31), ""), "");
	LLVMValueRef args[2] = {LLVMBuildShl(b->B, lane, c32(b, 2), ""), v};
	return intrinsic(b, "llvm.amdgcn.ds.bpermute", NULL, 0, args, 2);
}

static LLVMValueRef workitem_id(struct bind *b, unsigned d)
{
	static const char *const n[3] = {"llvm.amdgcn.workitem.id.x", "llvm.amdgcn.workitem.id.y",
	                                 "llvm.amdgcn.workitem.id.z"};
	return intrinsic(b, n[d], NULL, 0, NULL, 0);
}

static LLVMValueRef workgroup_id(struct bind *b, LLVMValueRef d)
{
	static const char *const n[3] = {"llvm.amdgcn.workgroup.id.x", "llvm.amdgcn.workgroup.id.y",
	                                 "llvm.amdgcn.workgroup.id.z"};
	LLVMValueRef v = c32(b, 0);
	if (LLVMIsAConstantInt(d)) {
		unsigned long long i = LLVMConstIntGetZExtValue(d);
		return i < 3 ? intrinsic(b, n[i], NULL, 0, NULL, 0) : v;
	}
	for (unsigned i = 0; i < 3; i++)
		v = LLVMBuildSelect(b->B, LLVMBuildICmp(b->B, LLVMIntEQ, d, c32(b, i), ""),
		                    intrinsic(b, n[i], NULL, 0, NULL, 0), v, "");
	return v;
}

/* v0 as gfx1250 packs it: x | y << 10 | z << 20, with the ids the source's RSRC2 enables. */
static LLVMValueRef packed_workitem_id(struct bind *b)
{
	unsigned ids = co_kd(b->k, "enable_vgpr_workitem_id");
	LLVMValueRef v = workitem_id(b, 0);
	if (ids >= 1)
		v = LLVMBuildOr(b->B, v, LLVMBuildShl(b->B, workitem_id(b, 1), c32(b, 10), ""), "");
	if (ids >= 2)
		v = LLVMBuildOr(b->B, v, LLVMBuildShl(b->B, workitem_id(b, 2), c32(b, 20), ""), "");
	return v;
}

/* The source's hidden_queue_ptr argument, read from the source kernarg bytes. */
static LLVMValueRef queue_ptr(struct bind *b)
{
	for (size_t i = 0; i < b->k->nargs; i++) {
		const struct co_arg *a = &b->k->args[i];
		LLVMValueRef p;
		if (!a->value_kind || strcmp(a->value_kind, "hidden_queue_ptr") || a->size != 8)
			continue;
		p = LLVMBuildGEP2(b->B, b->i8, b->kernarg, (LLVMValueRef[]){c64(b, a->offset)}, 1,
		                  "");
		return LLVMBuildLoad2(b->B, b->i64, p, "queue_ptr");
	}
	failf(b, "the kernel reads the queue pointer and its metadata has no hidden_queue_ptr");
	return c64(b, 0);
}

static LLVMValueRef flat(struct bind *b, LLVMValueRef p)
{
	return LLVMBuildAddrSpaceCast(b->B, p, b->ptr, "");
}

static LLVMValueRef scratch_at(struct bind *b, LLVMValueRef off32)
{
	if (!b->scratch) {
		failf(b, "the kernel addresses scratch and its private segment is empty");
		return LLVMConstNull(b->ptr);
	}
	return flat(b,
	            LLVMBuildGEP2(b->B, b->i8, b->scratch,
	                          (LLVMValueRef[]){LLVMBuildZExt(b->B, off32, b->i64, "")}, 1, ""));
}

static LLVMValueRef lds_at(struct bind *b, LLVMValueRef off32)
{
	return flat(b, LLVMBuildIntToPtr(b->B, off32, b->p3, ""));
}

/*
 * A generic address: global memory (addrspace 1, so LLVM can infer global loads), or, when
 * the kernel builds flat addresses from the raiser's apertures (mirage/raise.h), the lane's
 * scratch or the workgroup's LDS as those name them.
 */
/* A global address that lies in the source object's image: the copy's byte instead. */
static LLVMValueRef in_image(struct bind *b, LLVMValueRef addr, LLVMValueRef g)
{
	LLVMValueRef rel, in;
	if (!b->image)
		return g;
	rel = LLVMBuildSub(b->B, addr, c64(b, b->image_addr), "");
	in = LLVMBuildICmp(b->B, LLVMIntULT, rel, c64(b, b->image_size), "");
	return LLVMBuildSelect(b->B, in, flat(b, LLVMBuildGEP2(b->B, b->i8, b->image, &rel, 1, "")),
	                       g, "");
}

static LLVMValueRef global_at(struct bind *b, LLVMValueRef addr)
{
	LLVMValueRef g = in_image(b, addr, flat(b, LLVMBuildIntToPtr(b->B, addr, b->p1, "")));
	LLVMValueRef lo, in;
	if (!b->generic_apertures)
		return g;
	lo = LLVMBuildTrunc(b->B, addr, b->i32, "");
	in = LLVMBuildICmp(b->B, LLVMIntULT,
	                   LLVMBuildSub(b->B, addr, c64(b, RAISE_APERTURE_SHARED), ""),
	                   c64(b, RAISE_APERTURE_SIZE), "");
	g = LLVMBuildSelect(b->B, in, lds_at(b, lo), g, "");
	if (!b->scratch)
		return g;
	in = LLVMBuildICmp(b->B, LLVMIntULT,
	                   LLVMBuildSub(b->B, addr, c64(b, RAISE_APERTURE_PRIVATE), ""),
	                   c64(b, RAISE_APERTURE_SIZE), "");
	return LLVMBuildSelect(b->B, in, scratch_at(b, lo), g, "");
}

static LLVMValueRef approx_op(struct bind *b, enum hook h, LLVMValueRef x)
{
	for (size_t i = 0; i < sizeof(approx) / sizeof(approx[0]); i++) {
		LLVMTypeRef over[1];
		if (approx[i].hook != h)
			continue;
		over[0] = approx[i].f64 ? b->f64 : b->f32;
		return intrinsic(b, approx[i].intrinsic, over, 1, &x, 1);
	}
	failf(b, "hook %s has no amdgcn binding", hook_name[h]);
	return x;
}

/* The replacement of one hook call (the builder stands before it), or NULL for none. */
static LLVMValueRef bind_call(struct bind *b, enum hook h, LLVMValueRef call)
{
	LLVMValueRef a0 = LLVMGetNumArgOperands(call) > 0 ? LLVMGetOperand(call, 0) : NULL;
	LLVMValueRef a1 = LLVMGetNumArgOperands(call) > 1 ? LLVMGetOperand(call, 1) : NULL;

	switch (h) {
	case H_LANE_ID:
		return b->lane;
	case H_PACKED_TID:
		return packed_workitem_id(b);
	case H_WG_ID:
		return workgroup_id(b, a0);
	case H_ENTRY_EXEC:
		return half_slice(b, b->entry_ballot);
	case H_KERNARG:
		return LLVMBuildPtrToInt(b->B, b->kernarg, b->i64, "");
	case H_DISPATCH: {
		LLVMValueRef p = intrinsic(b, "llvm.amdgcn.dispatch.ptr", NULL, 0, NULL, 0);
		return LLVMBuildPtrToInt(b->B, p, b->i64, "");
	}
	case H_QUEUE:
		return queue_ptr(b);
	case H_SMEM:
		return in_image(b, a0, flat(b, LLVMBuildIntToPtr(b->B, a0, b->p1, "")));
	case H_GLOBAL:
		return global_at(b, a0);
	case H_LDS:
		return lds_at(b, a0);
	case H_SCRATCH:
		return scratch_at(b, a0);
	case H_BALLOT:
		return half_slice(b, ballot(b, a0));
	case H_READLANE:
		return half_lane(b, a0, a1);
	case H_READFIRSTLANE: {
		/* The first lane of the half's EXEC (a1, the source's), lane 0 when empty. */
		LLVMTypeRef over[1] = {b->i32};
		LLVMValueRef args[2] = {a1, LLVMConstInt(b->i1, 0, 0)};
		return half_lane(b, a0, intrinsic(b, "llvm.cttz", over, 1, args, 2));
	}
	case H_BARRIER:
		intrinsic(b, "llvm.amdgcn.s.barrier", NULL, 0, NULL, 0);
		return NULL;
	case H_WAVE_SYNC: /* a wave runs each LDS instruction for all its lanes at once */
		return NULL;
	case H_FENCE:
		LLVMBuildFenceSyncScope(b->B, LLVMAtomicOrderingSequentiallyConsistent,
		                        LLVMGetSyncScopeID(b->C, "agent", 5), "");
		return NULL;
	case H_FAULT:
		/* s_trap and a branch to no known address: the wave ends in the trap handler. */
		intrinsic(b, "llvm.trap", NULL, 0, NULL, 0);
		return NULL;
	default:
		return approx_op(b, h, a0);
	}
}

static enum hook hook_of(LLVMValueRef fn)
{
	size_t len;
	const char *name = LLVMGetValueName2(fn, &len);
	for (unsigned h = 0; h < H_COUNT; h++)
		if (!strcmp(name, hook_name[h]))
			return (enum hook)h;
	return H_COUNT;
}

static void bind_hook(struct bind *b, LLVMValueRef decl, enum hook h)
{
	size_t n = 0, cap = 16;
	LLVMValueRef *calls = malloc(cap * sizeof(*calls));

	for (LLVMUseRef u = LLVMGetFirstUse(decl); u && calls; u = LLVMGetNextUse(u)) {
		if (n == cap) {
			LLVMValueRef *more = realloc(calls, 2 * cap * sizeof(*calls));
			if (!more) {
				free(calls);
				calls = NULL;
				break;
			}
			calls = more;
			cap *= 2;
		}
		calls[n++] = LLVMGetUser(u);
	}
	if (!calls) {
		failf(b, "out of memory");
		return;
	}
	for (size_t i = 0; i < n && !b->failed; i++) {
		LLVMValueRef repl;
		if (!LLVMIsACallInst(calls[i]) || LLVMGetCalledValue(calls[i]) != decl) {
			failf(b, "hook %s is used other than called", hook_name[h]);
			break;
		}
		LLVMPositionBuilderBefore(b->B, calls[i]);
		repl = bind_call(b, h, calls[i]);
		if (repl)
			LLVMReplaceAllUsesWith(calls[i], repl);
		LLVMInstructionEraseFromParent(calls[i]);
	}
	free(calls);
}

/* Whether the raised code builds flat addresses from the apertures (their constants). */
static int uses_apertures(LLVMValueRef fn)
{
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			for (int o = 0; o < LLVMGetNumOperands(i); o++) {
				LLVMValueRef v = LLVMGetOperand(i, o);
				unsigned long long c;
				if (!LLVMIsAConstantInt(v) ||
				    LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
					continue;
				c = LLVMConstIntGetZExtValue(v);
				if (c >> 60 == 1 || c >> 60 == 2 || c >> 28 == 1 || c >> 28 == 2)
					if (c == RAISE_APERTURE_PRIVATE ||
					    c == RAISE_APERTURE_SHARED ||
					    c == RAISE_APERTURE_PRIVATE >> 32 ||
					    c == RAISE_APERTURE_SHARED >> 32 ||
					    c == (RAISE_APERTURE_PRIVATE + RAISE_APERTURE_SIZE -
					          1) >>
					             32 ||
					    c ==
					        (RAISE_APERTURE_SHARED + RAISE_APERTURE_SIZE - 1) >>
					            32)
						return 1;
			}
	return 0;
}

static void string_attr(struct bind *b, const char *key, const char *value)
{
	LLVMAddAttributeAtIndex(b->kernel, LLVMAttributeFunctionIndex,
	                        LLVMCreateStringAttribute(b->C, key, (unsigned)strlen(key), value,
	                                                  (unsigned)strlen(value)));
}

/* gfx1250 RSRC1 FLOAT_DENORM_MODE (0 flush in and out, 1 flush out, 2 flush in, 3 keep) as
 * LLVM's "output,input" denormal mode. */
static const char *denormal_mode(unsigned mode)
{
	static const char *const m[4] = {"preserve-sign,preserve-sign", "preserve-sign,ieee",
	                                 "ieee,preserve-sign", "ieee,ieee"};
	return m[mode & 3];
}

/* The kernel: amdgpu_kernel void @name(ptr addrspace(4) byref([N x i8]) align 16). */
static LLVMValueRef declare_kernel(struct bind *b, const char *name)
{
	LLVMTypeRef p4 = LLVMPointerTypeInContext(b->C, 4);
	LLVMTypeRef fty = LLVMFunctionType(LLVMVoidTypeInContext(b->C), &p4, 1, 0);
	LLVMValueRef f = LLVMAddFunction(b->M, name, fty);
	char v[48];

	b->kernel = f;
	LLVMSetFunctionCallConv(f, LLVMAMDGPUKERNELCallConv);
	LLVMAddAttributeAtIndex(f, 1,
	                        LLVMCreateTypeAttribute(b->C,
	                                                LLVMGetEnumAttributeKindForName("byref", 5),
	                                                LLVMArrayType2(b->i8, b->k->kernarg_size)));
	LLVMAddAttributeAtIndex(
	    f, 1, LLVMCreateEnumAttribute(b->C, LLVMGetEnumAttributeKindForName("align", 5), 16));
	snprintf(v, sizeof(v), "1,%u", b->k->max_flat_wg ? b->k->max_flat_wg : 1024);
	string_attr(b, "amdgpu-flat-work-group-size", v);
	if (co_kernel_lds(b->k)) {
		snprintf(v, sizeof(v), "%u,%u", co_kernel_lds(b->k), co_kernel_lds(b->k));
		string_attr(b, "amdgpu-lds-size", v);
	}
	string_attr(b, "denormal-fp-math-f32", denormal_mode(co_kd(b->k, "float_denorm_mode_32")));
	string_attr(b, "denormal-fp-math", denormal_mode(co_kd(b->k, "float_denorm_mode_16_64")));
	if (b->k->reqd_wg[0] && b->k->reqd_wg[1] && b->k->reqd_wg[2]) {
		LLVMMetadataRef dims[3];
		for (int d = 0; d < 3; d++)
			dims[d] = LLVMValueAsMetadata(c32(b, b->k->reqd_wg[d]));
		LLVMGlobalSetMetadata(f, LLVMGetMDKindIDInContext(b->C, "reqd_work_group_size", 20),
		                      LLVMMDNodeInContext2(b->C, dims, 3));
	}
	b->kernarg = LLVMGetParam(f, 0);
	return f;
}

/* Moves every block of from into to (empty), in order. */
static void move_body(LLVMContextRef C, LLVMValueRef from, LLVMValueRef to)
{
	LLVMBasicBlockRef tmp = LLVMAppendBasicBlockInContext(C, to, "");
	LLVMBasicBlockRef after = tmp, bb = LLVMGetFirstBasicBlock(from);
	while (bb) {
		LLVMBasicBlockRef next = LLVMGetNextBasicBlock(bb);
		LLVMMoveBasicBlockAfter(bb, after);
		after = bb;
		bb = next;
	}
	LLVMDeleteBasicBlock(tmp);
}

/* The entry values every binding shares, before the first instruction. */
static void entry_values(struct bind *b)
{
	LLVMBasicBlockRef body = LLVMGetEntryBasicBlock(b->kernel);
	LLVMValueRef args[2], lane64;
	LLVMPositionBuilderBefore(b->B, LLVMGetFirstInstruction(body));
	if (b->scratch_bytes || b->generic_apertures) {
		LLVMTypeRef t = LLVMArrayType2(b->i8, b->scratch_bytes ? b->scratch_bytes : 16);
		b->scratch = LLVMBuildAlloca(b->B, t, "private_segment");
		LLVMSetAlignment(b->scratch, 16);
	}
	if (b->whole_wave) {
		char msg[160];
		b->entry_ballot = amdgcn_whole_wave_entry(b->M, b->kernel, msg, sizeof(msg));
		if (!b->entry_ballot)
			failf(b, "%s", msg);
		LLVMPositionBuilderBefore(b->B, LLVMGetFirstInstruction(body));
	}
	args[0] = c32(b, UINT32_MAX);
	args[1] = c32(b, 0);
	args[1] = intrinsic(b, "llvm.amdgcn.mbcnt.lo", NULL, 0, args, 2);
	lane64 = intrinsic(b, "llvm.amdgcn.mbcnt.hi", NULL, 0, args, 2);
	b->lane = LLVMBuildAnd(b->B, lane64, c32(b, 31), "lane");
	b->half64 = LLVMBuildZExt(b->B, LLVMBuildAnd(b->B, lane64, c32(b, 32), ""), b->i64, "half");
	if (!b->whole_wave)
		b->entry_ballot = ballot(b, LLVMConstInt(b->i1, 1, 0));
}

/*
 * The source object's loaded image as a global of the translation, one for all its kernels
 * (linkonce_odr, merged when their modules are linked; hidden, so the loader exports no
 * symbol), page-aligned so the source's section alignments hold inside it.  Writable: a
 * kernel may write its program-scope variables.
 */
static LLVMValueRef image_global(struct bind *b, const struct code_object *co)
{
	static const char name[] = "mirage.image";
	LLVMValueRef g = LLVMGetNamedGlobal(b->M, name);

	if (g)
		return g;
	g = LLVMAddGlobalInAddressSpace(b->M, LLVMArrayType2(b->i8, co->image_size), name, 1);
	LLVMSetInitializer(
	    g, LLVMConstStringInContext2(b->C, (const char *)co->image, co->image_size, 1));
	LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
	LLVMSetVisibility(g, LLVMHiddenVisibility);
	LLVMSetAlignment(g, 4096);
	return g;
}

LLVMValueRef amdgcn_bind(LLVMModuleRef m, LLVMValueRef raised, const struct co_kernel *k,
                         const struct code_object *image_of, uint32_t scratch_bytes, int whole_wave,
                         char *msg, size_t size)
{
	struct bind b = {.M = m,
	                 .k = k,
	                 .scratch_bytes = scratch_bytes,
	                 .whole_wave = whole_wave,
	                 .msg = msg,
	                 .size = size};
	char tmpname[160];
	size_t len;

	b.C = LLVMGetModuleContext(m);
	b.i1 = LLVMInt1TypeInContext(b.C);
	b.i8 = LLVMInt8TypeInContext(b.C);
	b.i32 = LLVMInt32TypeInContext(b.C);
	b.i64 = LLVMInt64TypeInContext(b.C);
	b.f32 = LLVMFloatTypeInContext(b.C);
	b.f64 = LLVMDoubleTypeInContext(b.C);
	b.ptr = LLVMPointerTypeInContext(b.C, 0);
	b.p1 = LLVMPointerTypeInContext(b.C, 1);
	b.p3 = LLVMPointerTypeInContext(b.C, 3);
	b.p5 = LLVMPointerTypeInContext(b.C, 5);
	b.B = LLVMCreateBuilderInContext(b.C);
	b.generic_apertures = uses_apertures(raised);
	if (image_of && image_of->image_size) {
		b.image = image_global(&b, image_of);
		b.image_addr = image_of->image_addr;
		b.image_size = image_of->image_size;
	}

	snprintf(tmpname, sizeof(tmpname), "%s", LLVMGetValueName2(raised, &len));
	LLVMSetValueName2(raised, "", 0);
	declare_kernel(&b, tmpname);
	move_body(b.C, raised, b.kernel);
	LLVMDeleteFunction(raised);
	entry_values(&b);

	for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f && !b.failed; f = next) {
		enum hook h = hook_of(f);
		next = LLVMGetNextFunction(f);
		if (h == H_COUNT)
			continue;
		bind_hook(&b, f, h);
		LLVMDeleteFunction(f);
	}
	/* Nothing of the environment may be left: a hook that reaches codegen would be an
	 * external call the loader cannot resolve. */
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f && !b.failed; f = LLVMGetNextFunction(f)) {
		const char *name = LLVMGetValueName2(f, &len);
		if (LLVMIsDeclaration(f) && strncmp(name, "llvm.", 5))
			failf(&b, "%s is declared but is neither bound nor an intrinsic", name);
	}
	LLVMDisposeBuilder(b.B);
	return b.failed ? NULL : b.kernel;
}

static int calls_intrinsic(LLVMValueRef fn, const char *name)
{
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
		     i = LLVMGetNextInstruction(i)) {
			LLVMValueRef callee;
			size_t len;
			if (!LLVMIsACallInst(i))
				continue;
			callee = LLVMGetCalledValue(i);
			if (LLVMIsAFunction(callee) &&
			    !strcmp(LLVMGetValueName2(callee, &len), name))
				return 1;
		}
	return 0;
}

void amdgcn_no_input_attributes(LLVMValueRef kernel)
{
	/* Never read: the source's kernarg bytes carry every hidden argument. */
	static const char *const never[] = {
	    "amdgpu-no-implicitarg-ptr",   "amdgpu-no-queue-ptr",
	    "amdgpu-no-dispatch-id",       "amdgpu-no-hostcall-ptr",
	    "amdgpu-no-heap-ptr",          "amdgpu-no-default-queue",
	    "amdgpu-no-completion-action", "amdgpu-no-multigrid-sync-arg",
	    "amdgpu-no-lds-kernel-id",     "amdgpu-no-flat-scratch-init"};
	/* Read only when the optimised code still calls the intrinsic. */
	static const struct {
		const char *attr, *intrinsic;
	} maybe[] = {
	    {"amdgpu-no-dispatch-ptr", "llvm.amdgcn.dispatch.ptr"},
	    {"amdgpu-no-workitem-id-x", "llvm.amdgcn.workitem.id.x"},
	    {"amdgpu-no-workitem-id-y", "llvm.amdgcn.workitem.id.y"},
	    {"amdgpu-no-workitem-id-z", "llvm.amdgcn.workitem.id.z"},
	    {"amdgpu-no-workgroup-id-x", "llvm.amdgcn.workgroup.id.x"},
	    {"amdgpu-no-workgroup-id-y", "llvm.amdgcn.workgroup.id.y"},
	    {"amdgpu-no-workgroup-id-z", "llvm.amdgcn.workgroup.id.z"},
	};
	LLVMContextRef C = LLVMGetModuleContext(LLVMGetGlobalParent(kernel));
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		LLVMAddAttributeAtIndex(
		    kernel, LLVMAttributeFunctionIndex,
		    LLVMCreateStringAttribute(C, never[i], (unsigned)strlen(never[i]), "", 0));
	for (size_t i = 0; i < sizeof(maybe) / sizeof(maybe[0]); i++)
		if (!calls_intrinsic(kernel, maybe[i].intrinsic))
			LLVMAddAttributeAtIndex(
			    kernel, LLVMAttributeFunctionIndex,
			    LLVMCreateStringAttribute(C, maybe[i].attr,
			                              (unsigned)strlen(maybe[i].attr), "", 0));
}
