/* f16 arithmetic (cl_khr_fp16): each operation rounds to f16 (assigned to a half), so packed
 * and scalar f16 code and a host computing in float give the same bits. */
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

__kernel void f16_arith(__global half *out, __global const half *a, __global const half *b,
			uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	half x = a[i], y = b[i];
	half p = x * y;
	half s = p + x;
	half d = s - y;
	out[4 * i + 0] = p;
	out[4 * i + 1] = s;
	out[4 * i + 2] = d;
	out[4 * i + 3] = x < y ? x : y;
}
