/*
 * What the vector ALU handlers share: one instruction's operands split into destinations and
 * sources, and the helpers that read and write them at a width (raise_vops.c); the handlers
 * of raise_vfloat.c and raise_dpp.c, called by raise_valu.c's dispatch.
 */
#ifndef MIRAGE_RAISE_VALU_H
#define MIRAGE_RAISE_VALU_H

#include "raise_internal.h"

struct vops {
	const struct isa_operand *d[2];
	const struct isa_operand *s[4];
	unsigned nd, ns;
};

static inline LLVMValueRef c32(struct rz *r, uint64_t x)
{
	return rz_const32(r, x);
}

/* ops split by role: up to two destinations and four sources. */
void vx_split(const struct isa_operand *ops, unsigned n, struct vops *v);
/* Source k as an integer of bits, or as a float of bits (float inline constants at that
 * width, neg/abs applied); a 16-bit VOP3 source reads the half op_sel picks. */
LLVMTypeRef vx_ftype(struct rz *r, unsigned bits);
LLVMValueRef vx_isrc(struct rz *r, const struct vops *o, unsigned k, unsigned bits);
LLVMValueRef vx_fsrc(struct rz *r, const struct vops *o, unsigned k, unsigned bits);
/* Calls of an overloaded float intrinsic ("llvm.maxnum") at x's type, fma, a hook. */
LLVMValueRef vx_fcall1(struct rz *r, const char *name, LLVMValueRef x);
LLVMValueRef vx_fcall2(struct rz *r, const char *name, LLVMValueRef x, LLVMValueRef y);
LLVMValueRef vx_fma3(struct rz *r, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z);
LLVMValueRef vx_hook1(struct rz *r, enum raise_hook h, LLVMValueRef x);
/* A float result clamped to [0, 1] when the instruction asks (NaN gives 0); written so. */
LLVMValueRef vx_fclamp(struct rz *r, LLVMValueRef f);
int vx_fwrite(struct rz *r, const struct isa_operand *d, LLVMValueRef f);
/* The hardware's float minimum (max false) or maximum of x and y (raise_vops.c). */
LLVMValueRef vx_fminmax(struct rz *r, LLVMValueRef x, LLVMValueRef y, bool max);
/* f32 x to f16 rounded toward zero, as i16 bits (raise_vfloat.c). */
LLVMValueRef vx_f16_rtz(struct rz *r, LLVMValueRef x);
/* A run-time fault at the instruction for an active lane where bad (i1) holds: a value whose
 * result is not modelled (raise_vops.c). */
void vx_lane_fault(struct rz *r, LLVMValueRef bad);
/* a + b or a - b (i16 or i32), saturated when the instruction's clamp is set. */
LLVMValueRef vx_addsub_clamped(struct rz *r, bool sub, bool is_signed, LLVMValueRef a,
                               LLVMValueRef b);
/* Zero and sign extension to t; a shift amount masked to 5 bits. */
LLVMValueRef vx_zx(struct rz *r, LLVMValueRef v, LLVMTypeRef t);
LLVMValueRef vx_sx(struct rz *r, LLVMValueRef v, LLVMTypeRef t);
LLVMValueRef vx_sh32(struct rz *r, LLVMValueRef v);
/* A 16-bit result into its half of the destination (the other kept, or zeroed on GFX9 and by
 * the scalar f16 ops). */
int vx_write16(struct rz *r, const struct isa_operand *d, LLVMValueRef v16);
/* VOP3P source k of the low or high half: whether it reads the high half, and *neg. */
bool vx_packed_select(struct rz *r, const struct vops *o, unsigned k, bool hi, bool *neg);

/* x and y compared by a compare's condition (the row's OPER, raise_valu.c): i1, or NULL when
 * the condition is none of a float compare's. */
LLVMValueRef vx_fcompare(struct rz *r, unsigned cond, LLVMValueRef x, LLVMValueRef y);

/* Handlers (0 raised, -1 refused, 1 not theirs): 16-bit ops, f32/f64 math and conversions,
 * VOP3P packed math (raise_vfloat.c); DPP's source lane read, before the operation
 * (raise_dpp.c, 0 or -1). */
int vx_f16(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o);
int vx_float(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o);
int vx_packed(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o);
int vx_dpp(struct rz *r, const struct isa_inst *in, const struct vops *o);
/* The integer min/max family and v_cls_i32 (raise_vminmax.c): 0 raised, -1 refused, 2 not
 * theirs. */
int vx_minmax(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o);
/* The float three-operand min/max family, v_{min3,max3,med3,minmax,maxmin}_num_{f32,f16}
 * (raise_vminmax_float.c): 0 raised, -1 refused, 1 not theirs. */
int vx_fminmax3(struct rz *r, const struct isa_inst *in, unsigned op, const struct vops *o);
/* a if a p b, else b: min with an LT predicate, max with a GT one. */
LLVMValueRef vx_pick(struct rz *r, LLVMValueRef a, LLVMValueRef b, LLVMIntPredicate p);

#endif
