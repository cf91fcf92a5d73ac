/* Operations OpenCL lets an implementation approximate: f32 division (2.5 ULP) and sqrt
 * (3 ULP).  Compared within 3 ULP, never bit-exact. */
#pragma OPENCL FP_CONTRACT OFF

__kernel void approx(__global float *out, __global const float *a, __global const float *b,
		     uint n)
{
	size_t i = get_global_id(0);
	if (i >= n)
		return;
	float x = a[i], y = b[i];
	out[2 * i + 0] = x / y;
	out[2 * i + 1] = sqrt(fabs(x));
}
