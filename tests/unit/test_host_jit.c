/* The host JIT's compile tiers (host_jit.h): the module's shape, the tier each shape and
 * $MIRAGE_JIT_TIER get, and the same results from a module compiled at either tier. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host_jit.h"

#include <llvm-c/Core.h>

#define N 100

static uint32_t out[N];

/* out[i] = i * (3, 5, 7, 11 or 13, by i % 5) for i < N: a loop around a five-way switch. */
static LLVMModuleRef loop_switch_module(LLVMContextRef C)
{
	LLVMModuleRef m = LLVMModuleCreateWithNameInContext("t", C);
	LLVMTypeRef i32 = LLVMInt32TypeInContext(C), i64 = LLVMInt64TypeInContext(C);
	LLVMTypeRef ptr = LLVMPointerTypeInContext(C, 0);
	LLVMValueRef f =
	    LLVMAddFunction(m, "entry", LLVMFunctionType(LLVMVoidTypeInContext(C), NULL, 0, 0));
	LLVMBuilderRef B = LLVMCreateBuilderInContext(C);
	LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(C, f, "start"),
	                  head = LLVMAppendBasicBlockInContext(C, f, "head"),
	                  join = LLVMAppendBasicBlockInContext(C, f, "join"),
	                  done = LLVMAppendBasicBlockInContext(C, f, "done"), arm[5];
	static const unsigned factor[5] = {3, 5, 7, 11, 13};
	LLVMValueRef slot, i, k, sw, base, addr, next;

	LLVMPositionBuilderAtEnd(B, start);
	slot = LLVMBuildAlloca(B, i32, "i");
	k = LLVMBuildAlloca(B, i32, "k");
	LLVMBuildStore(B, LLVMConstInt(i32, 0, 0), slot);
	LLVMBuildBr(B, head);
	LLVMPositionBuilderAtEnd(B, head);
	i = LLVMBuildLoad2(B, i32, slot, "");
	for (unsigned a = 0; a < 5; a++)
		arm[a] = LLVMAppendBasicBlockInContext(C, f, "arm");
	sw = LLVMBuildSwitch(B, LLVMBuildURem(B, i, LLVMConstInt(i32, 5, 0), ""), arm[0], 4);
	for (unsigned a = 1; a < 5; a++)
		LLVMAddCase(sw, LLVMConstInt(i32, a, 0), arm[a]);
	for (unsigned a = 0; a < 5; a++) {
		LLVMPositionBuilderAtEnd(B, arm[a]);
		LLVMBuildStore(B, LLVMConstInt(i32, factor[a], 0), k);
		LLVMBuildBr(B, join);
	}
	LLVMPositionBuilderAtEnd(B, join);
	base = LLVMConstIntToPtr(LLVMConstInt(i64, (uint64_t)(uintptr_t)out, 0), ptr);
	addr = LLVMBuildGEP2(B, i32, base, &i, 1, "");
	LLVMBuildStore(B, LLVMBuildMul(B, i, LLVMBuildLoad2(B, i32, k, ""), ""), addr);
	next = LLVMBuildAdd(B, i, LLVMConstInt(i32, 1, 0), "");
	LLVMBuildStore(B, next, slot);
	LLVMBuildCondBr(B, LLVMBuildICmp(B, LLVMIntULT, next, LLVMConstInt(i32, N, 0), ""), head,
	                done);
	LLVMPositionBuilderAtEnd(B, done);
	LLVMBuildRetVoid(B);
	LLVMDisposeBuilder(B);
	return m;
}

static void test_shape(void **state)
{
	LLVMContextRef C = LLVMContextCreate();
	LLVMModuleRef m = loop_switch_module(C);
	struct host_shape s = host_shape_of(m);
	(void)state;
	/* start, head, join, done and the five arms; the switch has a default and four cases. */
	assert_int_equal(s.blocks, 9);
	assert_int_equal(s.switch_edges, 5);
	/* start 4 (two allocas, a store, the branch), head 3, the arms 2 each, join 8, done 1 */
	assert_int_equal(s.instructions, 26);
	LLVMDisposeModule(m);
	LLVMContextDispose(C);
}

static void test_tier_choice(void **state)
{
	(void)state;
	/* 996 blocks and 2,610 edges (libclc's convert_int(int) at -O0): O2 compiles it in
	 * seconds, past the bound. */
	assert_int_equal(host_tier_for((struct host_shape){996, 2610, 0}, NULL), HOST_TIER_QUICK);
	/* A kernel without calls has no return switches, however large. */
	assert_int_equal(host_tier_for((struct host_shape){150000, 0, 0}, NULL), HOST_TIER_OPT);
	/* A huge kernel takes the quick tier, calls or not. */
	assert_int_equal(host_tier_for((struct host_shape){40, 0, 150000}, NULL), HOST_TIER_OPT);
	assert_int_equal(host_tier_for((struct host_shape){40, 0, 150001}, NULL), HOST_TIER_QUICK);
	assert_int_equal(host_tier_for((struct host_shape){40, 0, 150001}, "opt"), HOST_TIER_OPT);
	assert_int_equal(host_tier_for((struct host_shape){1000, 1000, 0}, NULL), HOST_TIER_OPT);
	assert_int_equal(host_tier_for((struct host_shape){1000, 1001, 0}, NULL), HOST_TIER_QUICK);
	/* $MIRAGE_JIT_TIER wins either way; any other value is the automatic choice. */
	assert_int_equal(host_tier_for((struct host_shape){996, 2610, 0}, "opt"), HOST_TIER_OPT);
	assert_int_equal(host_tier_for((struct host_shape){9, 5, 0}, "quick"), HOST_TIER_QUICK);
	assert_int_equal(host_tier_for((struct host_shape){9, 5, 0}, "fast"), HOST_TIER_OPT);
	assert_int_equal(host_tier_for((struct host_shape){9, 5, 0}, ""), HOST_TIER_OPT);
}

/* The module compiled at the tier $MIRAGE_JIT_TIER forces, run: out as C computes it. */
static void run_at(const char *tier)
{
	static const unsigned factor[5] = {3, 5, 7, 11, 13};
	LLVMContextRef C = LLVMContextCreate();
	void (*entry)(void) = NULL;
	char msg[256] = "";
	struct host_jit *j;

	setenv("MIRAGE_JIT_TIER", tier, 1);
	memset(out, 0xff, sizeof(out));
	j = host_jit_compile(C, loop_switch_module(C), "entry", &entry, msg, sizeof(msg));
	unsetenv("MIRAGE_JIT_TIER");
	if (!j)
		fail_msg("tier %s: %s", tier, msg);
	entry();
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(out[i], i * factor[i % 5]);
	host_jit_free(j);
}

static void test_both_tiers_run_alike(void **state)
{
	(void)state;
	run_at("opt");
	run_at("quick");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shape),
	    cmocka_unit_test(test_tier_choice),
	    cmocka_unit_test(test_both_tiers_run_alike),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
