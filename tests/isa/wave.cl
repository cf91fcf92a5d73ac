/* Wave-level and narrow-type kernels for the ISA decoder's corpus: DPP moves, permlanes,
 * 8/16-bit integers, half math, 64-bit and float atomics, wide private arrays.  Built with
 * -nogpulib: every operation is plain C or a clang builtin. */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define GID() (__builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x())

kernel void dpp_reduce(global int *out, global const int *in)
{
	uint i = GID();
	int v = in[i];
	v += __builtin_amdgcn_update_dpp(0, v, 0x111, 0xf, 0xf, false); /* row_shr:1 */
	v += __builtin_amdgcn_update_dpp(0, v, 0x112, 0xf, 0xf, false); /* row_shr:2 */
	v += __builtin_amdgcn_update_dpp(0, v, 0x114, 0xf, 0xf, false);
	v += __builtin_amdgcn_mov_dpp(v, 0xb1, 0xf, 0xf, true);         /* quad_perm */
#ifndef __GFX9__ /* permlanes are GFX10+; gfx942 gets a row broadcast instead */
	v += __builtin_amdgcn_permlanex16(v, v, 0x76543210, 0xfedcba98, false, false);
	v += __builtin_amdgcn_permlane16(v, v, 0x01234567, 0x89abcdef, false, false);
#else
	v += __builtin_amdgcn_update_dpp(0, v, 0x143, 0xc, 0xf, false); /* row_bcast:31 */
#endif
	out[i] = v;
}

kernel void narrow(global uchar *b, global short *s, global ushort *u, global char *c)
{
	uint i = GID();
	uchar x = b[i];
	short y = s[i];
	b[i] = (uchar)(x * 3 + (x >> 2));
	s[i] = (short)(y * y - (y >> 1));
	u[i] = (ushort)(u[i] / 3 + (ushort)x);
	c[i] = (char)(c[i] < 0 ? -c[i] : c[i]);
}

kernel void halfs(global half *h, global const half *a, global float *f)
{
	uint i = GID();
	half x = a[i], y = a[i + 1];
	half z = x * y + x / y - __builtin_fabsf16(x) + __builtin_sqrtf16(y) + (half)f[i];
	h[i] = x < y ? z : (half)((float)z * 2.0f);
	f[i] = (float)(x * (half)3.0) + (float)__builtin_fmaf16(x, y, z);
}

kernel void atomics64(global long *l, global ulong *u, global float *f, global double *d)
{
	uint i = GID();
	__atomic_fetch_add(l, (long)i, __ATOMIC_RELAXED);
	__atomic_fetch_max(u, (ulong)i, __ATOMIC_RELAXED);
	__atomic_fetch_min(u + 1, (ulong)i, __ATOMIC_RELAXED);
	__atomic_fetch_and(u + 2, (ulong)i, __ATOMIC_RELAXED);
	__atomic_fetch_or(u + 3, (ulong)i, __ATOMIC_RELAXED);
	ulong e = i;
	__atomic_compare_exchange_n(u + 4, &e, e + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(f + 1, 2.0f, __ATOMIC_RELAXED);
	__atomic_fetch_max(f + 2, 2.0f, __ATOMIC_RELAXED);
	__atomic_fetch_add(d, 1.0, __ATOMIC_RELAXED);
	l[8 + i] = __atomic_load_n(l + 4, __ATOMIC_ACQUIRE);
	__atomic_store_n(l + 5, (long)i, __ATOMIC_RELEASE);
}

kernel void lds_float(global float *out)
{
	local float acc[64];
	local double dacc;
	uint l = __builtin_amdgcn_workitem_id_x();
	acc[l & 63] = 0.0f;
	if (l == 0)
		dacc = 0.0;
	__builtin_amdgcn_s_barrier();
	__atomic_fetch_add(&acc[l & 63], 1.5f, __ATOMIC_RELAXED);
	__atomic_fetch_max(&acc[(l + 1) & 63], 1.5f, __ATOMIC_RELAXED);
	__atomic_fetch_add(&dacc, 1.0, __ATOMIC_RELAXED);
	__builtin_amdgcn_s_barrier();
	out[l] = acc[l & 63] + (float)dacc;
}

kernel void big_private(global float *out, global const int *idx, int n)
{
	float arr[256];
	uint i = GID();
	for (int k = 0; k < 256; k++)
		arr[k] = (float)(k * (int)i);
	for (int k = 0; k < n; k++)
		arr[idx[k] & 255] += 1.0f;
	out[i] = arr[idx[i] & 255] + arr[(idx[i] + 7) & 255];
}

typedef float float8 __attribute__((ext_vector_type(8)));
kernel void vec_math(global float8 *o, global const float8 *a, global const double *d, global double *e)
{
	uint i = GID();
	o[i] = a[i] * a[i + 1] + (float8)(1.0f) - a[i] / (float8)(3.0f);
	e[i] = __builtin_fma(d[i], d[i + 1], 2.0) / d[i + 2] + __builtin_fmax(d[i], 0.5) +
	       __builtin_ceil(d[i]) + __builtin_trunc(d[i]) + __builtin_rint(d[i]) + (double)(float)d[i];
}
