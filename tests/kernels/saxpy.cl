/* saxpy: y = a * x + y, with the multiply and the add rounded separately. */
#pragma OPENCL FP_CONTRACT OFF

__kernel void saxpy(__global float *y, __global const float *x, float a, uint n)
{
	size_t i = get_global_id(0);
	if (i < n)
		y[i] = a * x[i] + y[i];
}
