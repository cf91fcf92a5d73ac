/* The raiser's invariant checker on hand-built modules, and the reason table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host_jit.h"
#include "mirage/raise.h"

struct fixture {
	LLVMContextRef c;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	LLVMValueRef f, vgpr, sgpr;
	LLVMTypeRef i1, i32;
};

static LLVMValueRef hook(struct fixture *x, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                         unsigned n)
{
	LLVMValueRef f = LLVMGetNamedFunction(x->m, name);
	if (!f)
		f = LLVMAddFunction(x->m, name, LLVMFunctionType(ret, params, n, 0));
	return f;
}

static void setup_fx(struct fixture *x)
{
	x->c = LLVMContextCreate();
	x->m = LLVMModuleCreateWithNameInContext("t", x->c);
	x->b = LLVMCreateBuilderInContext(x->c);
	x->i1 = LLVMInt1TypeInContext(x->c);
	x->i32 = LLVMInt32TypeInContext(x->c);
	x->f =
	    LLVMAddFunction(x->m, "k", LLVMFunctionType(LLVMVoidTypeInContext(x->c), NULL, 0, 0));
	LLVMPositionBuilderAtEnd(x->b, LLVMAppendBasicBlockInContext(x->c, x->f, "entry"));
	x->vgpr = LLVMBuildAlloca(x->b, x->i32, "v0");
	x->sgpr = LLVMBuildAlloca(x->b, x->i32, "s0");
}

static void teardown_fx(struct fixture *x)
{
	LLVMDisposeBuilder(x->b);
	LLVMDisposeModule(x->m);
	LLVMContextDispose(x->c);
}

static void tag(struct fixture *x, LLVMValueRef br, const char *kind)
{
	unsigned id = LLVMGetMDKindIDInContext(x->c, kind, (unsigned)strlen(kind));
	LLVMSetMetadata(br, id, LLVMMetadataAsValue(x->c, LLVMMDNodeInContext2(x->c, NULL, 0)));
}

/* A branch on cond to two returning blocks, tagged kind (or not at all). */
static LLVMBasicBlockRef branch(struct fixture *x, LLVMValueRef cond, const char *kind)
{
	LLVMBasicBlockRef t = LLVMAppendBasicBlockInContext(x->c, x->f, "t");
	LLVMBasicBlockRef e = LLVMAppendBasicBlockInContext(x->c, x->f, "e");
	LLVMValueRef br = LLVMBuildCondBr(x->b, cond, t, e);
	if (kind)
		tag(x, br, kind);
	LLVMPositionBuilderAtEnd(x->b, e);
	LLVMBuildRetVoid(x->b);
	LLVMPositionBuilderAtEnd(x->b, t);
	return t;
}

static int check(struct fixture *x, char *msg)
{
	LLVMBuildRetVoid(x->b);
	return raise_verify_invariant(x->m, msg, 256);
}

static void test_uniform_branch_ok(void **state)
{
	struct fixture x;
	char msg[256];
	(void)state;
	setup_fx(&x);
	LLVMValueRef s = LLVMBuildLoad2(x.b, x.i32, x.sgpr, "");
	branch(&x, LLVMBuildICmp(x.b, LLVMIntEQ, s, LLVMConstInt(x.i32, 0, 0), ""),
	       "mirage.uniform");
	assert_int_equal(check(&x, msg), 0);
	teardown_fx(&x);
}

static void test_untagged_branch(void **state)
{
	struct fixture x;
	char msg[256];
	(void)state;
	setup_fx(&x);
	LLVMValueRef s = LLVMBuildLoad2(x.b, x.i32, x.sgpr, "");
	branch(&x, LLVMBuildICmp(x.b, LLVMIntEQ, s, LLVMConstInt(x.i32, 0, 0), ""), NULL);
	assert_int_equal(check(&x, msg), -1);
	assert_string_equal(msg, "an untagged conditional branch");
	teardown_fx(&x);
}

static void test_uniform_branch_on_vgpr(void **state)
{
	struct fixture x;
	char msg[256];
	(void)state;
	setup_fx(&x);
	LLVMValueRef v = LLVMBuildLoad2(x.b, x.i32, x.vgpr, "");
	branch(&x, LLVMBuildICmp(x.b, LLVMIntEQ, v, LLVMConstInt(x.i32, 0, 0), ""),
	       "mirage.uniform");
	assert_int_equal(check(&x, msg), -1);
	assert_string_equal(msg, "a scalar branch on a per-lane condition");
	teardown_fx(&x);
}

static void test_xlane_in_predication(void **state)
{
	struct fixture x;
	char msg[256];
	LLVMTypeRef p[2];
	(void)state;
	setup_fx(&x);
	p[0] = x.i1;
	p[1] = x.i32;
	LLVMValueRef v = LLVMBuildLoad2(x.b, x.i32, x.vgpr, "");
	branch(&x, LLVMBuildTrunc(x.b, v, x.i1, ""), "mirage.lane_pred");
	LLVMValueRef args[2] = {LLVMConstInt(x.i1, 1, 0), LLVMConstInt(x.i32, 0, 0)};
	LLVMBuildCall2(x.b, LLVMFunctionType(x.i32, p, 2, 0), hook(&x, "mx.ballot", x.i32, p, 2),
	               args, 2, "");
	assert_int_equal(check(&x, msg), -1);
	assert_string_equal(msg, "cross-lane hook mx.ballot inside lane predication");
	teardown_fx(&x);
}

static void test_vgpr_into_sgpr(void **state)
{
	struct fixture x;
	char msg[256];
	LLVMTypeRef p[2];
	(void)state;
	setup_fx(&x);
	LLVMValueRef v = LLVMBuildLoad2(x.b, x.i32, x.vgpr, "");
	LLVMBuildStore(x.b, LLVMBuildAdd(x.b, v, LLVMConstInt(x.i32, 1, 0), ""), x.sgpr);
	assert_int_equal(check(&x, msg), -1);
	assert_string_equal(msg, "a per-lane value stored to scalar register s0");
	teardown_fx(&x);
	/* Through a ballot it is uniform. */
	setup_fx(&x);
	p[0] = x.i1;
	p[1] = x.i32;
	v = LLVMBuildLoad2(x.b, x.i32, x.vgpr, "");
	LLVMValueRef args[2] = {LLVMBuildTrunc(x.b, v, x.i1, ""), LLVMConstInt(x.i32, 0, 0)};
	LLVMBuildStore(x.b,
	               LLVMBuildCall2(x.b, LLVMFunctionType(x.i32, p, 2, 0),
	                              hook(&x, "mx.ballot", x.i32, p, 2), args, 2, ""),
	               x.sgpr);
	assert_int_equal(check(&x, msg), 0);
	teardown_fx(&x);
}

static void test_host_binding(void **state)
{
	struct fixture x;
	char msg[256];
	LLVMTypeRef p[2];
	(void)state;
	setup_fx(&x);
	p[0] = x.i1;
	p[1] = x.i32;
	hook(&x, "mx.ballot", x.i32, p, 2);
	LLVMBuildRetVoid(x.b);
	assert_int_equal(host_bind(x.m, msg, sizeof(msg)), 0);
	assert_non_null(LLVMGetNamedFunction(x.m, "mirage_host.ballot"));
	assert_null(LLVMGetNamedFunction(x.m, "mx.ballot"));
	teardown_fx(&x);

	setup_fx(&x);
	hook(&x, "llvm.amdgcn.workitem.id.x", x.i32, NULL, 0);
	LLVMBuildRetVoid(x.b);
	assert_int_equal(host_bind(x.m, msg, sizeof(msg)), -1);
	assert_string_equal(msg,
	                    "llvm.amdgcn.workitem.id.x is a target intrinsic the host cannot run");
	teardown_fx(&x);

	setup_fx(&x);
	hook(&x, "mx.nosuch", x.i32, NULL, 0);
	LLVMBuildRetVoid(x.b);
	assert_int_equal(host_bind(x.m, msg, sizeof(msg)), -1);
	assert_string_equal(msg, "hook mx.nosuch has no host binding");
	teardown_fx(&x);
}

static void test_reason_table(void **state)
{
	(void)state;
	for (int a = 0; a < RAISE_REASON_COUNT; a++) {
		assert_true(strlen(raise_reason_code((enum raise_reason)a)) > 0);
		for (int b = a + 1; b < RAISE_REASON_COUNT; b++)
			assert_string_not_equal(raise_reason_code((enum raise_reason)a),
			                        raise_reason_code((enum raise_reason)b));
	}
	assert_string_equal(raise_reason_code(RAISE_UNKNOWN_INSTRUCTION), "unknown-instruction");
	assert_string_equal(raise_reason_code(RAISE_REASON_COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_uniform_branch_ok),
	    cmocka_unit_test(test_untagged_branch),
	    cmocka_unit_test(test_uniform_branch_on_vgpr),
	    cmocka_unit_test(test_xlane_in_predication),
	    cmocka_unit_test(test_vgpr_into_sgpr),
	    cmocka_unit_test(test_host_binding),
	    cmocka_unit_test(test_reason_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
