/* f16 arithmetic (cl_khr_fp16): each operation rounds to f16 (assigned to a half), so packed
 * and scalar f16 code and a host computing in float give the same bits.  Each work-item
 * handles two neighbouring elements in straight-line code, which the compiler packs
 * (v_pk_mul_f16, v_pk_add_f16). */
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void f16_arith(__global half *out, __global const half *a, __global const half *b,
			uint n)
{
	uint i = (uint)get_global_id(0);
	if (i >= n / 2)
		return;
	half x0 = a[2 * i], x1 = a[2 * i + 1], y0 = b[2 * i], y1 = b[2 * i + 1];
	half p0 = x0 * y0, p1 = x1 * y1;
	half s0 = p0 + x0, s1 = p1 + x1;
	out[2 * i] = p0;
	out[2 * i + 1] = p1;
	out[n + 2 * i] = s0 - y0;
	out[n + 2 * i + 1] = s1 - y1;
	out[2 * n + 2 * i] = x0 < y0 ? x0 : y0;
	out[2 * n + 2 * i + 1] = x1 < y1 ? x1 : y1;
}
