/* The raiser's hooks (mirage/raise_hooks.def) declared in the module, and the constants and
 * intrinsic calls every handler builds. */
#include "raise_internal.h"

#include <string.h>

static LLVMTypeRef type_of(struct rz *r, char t)
{
	switch (t) {
	case '1':
		return r->i1;
	case '3':
		return r->i32;
	case '6':
		return r->i64;
	case 'f':
		return r->f32;
	case 'd':
		return r->f64;
	case 'p':
		return r->ptr;
	default:
		return r->vd;
	}
}

/* The hook table's types as letters: V void, I1 '1', I32 '3', I64 '6', F32 'f', F64 'd', P. */
#define V                    "v"
#define I1                   "1"
#define I32                  "3"
#define I64                  "6"
#define F32                  "f"
#define F64                  "d"
#define P                    "p"
#define HA_(a, b, c, n, ...) n
#define HA3(a, b, c)         a b c
#define HA2(a, b)            a b
#define HA1(...)             "" __VA_ARGS__
#define HOOK_ARGS(...)       HA_(__VA_ARGS__, HA3, HA2, HA1, HA1)(__VA_ARGS__)
static const struct {
	const char *name, *ret, *args;
} hooks[] = {
#define RAISE_HOOK(id, name, ret, args, kind) {name, ret, HOOK_ARGS args},
#include "mirage/raise_hooks.def"
#undef RAISE_HOOK
};

void rz_declare_hooks(struct rz *r)
{
	for (unsigned h = 0; h < HOOK_COUNT; h++) {
		LLVMTypeRef params[4];
		unsigned n = 0;
		for (const char *a = hooks[h].args; *a; a++)
			params[n++] = type_of(r, *a);
		r->hook_ty[h] = LLVMFunctionType(type_of(r, hooks[h].ret[0]), params, n, 0);
		r->hook[h] = LLVMGetNamedFunction(r->M, hooks[h].name);
		if (!r->hook[h])
			r->hook[h] = LLVMAddFunction(r->M, hooks[h].name, r->hook_ty[h]);
	}
}

LLVMValueRef rz_call(struct rz *r, enum raise_hook h, LLVMValueRef *args, unsigned n)
{
	return LLVMBuildCall2(r->B, r->hook_ty[h], r->hook[h], args, n, "");
}

LLVMValueRef rz_const32(struct rz *r, uint64_t v)
{
	return LLVMConstInt(r->i32, v & 0xffffffffu, 0);
}

LLVMValueRef rz_const64(struct rz *r, uint64_t v)
{
	return LLVMConstInt(r->i64, v, 0);
}

LLVMValueRef rz_intrinsic(struct rz *r, const char *name, LLVMTypeRef *over, unsigned nover,
                          LLVMValueRef *args, unsigned nargs)
{
	unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(r->M, id, over, nover);
	LLVMTypeRef t = LLVMIntrinsicGetType(r->C, id, over, nover);
	return LLVMBuildCall2(r->B, t, f, args, nargs, "");
}
