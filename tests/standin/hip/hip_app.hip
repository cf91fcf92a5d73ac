// A HIP program for the stand-in HIP runtime (tests/standin/hip): clang's module constructor
// registers its fat binary; main launches vector_add once with hipLaunchKernel and, given a
// code object file, loads it with hipModuleLoadData and launches its vector_add too.  Built
// at test time by clang-22 (-nogpuinc: no HIP headers, so the few declarations are here).
#include <stdio.h>
#include <stdlib.h>

#define __global__ __attribute__((global))
struct dim3 {
	unsigned x, y, z;
};
extern "C" int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, void *);
extern "C" int hipModuleLoadData(void **, const void *);
extern "C" int hipModuleGetFunction(void **, void *, const char *);
extern "C" int hipModuleLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned, unsigned,
                                     unsigned, unsigned, void *, void **, void **);
extern "C" const char *hipGetErrorName(int);

extern "C" __global__ void vector_add(const float *a, const float *b, float *c, unsigned n)
{
	unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i] = a[i] + b[i];
}

static int check(const char *what, int rc)
{
	if (rc)
		fprintf(stderr, "hip_app: %s: %s (%d)\n", what, hipGetErrorName(rc), rc);
	return rc;
}

int main(int argc, char **argv)
{
	static float a[256], b[256], c[256];
	const float *pa = a, *pb = b;
	float *pc = c;
	unsigned n = 256;
	void *args[] = {&pa, &pb, &pc, &n};

	if (argc < 2) {
		if (check("hipLaunchKernel", hipLaunchKernel((const void *)vector_add, dim3{4, 1, 1},
		                                             dim3{64, 1, 1}, args, 0, 0)))
			return 1;
		return 0;
	}
	FILE *f = fopen(argv[1], "rb");
	static char image[1 << 20];
	size_t len = f ? fread(image, 1, sizeof(image), f) : 0;
	void *module, *fn;
	if (!len) {
		fprintf(stderr, "hip_app: cannot read %s\n", argv[1]);
		return 2;
	}
	fclose(f);
	if (check("hipModuleLoadData", hipModuleLoadData(&module, image)) ||
	    check("hipModuleGetFunction", hipModuleGetFunction(&fn, module, "vector_add")) ||
	    check("hipModuleLaunchKernel",
	          hipModuleLaunchKernel(fn, 4, 1, 1, 64, 1, 1, 0, 0, args, 0)))
		return 1;
	return 0;
}
