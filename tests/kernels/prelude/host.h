/*
 * The OpenCL C builtins the test kernels use, for the host-C reference: a kernel source is
 * compiled as C17 with this header first, and ref/host_runtime.c runs it with one thread
 * per work-item of a workgroup (workgroups one after another), so barrier() is a
 * pthread barrier and __local variables are function statics shared by the workgroup's
 * threads.  Sub-groups are 32 (64 with --sub-group-size 64) consecutive work-items of the
 * workgroup (linear order), as the waves of a gfx1250 (gfx942) workgroup.  Geometry follows
 * OpenCL 2.0 non-uniform workgroups: the last workgroup of a dimension may be partial, as a HIP
 * launch makes it.
 */
#ifndef MIRAGE_PRELUDE_HOST_H
#define MIRAGE_PRELUDE_HOST_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "work_item.h"

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef _Float16 half;

#define __kernel
#define kernel
#define __global
#define global
#define __constant const
#define __private
#define __local static

#define CLK_LOCAL_MEM_FENCE  1
#define CLK_GLOBAL_MEM_FENCE 2

static inline size_t get_global_id(uint d)
{
	return d < 3 ? mirage_wi.global_id[d] : 0;
}
static inline size_t get_local_id(uint d)
{
	return d < 3 ? mirage_wi.local_id[d] : 0;
}
static inline size_t get_group_id(uint d)
{
	return d < 3 ? mirage_wi.group_id[d] : 0;
}
static inline size_t get_local_size(uint d)
{
	return d < 3 ? mirage_wi.local_size[d] : 1;
}
static inline size_t get_global_size(uint d)
{
	return d < 3 ? mirage_wi.global_size[d] : 1;
}
static inline size_t get_num_groups(uint d)
{
	return d < 3 ? mirage_wi.num_groups[d] : 1;
}
static inline size_t get_global_offset(uint d)
{
	(void)d;
	return 0;
}

#define barrier(flags) mirage_barrier()

/* Integer atomics: sequentially consistent (stronger than the kernels need). */
#define atomic_add(p, v)  __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define atomic_sub(p, v)  __atomic_fetch_sub((p), (v), __ATOMIC_SEQ_CST)
#define atomic_inc(p)     __atomic_fetch_add((p), 1, __ATOMIC_SEQ_CST)
#define atomic_dec(p)     __atomic_fetch_sub((p), 1, __ATOMIC_SEQ_CST)
#define atomic_and(p, v)  __atomic_fetch_and((p), (v), __ATOMIC_SEQ_CST)
#define atomic_or(p, v)   __atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#define atomic_xor(p, v)  __atomic_fetch_xor((p), (v), __ATOMIC_SEQ_CST)
#define atomic_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define MIRAGE_ATOMIC_MINMAX(name, type, better)                                                   \
	static inline type name(volatile type *p, type v)                                          \
	{                                                                                          \
		type old = __atomic_load_n(p, __ATOMIC_SEQ_CST);                                   \
		while ((better) && !__atomic_compare_exchange_n(p, &old, v, 0, __ATOMIC_SEQ_CST,   \
		                                                __ATOMIC_SEQ_CST))                 \
			;                                                                          \
		return old;                                                                        \
	}
MIRAGE_ATOMIC_MINMAX(mirage_atomic_min_u, uint, v < old)
MIRAGE_ATOMIC_MINMAX(mirage_atomic_min_i, int, v < old)
MIRAGE_ATOMIC_MINMAX(mirage_atomic_max_u, uint, v > old)
MIRAGE_ATOMIC_MINMAX(mirage_atomic_max_i, int, v > old)
#define atomic_min(p, v)                                                                           \
	_Generic(*(p), uint : mirage_atomic_min_u, int : mirage_atomic_min_i)((p), (v))
#define atomic_max(p, v)                                                                           \
	_Generic(*(p), uint : mirage_atomic_max_u, int : mirage_atomic_max_i)((p), (v))

static inline uint mirage_min_u(uint a, uint b)
{
	return a < b ? a : b;
}
static inline int mirage_min_i(int a, int b)
{
	return a < b ? a : b;
}
static inline uint mirage_max_u(uint a, uint b)
{
	return a > b ? a : b;
}
static inline int mirage_max_i(int a, int b)
{
	return a > b ? a : b;
}
#define min(a, b)      _Generic((a) + (b), uint : mirage_min_u, int : mirage_min_i)((a), (b))
#define max(a, b)      _Generic((a) + (b), uint : mirage_max_u, int : mirage_max_i)((a), (b))
#define fabs(x)        _Generic((x), float : fabsf, default : fabs)(x)
#define fma(a, b, c)   _Generic((a), float : fmaf, default : fma)((a), (b), (c))
#define sqrt(x)        _Generic((x), float : sqrtf, default : sqrt)(x)
#define copysign(a, b) _Generic((a), float : copysignf, default : copysign)((a), (b))

static inline float vload_half(size_t i, const half *p)
{
	return (float)p[i];
}
static inline void vstore_half(float v, size_t i, half *p)
{
	p[i] = (half)v;
}

/* Sub-group operations: every work-item of the sub-group calls them at the same point. */
static inline uint get_sub_group_local_id(void)
{
	return mirage_wi.linear_local_id % mirage_sub_group_size;
}
static inline uint get_sub_group_id(void)
{
	return mirage_wi.linear_local_id / mirage_sub_group_size;
}
static inline uint get_sub_group_size(void)
{
	return mirage_wi.sub_group_size;
}
static inline int sub_group_any(int p)
{
	uint all[MIRAGE_SUB_GROUP_MAX], n = mirage_sub_group_exchange(p != 0, all), r = 0;
	for (uint l = 0; l < n; l++)
		r |= all[l];
	return r != 0;
}
static inline int sub_group_all(int p)
{
	uint all[MIRAGE_SUB_GROUP_MAX], n = mirage_sub_group_exchange(p != 0, all), r = 1;
	for (uint l = 0; l < n; l++)
		r &= all[l];
	return r != 0;
}
static inline uint mirage_sub_group_ballot_rank(int p)
{
	uint all[MIRAGE_SUB_GROUP_MAX], n = mirage_sub_group_exchange(p != 0, all), r = 0;
	for (uint l = 0; l < n && l < get_sub_group_local_id(); l++)
		r += all[l];
	return r;
}
static inline uint mirage_sub_group_ballot_count(int p)
{
	uint all[MIRAGE_SUB_GROUP_MAX], n = mirage_sub_group_exchange(p != 0, all), r = 0;
	for (uint l = 0; l < n; l++)
		r += all[l];
	return r;
}
static inline uint sub_group_broadcast(uint x, uint lane)
{
	uint all[MIRAGE_SUB_GROUP_MAX];
	mirage_sub_group_exchange(x, all);
	return all[lane % mirage_sub_group_size];
}
static inline uint sub_group_scan_inclusive_add(uint x)
{
	uint all[MIRAGE_SUB_GROUP_MAX], r = 0;
	mirage_sub_group_exchange(x, all);
	for (uint l = 0; l <= get_sub_group_local_id(); l++)
		r += all[l];
	return r;
}
static inline uint sub_group_reduce_add(uint x)
{
	uint all[MIRAGE_SUB_GROUP_MAX], n = mirage_sub_group_exchange(x, all), r = 0;
	for (uint l = 0; l < n; l++)
		r += all[l];
	return r;
}
static inline int sub_group_reduce_max(int x)
{
	uint all[MIRAGE_SUB_GROUP_MAX], n = mirage_sub_group_exchange((uint)x, all);
	int r = (int)all[0];
	for (uint l = 1; l < n; l++)
		r = (int)all[l] > r ? (int)all[l] : r;
	return r;
}

/* Only POCL's sub-groups need kernel-scope LDS (prelude/pocl.h). */
#define MIRAGE_SUB_GROUP_SCRATCH

#endif
