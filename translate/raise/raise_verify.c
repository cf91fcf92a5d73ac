/*
 * The invariant every raised module keeps (docs/raiser.md): a conditional branch is either
 * lane predication (!mirage.lane_pred, whose body holds no cross-lane hook and no barrier)
 * or wave-uniform (!mirage.uniform, its condition derived from scalar state only); every
 * store to scalar state (SGPRs, VCC, EXEC, SCC, M0, TTMPs) is uniform too.  "Uniform" is
 * checked on the alloca form: the value's operands never reach a VGPR load or a per-lane
 * hook except through a cross-lane hook (whose result is the same in every lane).
 */
#include "mirage/raise.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 64

static bool name_is_scalar(const char *n)
{
	return n[0] == 's' || !strncmp(n, "vcc", 3) || !strncmp(n, "exec", 4) ||
	       !strncmp(n, "ttmp", 4) || !strcmp(n, "m0");
}

static const char *callee_name(LLVMValueRef call)
{
	LLVMValueRef f = LLVMGetCalledValue(call);
	size_t len;
	return f ? LLVMGetValueName2(f, &len) : "";
}

/* The cross-lane hooks and the barrier, from the hook table's kinds. */
static bool is_xlane(const char *name)
{
	static const struct {
		const char *name;
		bool xlane;
	} kinds[] = {
#define RAISE_HOOK(id, hname, ret, args, kind)                                                     \
	{hname, !strcmp(#kind, "XLANE") || !strcmp(#kind, "BARRIER")},
#include "mirage/raise_hooks.def"
#undef RAISE_HOOK
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].name, name))
			return kinds[i].xlane;
	return false;
}

/* Values already looked at in this query (a DAG is walked once, not once per path); per
 * thread, as two threads may raise at once (the intercept translating two objects). */
#define SEEN_SLOTS 16384
static _Thread_local struct {
	LLVMValueRef v;
	unsigned gen;
} seen[SEEN_SLOTS];
static _Thread_local unsigned seen_gen;

static bool first_visit(LLVMValueRef v)
{
	size_t h = ((uintptr_t)v >> 4) % SEEN_SLOTS;
	for (size_t n = 0; n < SEEN_SLOTS; n++, h = (h + 1) % SEEN_SLOTS) {
		if (seen[h].gen != seen_gen) {
			seen[h].v = v;
			seen[h].gen = seen_gen;
			return true;
		}
		if (seen[h].v == v)
			return false;
	}
	return false;
}

/* Per-lane sources: VGPR loads, memory, the lane id, the packed workitem id. */
static bool varying(LLVMValueRef v, int depth)
{
	if (!v || depth > MAX_DEPTH || !LLVMIsAInstruction(v) || !first_visit(v))
		return false;
	if (LLVMIsALoadInst(v)) {
		LLVMValueRef p = LLVMGetOperand(v, 0);
		size_t len;
		while (LLVMIsAGetElementPtrInst(p))
			p = LLVMGetOperand(p, 0);
		if (LLVMIsAAllocaInst(p))
			return !name_is_scalar(LLVMGetValueName2(p, &len));
		/* memory the scalar unit reads: uniform when its address is */
		if (LLVMIsACallInst(p) &&
		    (!strcmp(callee_name(p), "mx.smem") || !strcmp(callee_name(p), "mx.global")))
			return varying(LLVMGetOperand(p, 0), depth + 1);
		return true;
	}
	if (LLVMIsACallInst(v)) {
		const char *n = callee_name(v);
		if (!strcmp(n, "mx.lane_id") || !strcmp(n, "mx.packed_workitem_id"))
			return true;
		if (is_xlane(n) || !strcmp(n, "mx.kernarg_ptr") || !strcmp(n, "mx.dispatch_ptr") ||
		    !strcmp(n, "mx.queue_ptr") || !strcmp(n, "mx.workgroup_id") ||
		    !strcmp(n, "mx.entry_exec") || !strcmp(n, "mx.entry_exec64"))
			return false;
	}
	for (int i = 0, n = LLVMGetNumOperands(v); i < n; i++) {
		LLVMValueRef op = LLVMGetOperand(v, (unsigned)i);
		if (LLVMIsABasicBlock(op) || LLVMIsAFunction(op))
			continue;
		if (varying(op, depth + 1))
			return true;
	}
	return false;
}

static bool is_varying(LLVMValueRef v)
{
	seen_gen++;
	return varying(v, 0);
}

static int check_fn(LLVMValueRef f, unsigned md_pred, unsigned md_uni, char *msg, size_t size)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(b); i;
		     i = LLVMGetNextInstruction(i)) {
			if (LLVMIsABranchInst(i) && LLVMIsConditional(i)) {
				if (LLVMGetMetadata(i, md_pred)) {
					LLVMBasicBlockRef body =
					    LLVMValueAsBasicBlock(LLVMGetOperand(i, 2));
					for (LLVMValueRef j = LLVMGetFirstInstruction(body); j;
					     j = LLVMGetNextInstruction(j))
						if (LLVMIsACallInst(j) &&
						    is_xlane(callee_name(j))) {
							snprintf(msg, size,
							         "cross-lane hook %s inside lane "
							         "predication",
							         callee_name(j));
							return -1;
						}
				} else if (!LLVMGetMetadata(i, md_uni)) {
					snprintf(msg, size, "an untagged conditional branch");
					return -1;
				} else if (is_varying(LLVMGetCondition(i))) {
					snprintf(msg, size,
					         "a scalar branch on a per-lane condition");
					return -1;
				}
			} else if (LLVMIsASwitchInst(i)) {
				if (!LLVMGetMetadata(i, md_uni) ||
				    is_varying(LLVMGetOperand(i, 0))) {
					snprintf(msg, size, "a switch on a per-lane value");
					return -1;
				}
			} else if (LLVMIsAStoreInst(i)) {
				LLVMValueRef p = LLVMGetOperand(i, 1), v = LLVMGetOperand(i, 0);
				size_t len;
				const char *n = LLVMGetValueName2(p, &len);
				if (!LLVMIsAAllocaInst(p) || !name_is_scalar(n))
					continue;
				if (is_varying(v)) {
					snprintf(msg, size,
					         "a per-lane value stored to scalar register %s",
					         n);
					return -1;
				}
			}
		}
	}
	return 0;
}

int raise_verify_invariant(LLVMModuleRef m, char *msg, size_t size)
{
	LLVMContextRef c = LLVMGetModuleContext(m);
	unsigned md_pred = LLVMGetMDKindIDInContext(c, "mirage.lane_pred", 16);
	unsigned md_uni = LLVMGetMDKindIDInContext(c, "mirage.uniform", 14);

	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f))
			continue;
		if (check_fn(f, md_pred, md_uni, msg, size))
			return -1;
	}
	return 0;
}
