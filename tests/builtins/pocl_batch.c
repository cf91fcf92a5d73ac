/*
 * The POCL reference of the builtin differential test (tests/builtins/README.md): builds one
 * OpenCL C source once with the system's OpenCL platform (Debian's pocl-opencl-icd, OpenCL C
 * 1.2), then runs many launch files against it, each kernel once, and writes each launch's
 * output buffers into the directory given with it.  One build for the hundreds of kernels of
 * a source is what keeps the test fast: tests/kernels/ref/pocl_main.c builds per launch.
 *
 *   pocl_batch SOURCE.cl LIST
 *
 * LIST has one "LAUNCH.json OUTPUT_DIR" per line.  Per launch it prints "ok LAUNCH" or
 * "error LAUNCH: why" on stdout and goes on with the next.  Exits 0 when every launch ran,
 * 1 when some did not, 2 for a bad command line or a source that does not build, 77 when
 * there is no OpenCL device or it lacks cl_khr_fp64.  The build is -cl-std=CL1.2
 * -cl-opt-disable; POCL caches the compiled kernels in POCL_CACHE_DIR (the test keeps that
 * under the build tree, so a second run does not compile them again).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_common.h"

/* Runs one launch on program; 0 when its outputs are written. */
static int run_launch(cl_context ctx, cl_command_queue queue, cl_program program,
                      const char *launch, const char *outdir)
{
	struct ref_run run;
	char *argv[] = {"pocl_batch", (char *)launch, "--output-dir", (char *)outdir, NULL};
	cl_kernel kernel = NULL;
	cl_mem *mems = NULL;
	cl_int e;
	int rc = ref_setup(&run, "pocl_batch", 4, argv);
	if (rc)
		goto done;
	rc = 1;
	if (!(kernel = clCreateKernel(program, run.lf->kernel, &e))) {
		ref_error(&run, "%s: no kernel '%s' (error %d)", launch, run.lf->kernel, e);
		goto done;
	}
	mems = calloc(run.lf->nbuffers + 1, sizeof *mems);
	for (size_t i = 0; mems && i < run.lf->nbuffers; i++) {
		mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
		                         run.lf->buffers[i].size, run.mem[i], &e);
		if (!mems[i]) {
			ref_error(&run, "%s: buffers.%s: cannot create (error %d)", launch,
			          run.lf->buffers[i].name, e);
			goto done;
		}
	}
	if (!mems)
		goto done;
	for (size_t i = 0; i < run.lf->nargs; i++) {
		const struct launch_arg *a = &run.lf->args[i];
		e = a->kind == LAUNCH_ARG_BUFFER
		        ? clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &mems[a->buffer])
		        : clSetKernelArg(kernel, (cl_uint)i, a->size, a->value);
		if (e != CL_SUCCESS) {
			ref_error(&run, "%s: args[%zu]: the kernel refuses it (error %d)", launch,
			          i, e);
			goto done;
		}
	}
	size_t global[3], local[3];
	for (int d = 0; d < 3; d++) {
		local[d] = run.lf->workgroup[d];
		global[d] = (run.lf->grid[d] + local[d] - 1) / local[d] * local[d];
	}
	e = clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, local, 0, NULL, NULL);
	if (e != CL_SUCCESS) {
		ref_error(&run, "%s: cannot enqueue (error %d)", launch, e);
		goto done;
	}
	for (size_t i = 0; i < run.lf->nbuffers; i++) {
		e = clEnqueueReadBuffer(queue, mems[i], CL_TRUE, 0, run.lf->buffers[i].size,
		                        run.mem[i], 0, NULL, NULL);
		if (e != CL_SUCCESS) {
			ref_error(&run, "%s: buffers.%s: cannot read back (error %d)", launch,
			          run.lf->buffers[i].name, e);
			goto done;
		}
	}
	rc = ref_write_outputs(&run);
done:
	for (size_t i = 0; mems && i < run.lf->nbuffers; i++) {
		if (mems[i])
			clReleaseMemObject(mems[i]);
	}
	free(mems);
	if (kernel)
		clReleaseKernel(kernel);
	ref_release(&run);
	return rc;
}

int main(int argc, char **argv)
{
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx = NULL;
	cl_command_queue queue = NULL;
	cl_program program = NULL;
	cl_uint nplatforms = 0;
	cl_int e;
	char ext[8192] = "", line[8192];
	int rc = 2, failed = 0;
	size_t size;
	char *source = NULL;
	FILE *list = NULL;
	if (argc != 3) {
		fprintf(stderr, "usage: pocl_batch SOURCE.cl LIST\n");
		return 2;
	}
	if (!(source = launch_read_regular(argv[1], 1 << 24, &size)) ||
	    !(source = realloc(source, size + 1))) {
		fprintf(stderr, "pocl_batch: cannot read '%s'\n", argv[1]);
		return 2;
	}
	source[size] = 0;
	if (!(list = fopen(argv[2], "r"))) {
		fprintf(stderr, "pocl_batch: cannot read '%s'\n", argv[2]);
		goto done;
	}
	rc = 77;
	if (clGetPlatformIDs(1, &platform, &nplatforms) != CL_SUCCESS || nplatforms == 0 ||
	    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
		fprintf(stderr, "pocl_batch: skip: no OpenCL platform or device\n");
		goto done;
	}
	clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
	if (!strstr(ext, "cl_khr_fp64")) {
		fprintf(stderr, "pocl_batch: skip: the OpenCL device lacks cl_khr_fp64\n");
		goto done;
	}
	rc = 2;
	if (!(ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &e)) ||
	    !(queue = clCreateCommandQueue(ctx, device, 0, &e))) {
		fprintf(stderr, "pocl_batch: cannot create an OpenCL context (error %d)\n", e);
		goto done;
	}
	const char *texts[1] = {source};
	if (!(program = clCreateProgramWithSource(ctx, 1, texts, NULL, &e)))
		goto done;
	/* -cl-opt-disable halves POCL's compile time; the builtins are POCL's library either way,
	 * and the sources ask for no contraction. */
	e = clBuildProgram(program, 1, &device, "-cl-std=CL1.2 -cl-opt-disable", NULL, NULL);
	if (e != CL_SUCCESS) {
		static char log[65536];
		clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log,
		                      NULL);
		fprintf(stderr, "pocl_batch: %s: build failed (error %d):\n%s\n", argv[1], e, log);
		goto done;
	}
	while (fgets(line, sizeof line, list)) {
		char *launch = strtok(line, " \t\n"), *outdir = strtok(NULL, " \t\n");
		if (!launch)
			continue;
		if (!outdir) {
			printf("error %s: no output directory\n", launch);
			failed = 1;
			continue;
		}
		if (run_launch(ctx, queue, program, launch, outdir)) {
			printf("error %s: see stderr\n", launch);
			failed = 1;
		} else {
			printf("ok %s\n", launch);
		}
		fflush(stdout);
	}
	rc = failed;
done:
	if (list)
		fclose(list);
	if (program)
		clReleaseProgram(program);
	if (queue)
		clReleaseCommandQueue(queue);
	if (ctx)
		clReleaseContext(ctx);
	free(source);
	return rc;
}
