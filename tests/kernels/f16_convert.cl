/* f16 storage (core OpenCL: vload_half / vstore_half, rounding to nearest even): f16 in,
 * f32 arithmetic, f16 and f32 out. */
#pragma OPENCL FP_CONTRACT OFF

__kernel void f16_convert(__global half *hout, __global float *fout, __global const half *a,
			  __global const float *b, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	float x = vload_half(i, a);
	fout[i] = x;
	vstore_half(x * b[i], i, hout);
}
