// The example's vector_add as a HIP kernel, built at build time by clang-22 into a shared
// library whose .hip_fatbin holds a compressed (CCOB) bundle with one gfx1250 code object:
// what a HIP program built with --offload-arch=gfx1250 carries (docs/hip.md).  No HIP
// headers or runtime are needed to build it (-nogpuinc -no-hip-rt).
#define __global__ __attribute__((global))
struct dim3 {
	unsigned x, y, z;
};
extern "C" int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, void *);

extern "C" __global__ void vector_add(const float *a, const float *b, float *c, unsigned n)
{
	unsigned i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i] = a[i] + b[i];
}
