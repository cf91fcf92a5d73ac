/* Kernels for the ISA decoder's corpus test: each exercises instruction families clang-22
 * emits for gfx1250 (VALU/SALU int and float, compares, LDS, atomics, scratch, calls, f16).
 * Built with -nogpulib, so work-item ids, math and atomics come from clang builtins, not the
 * OpenCL library (no undefined symbols, every call is to code in this file). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define GID(d) (__builtin_amdgcn_workitem_id_##d() + __builtin_amdgcn_workgroup_id_##d() * __builtin_amdgcn_workgroup_size_##d())
#define LID() __builtin_amdgcn_workitem_id_x()
#define GRP() __builtin_amdgcn_workgroup_id_x()
#define LSIZE() __builtin_amdgcn_workgroup_size_x()
#define BARRIER()                                                     \
	do {                                                          \
		__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"); \
		__builtin_amdgcn_s_barrier();                         \
		__builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"); \
	} while (0)
#define ADD(p, v) __atomic_fetch_add(p, v, __ATOMIC_RELAXED)

kernel void vadd_i32(global const int *a, global const int *b, global int *c, uint n)
{
	uint i = GID(x);
	if (i < n)
		c[i] = a[i] + b[i] * 3 - (a[i] >> 2) ^ (b[i] | 7);
}

kernel void saxpy(float alpha, global const float *x, global float *y, uint n)
{
	uint i = GID(x);
	if (i < n)
		y[i] = alpha * x[i] + y[i];
}

kernel void math_f32(global float *y, global const float *x)
{
	uint i = GID(x);
	float v = x[i];
	y[i] = __builtin_sqrtf(v) + __builtin_amdgcn_rcpf(v) + __builtin_floorf(v) + __builtin_fabsf(v) * __builtin_fminf(v, 2.0f) +
	       __builtin_fmaxf(v, -1.0f) + __builtin_amdgcn_exp2f(v) + __builtin_amdgcn_logf(v) + __builtin_amdgcn_sinf(v) +
	       (float)(int)v + __builtin_amdgcn_rsqf(v) + __builtin_fmaf(v, v, 1.0f) + v / 3.0f + __builtin_truncf(v) + __builtin_ceilf(v);
}

kernel void math_f64(global double *y, global const double *x)
{
	uint i = GID(x);
	double v = x[i];
	y[i] = v * v + 2.5 - __builtin_fabs(v) + __builtin_fmin(v, 1.0) + __builtin_sqrt(v) + v / 7.0 + (double)(long)v + __builtin_floor(v);
}

kernel void math_f16(global half *y, global const half *x)
{
	uint i = GID(x);
	half v = x[i];
	half w = x[i + 1];
	y[i] = v * w + (half)1.5 - __builtin_fmaxf16(v, w);
}

kernel void math_f16x2(global half2 *y, global const half2 *x)
{
	uint i = GID(x);
	half2 v = x[i];
	y[i] = v * v + (half2)(1.0h, 2.0h) - v;
}

kernel void index2d(global float *out, global const float *in, uint w, uint h)
{
	uint x = GID(x), y = GID(y);
	if (x < w && y < h)
		out[y * w + x] = in[x * h + y] + (float)(x * y);
}

kernel void reduce_lds(global const int *in, global int *out)
{
	local int tmp[256];
	uint l = LID();
	tmp[l] = in[GID(x)];
	BARRIER();
	for (uint s = LSIZE() / 2; s > 0; s >>= 1) {
		if (l < s)
			tmp[l] += tmp[l + s];
		BARRIER();
	}
	if (l == 0)
		out[GRP()] = tmp[0];
}

kernel void reduce_lds_f64(global const double *in, global double *out)
{
	local double tmp[128];
	local float f[128];
	uint l = LID();
	tmp[l] = in[GID(x)];
	f[l] = (float)in[GID(x)];
	BARRIER();
	if (l < 64) {
		tmp[l] += tmp[l + 64] + tmp[l + 1];
		f[l] += f[l + 1] + f[l + 2];
	}
	BARRIER();
	if (l == 0)
		out[GRP()] = tmp[0] + f[0];
}

kernel void lds_atomics(global int *out)
{
	local int c;
	local uint m;
	uint l = LID();
	if (l == 0) {
		c = 0;
		m = 0;
	}
	BARRIER();
	ADD(&c, (int)l);
	__atomic_fetch_max(&m, l, __ATOMIC_RELAXED);
	int e = 5;
	__atomic_compare_exchange_n(&c, &e, 6, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	__atomic_exchange_n(&c, e, __ATOMIC_RELAXED);
	BARRIER();
	if (l == 0)
		out[GRP()] = c + (int)m;
}

kernel void divergent(global int *a, uint n)
{
	uint i = GID(x);
	int v = a[i];
	if (v & 1) {
		for (int k = 0; k < v; k++)
			v = v * 3 + 1;
	} else {
		v = v / 2;
	}
	a[i] = v;
}

kernel void global_atomics(global int *cnt, global uint *mx, global float *fs, global long *l)
{
	uint i = GID(x);
	ADD(cnt, 1);
	__atomic_fetch_max(mx, i, __ATOMIC_RELAXED);
	__atomic_fetch_min(mx + 1, i, __ATOMIC_RELAXED);
	__atomic_fetch_and(mx + 2, i, __ATOMIC_RELAXED);
	__atomic_fetch_or(mx + 3, i, __ATOMIC_RELAXED);
	__atomic_fetch_xor(mx + 4, i, __ATOMIC_RELAXED);
	uint e = i;
	__atomic_compare_exchange_n(mx + 5, &e, i + 1, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	__atomic_exchange_n(mx + 6, e, __ATOMIC_RELAXED);
	ADD(fs, 1.5f);
	ADD(l, (long)i);
	cnt[8] = ADD(cnt + 4, 3);
}

kernel void private_array(global int *out, global const int *idx)
{
	int arr[32];
	uint i = GID(x);
	for (int k = 0; k < 32; k++)
		arr[k] = k * (int)i;
	out[i] = arr[idx[i] & 31];
}

__attribute__((noinline)) int helper(int x, global int *p)
{
	int s = 0;
	for (int k = 0; k < x; k++)
		s += p[k];
	return s;
}

kernel void calls(global int *out, global int *p)
{
	uint i = GID(x);
	out[i] = helper((int)i & 7, p) + helper(3, p + i);
}

kernel void int64_ops(global long *out, global const long *in, ulong k)
{
	uint i = GID(x);
	long v = in[i];
	out[i] = v * (long)k + (v >> 3) - (long)((ulong)v / 7) + (v << (i & 63)) + (v % 13);
}

kernel void conversions(global float *f, global int *ii, global uchar *b, global short *s)
{
	uint i = GID(x);
	f[i] = (float)ii[i] + (float)(uint)b[i] + (float)s[i];
	ii[i] = (int)f[i + 1];
	b[i] = (uchar)(ii[i] + 1);
	s[i] = (short)(f[i] * 2.0f);
}

kernel void selects(global int *out, global const float *a, global const float *b)
{
	uint i = GID(x);
	float x = a[i], y = b[i];
	out[i] = (x < y ? 1 : 5) + (__builtin_isnan(x) ? 7 : 0) + (x >= y && i > 3 ? 11 : 0) + (x != y ? 9 : 2);
}

kernel void wide_copy(global int4 *out, global const int4 *in, global const long2 *l, global long2 *lo)
{
	uint i = GID(x);
	out[i] = in[i] + (int4)(1, 2, 3, 4);
	lo[i] = l[i] * 3;
}

kernel void constants(global uint *out)
{
	uint i = GID(x);
	out[i] = i * 0x12345678u + 0xdeadbeefu + __builtin_popcount(i) + __builtin_clz(i) + ((i << 5) | (i >> 27)) +
	         (uint)(((ulong)i * 0x9e3779b9u) >> 32) + (i & 0xffffff) * (i & 0xffffff) + 3u + (i & 0xffff0000u);
}
