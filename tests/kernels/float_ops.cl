/* Element-wise f32 and f64 arithmetic that IEEE 754 makes exact (correctly rounded): add,
 * sub, mul, fma, abs, copysign and a compare-select.  Bit-exact: no contraction. */
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void float_ops(__global float *out, __global const float *a, __global const float *b,
			__global double *dout, __global const double *da, uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	float x = a[i], y = b[i];
	out[6 * i + 0] = x + y;
	out[6 * i + 1] = x - y * 0.5f;
	out[6 * i + 2] = x * y;
	out[6 * i + 3] = fma(x, y, -x);
	out[6 * i + 4] = copysign(fabs(x), y);
	out[6 * i + 5] = x < y ? x : y;
	double d = da[i];
	dout[2 * i + 0] = d * d + (double)x;
	dout[2 * i + 1] = d - (double)y * 3.0;
}
