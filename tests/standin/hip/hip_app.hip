// A HIP program for the stand-in HIP runtime (tests/standin/hip).  clang's module constructor
// registers its fat binary.  Without arguments main launches vector_add on device memory
// (hipMalloc, hipMemcpy, hipLaunchKernel); with "MODE FILE" it loads FILE and launches its
// vector_add, MODE being how: data (hipModuleLoadData), data-ex (hipModuleLoadDataEx), file
// (hipModuleLoad) or proc (hipModuleLoadData through a hipGetProcAddress pointer).  Built at
// test time by clang-22 (-nogpuinc: no HIP headers, so the few declarations are here); with
// -DHIP_APP_LIBRARY it is a shared library whose hip_app_run is main (dlopen_app.c); with
// -DHIP_APP_REFUSED its object also holds a kernel mirage cannot translate for gfx942.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define __global__ __attribute__((global))
struct dim3 {
	unsigned x, y, z;
};
extern "C" {
int hipLaunchKernel(const void *, dim3, dim3, void **, unsigned long, void *);
int hipModuleLoadData(void **, const void *);
int hipModuleLoadDataEx(void **, const void *, unsigned, int *, void **);
int hipModuleLoad(void **, const char *);
int hipGetProcAddress(const char *, void **, int, unsigned long, void *);
int hipModuleGetFunction(void **, void *, const char *);
int hipModuleLaunchKernel(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                          unsigned, void *, void **, void **);
int hipMalloc(void **, unsigned long);
int hipMemcpy(void *, const void *, unsigned long, int);
const char *hipGetErrorName(int);
}

extern "C" __global__ void vector_add(const float *a, const float *b, float *c, unsigned n)
{
	unsigned i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
	if (i < n)
		c[i] = a[i] + b[i];
}

#ifdef HIP_APP_REFUSED
// ds_load_tr8_b64's lane mapping is not documented (docs/raiser.md, "Refusals"): the kernel
// is refused.
extern "C" __global__ void swapper(unsigned long long *c)
{
	unsigned long long v;
	__asm__ volatile("ds_load_tr8_b64 %0, %1\n\ts_wait_dscnt 0"
	                 : "=v"(v)
	                 : "v"(__builtin_amdgcn_workitem_id_x() * 8));
	c[__builtin_amdgcn_workitem_id_x()] = v;
}
#endif

static int check(const char *what, int rc)
{
	if (rc)
		fprintf(stderr, "hip_app: %s: %s (%d)\n", what, hipGetErrorName(rc), rc);
	return rc;
}

// The module of MODE FILE, or 0 (said).
static void *load(const char *mode, const char *path)
{
	static char image[1 << 20];
	void *module = 0;
	int (*load_data)(void **, const void *) = hipModuleLoadData;

	if (!strcmp(mode, "file"))
		return check("hipModuleLoad", hipModuleLoad(&module, path)) ? 0 : module;
	FILE *f = fopen(path, "rb");
	size_t len = f ? fread(image, 1, sizeof(image), f) : 0;
	if (f)
		fclose(f);
	if (!len) {
		fprintf(stderr, "hip_app: cannot read %s\n", path);
		return 0;
	}
	if (!strcmp(mode, "data-ex"))
		return check("hipModuleLoadDataEx", hipModuleLoadDataEx(&module, image, 0, 0, 0)) ? 0
		                                                                                   : module;
	if (!strcmp(mode, "proc") &&
	    check("hipGetProcAddress", hipGetProcAddress("hipModuleLoadData", (void **)&load_data,
	                                                 602, 0, 0)))
		return 0;
	return check("hipModuleLoadData", load_data(&module, image)) ? 0 : module;
}

#ifdef HIP_APP_LIBRARY
extern "C" __attribute__((visibility("default"))) int hip_app_run(int argc, char **argv)
#else
int main(int argc, char **argv)
#endif
{
	enum { N = 250, SIZE = 256 * sizeof(float) };
	static float a[256], b[256], c[256];
	float *da, *db, *dc;
	unsigned n = N;
	void *args[] = {&da, &db, &dc, &n};
	void *module, *fn;

	for (int i = 0; i < 256; i++) {
		a[i] = i * 0.5f;
		b[i] = 1000.0f - i;
	}
	if (check("hipMalloc", hipMalloc((void **)&da, SIZE)) ||
	    check("hipMalloc", hipMalloc((void **)&db, SIZE)) ||
	    check("hipMalloc", hipMalloc((void **)&dc, SIZE)) ||
	    check("hipMemcpy", hipMemcpy(da, a, SIZE, 1)) || check("hipMemcpy", hipMemcpy(db, b, SIZE, 1)) ||
	    check("hipMemcpy", hipMemcpy(dc, c, SIZE, 1)))
		return 1;
	if (argc < 3)
		return check("hipLaunchKernel", hipLaunchKernel((const void *)vector_add, dim3{4, 1, 1},
		                                                 dim3{64, 1, 1}, args, 0, 0))
		           ? 1
		           : 0;
	if (!(module = load(argv[1], argv[2])) ||
	    check("hipModuleGetFunction", hipModuleGetFunction(&fn, module, "vector_add")) ||
	    check("hipModuleLaunchKernel", hipModuleLaunchKernel(fn, 4, 1, 1, 64, 1, 1, 0, 0, args, 0)))
		return 1;
	return 0;
}
