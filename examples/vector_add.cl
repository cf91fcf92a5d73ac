/* Two small kernels, compiled for gfx1250 at build time; no device libraries needed. */
#define WG 256
static uint global_index(void)
{
	return __builtin_amdgcn_workgroup_id_x() * WG + __builtin_amdgcn_workitem_id_x();
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
vector_add(__global const float *a, __global const float *b, __global float *c, uint n)
{
	uint i = global_index();
	if (i < n)
		c[i] = a[i] + b[i];
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void
saxpy(float alpha, __global const float *x, __global float *y, uint n)
{
	uint i = global_index();
	if (i < n)
		y[i] = alpha * x[i] + y[i];
}
