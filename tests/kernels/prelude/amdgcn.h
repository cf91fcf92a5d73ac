/*
 * The OpenCL C builtins the test kernels use, for clang-22 -target amdgcn-amd-amdhsa
 * -nogpulib -cl-no-stdinc (no ROCm device libraries: their get_global_id etc. would stay
 * undefined at link time).  Geometry comes from the code-object-v5 hidden block, as the
 * device libraries read it: block_count (u32 x3, full workgroups) at +0, group_size (u16 x3)
 * at +12, remainder (u16 x3, the partial workgroup) at +18, global_offset (u64 x3) at +40.
 * Sub-groups are waves: ballot, readlane and mbcnt; 32 lanes (gfx1250), or 64 when the build
 * defines MIRAGE_WAVE64 (gfx942, whose objects the suite builds for decoding only).
 */
#ifndef MIRAGE_PRELUDE_AMDGCN_H
#define MIRAGE_PRELUDE_AMDGCN_H

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
typedef ulong size_t;
typedef long ptrdiff_t;

#define CLK_LOCAL_MEM_FENCE  1
#define CLK_GLOBAL_MEM_FENCE 2
#define MIRAGE_INLINE        static inline __attribute__((always_inline))
#define MIRAGE_OVERLOAD      static inline __attribute__((always_inline, overloadable))

MIRAGE_INLINE __constant uint *mirage_hidden32(void)
{
	return (__constant uint *)__builtin_amdgcn_implicitarg_ptr();
}
MIRAGE_INLINE __constant ushort *mirage_hidden16(void)
{
	return (__constant ushort *)__builtin_amdgcn_implicitarg_ptr();
}

MIRAGE_INLINE size_t get_local_id(uint d)
{
	return d == 0   ? __builtin_amdgcn_workitem_id_x()
	       : d == 1 ? __builtin_amdgcn_workitem_id_y()
	       : d == 2 ? __builtin_amdgcn_workitem_id_z()
	                : 0;
}
MIRAGE_INLINE size_t get_group_id(uint d)
{
	return d == 0   ? __builtin_amdgcn_workgroup_id_x()
	       : d == 1 ? __builtin_amdgcn_workgroup_id_y()
	       : d == 2 ? __builtin_amdgcn_workgroup_id_z()
	                : 0;
}
/* The enqueued (full) workgroup size. */
MIRAGE_INLINE size_t mirage_group_size(uint d)
{
	return d < 3 ? mirage_hidden16()[6 + d] : 1;
}
/* The actual size of this workgroup: the remainder for the last, partial one. */
MIRAGE_INLINE size_t get_local_size(uint d)
{
	if (d >= 3)
		return 1;
	return get_group_id(d) < mirage_hidden32()[d] ? mirage_hidden16()[6 + d]
	                                              : mirage_hidden16()[9 + d];
}
MIRAGE_INLINE size_t get_num_groups(uint d)
{
	if (d >= 3)
		return 1;
	return mirage_hidden32()[d] + (mirage_hidden16()[9 + d] != 0);
}
MIRAGE_INLINE size_t get_global_size(uint d)
{
	if (d >= 3)
		return 1;
	return (size_t)mirage_hidden32()[d] * mirage_hidden16()[6 + d] + mirage_hidden16()[9 + d];
}
MIRAGE_INLINE size_t get_global_offset(uint d)
{
	return d < 3 ? ((__constant ulong *)__builtin_amdgcn_implicitarg_ptr())[5 + d] : 0;
}
MIRAGE_INLINE size_t get_global_id(uint d)
{
	return get_group_id(d) * mirage_group_size(d) + get_local_id(d) + get_global_offset(d);
}

MIRAGE_INLINE void barrier(uint flags)
{
	__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
	__builtin_amdgcn_s_barrier();
	__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

/* Integer atomics (OpenCL 1.2 names); relaxed at device scope, like the device libraries. */
#define mirage_atomic(op, p, v)                                                                    \
	__scoped_atomic_##op((p), (v), __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)
#define atomic_add(p, v)  mirage_atomic(fetch_add, p, v)
#define atomic_sub(p, v)  mirage_atomic(fetch_sub, p, v)
#define atomic_inc(p)     mirage_atomic(fetch_add, p, 1)
#define atomic_dec(p)     mirage_atomic(fetch_sub, p, 1)
#define atomic_min(p, v)  mirage_atomic(fetch_min, p, v)
#define atomic_max(p, v)  mirage_atomic(fetch_max, p, v)
#define atomic_and(p, v)  mirage_atomic(fetch_and, p, v)
#define atomic_or(p, v)   mirage_atomic(fetch_or, p, v)
#define atomic_xor(p, v)  mirage_atomic(fetch_xor, p, v)
#define atomic_xchg(p, v) mirage_atomic(exchange_n, p, v)

MIRAGE_OVERLOAD uint min(uint a, uint b)
{
	return a < b ? a : b;
}
MIRAGE_OVERLOAD int min(int a, int b)
{
	return a < b ? a : b;
}
MIRAGE_OVERLOAD uint max(uint a, uint b)
{
	return a > b ? a : b;
}
MIRAGE_OVERLOAD int max(int a, int b)
{
	return a > b ? a : b;
}
MIRAGE_OVERLOAD float fabs(float x)
{
	return __builtin_fabsf(x);
}
MIRAGE_OVERLOAD float fma(float a, float b, float c)
{
	return __builtin_fmaf(a, b, c);
}
MIRAGE_OVERLOAD double fma(double a, double b, double c)
{
	return __builtin_fma(a, b, c);
}
MIRAGE_OVERLOAD float sqrt(float x)
{
	return __builtin_elementwise_sqrt(x);
}
MIRAGE_OVERLOAD float copysign(float a, float b)
{
	return __builtin_copysignf(a, b);
}

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
MIRAGE_INLINE float vload_half(size_t i, const __global half *p)
{
	return (float)p[i];
}
/* Round to nearest even, as vstore_half with the default rounding mode. */
MIRAGE_INLINE void vstore_half(float v, size_t i, __global half *p)
{
	p[i] = (half)v;
}

/* Sub-groups: one wave; every lane of the sub-group is active where these are called. */
#ifdef MIRAGE_WAVE64
#define MIRAGE_WAVE_SIZE   64
#define MIRAGE_ALL_LANES   (~0ul)
#define mirage_ballot(p)   __builtin_amdgcn_ballot_w64(p)
#define mirage_popcount(m) __builtin_popcountl(m)
#define mirage_lanes_below(m)                                                                      \
	__builtin_amdgcn_mbcnt_hi((uint)((m) >> 32), __builtin_amdgcn_mbcnt_lo((uint)(m), 0u))
#else
#define MIRAGE_WAVE_SIZE      32
#define MIRAGE_ALL_LANES      (~0u)
#define mirage_ballot(p)      __builtin_amdgcn_ballot_w32(p)
#define mirage_popcount(m)    __builtin_popcount(m)
#define mirage_lanes_below(m) __builtin_amdgcn_mbcnt_lo((m), 0u)
#endif
MIRAGE_INLINE uint mirage_linear_local_id(void)
{
	return (uint)(get_local_id(2) * mirage_group_size(1) * mirage_group_size(0) +
	              get_local_id(1) * mirage_group_size(0) + get_local_id(0));
}
MIRAGE_INLINE uint get_sub_group_local_id(void)
{
	return mirage_lanes_below(MIRAGE_ALL_LANES);
}
MIRAGE_INLINE uint get_sub_group_id(void)
{
	return mirage_linear_local_id() / MIRAGE_WAVE_SIZE;
}
MIRAGE_INLINE uint get_sub_group_size(void)
{
	return mirage_popcount(mirage_ballot(1));
}
MIRAGE_INLINE int sub_group_any(int p)
{
	return mirage_ballot(p != 0) != 0;
}
MIRAGE_INLINE int sub_group_all(int p)
{
	return mirage_ballot(p == 0) == 0;
}
/* Lanes whose predicate holds, as a count below this lane (a ballot + mbcnt). */
MIRAGE_INLINE uint mirage_sub_group_ballot_rank(int p)
{
	return mirage_lanes_below(mirage_ballot(p != 0));
}
MIRAGE_INLINE uint mirage_sub_group_ballot_count(int p)
{
	return mirage_popcount(mirage_ballot(p != 0));
}
MIRAGE_OVERLOAD uint sub_group_broadcast(uint x, uint lane)
{
	return __builtin_amdgcn_readlane(x, lane);
}
MIRAGE_OVERLOAD int sub_group_broadcast(int x, uint lane)
{
	return __builtin_amdgcn_readlane(x, lane);
}
/* Scans and reductions read every lane with v_readlane (a uniform loop over the lanes). */
MIRAGE_OVERLOAD uint sub_group_scan_inclusive_add(uint x)
{
	uint me = get_sub_group_local_id(), n = get_sub_group_size(), sum = 0;
	for (uint l = 0; l < n; l++) {
		uint v = __builtin_amdgcn_readlane(x, l);
		sum += l <= me ? v : 0;
	}
	return sum;
}
MIRAGE_OVERLOAD uint sub_group_reduce_add(uint x)
{
	uint n = get_sub_group_size(), sum = 0;
	for (uint l = 0; l < n; l++)
		sum += __builtin_amdgcn_readlane(x, l);
	return sum;
}
MIRAGE_OVERLOAD int sub_group_reduce_max(int x)
{
	uint n = get_sub_group_size();
	int m = __builtin_amdgcn_readlane(x, 0);
	for (uint l = 1; l < n; l++)
		m = max(m, (int)__builtin_amdgcn_readlane(x, l));
	return m;
}

/* Only POCL's sub-groups need kernel-scope LDS (prelude/pocl.h). */
#define MIRAGE_SUB_GROUP_SCRATCH

#endif
