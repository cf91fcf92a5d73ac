/*
 * The POCL reference: builds the kernel's OpenCL C source (prelude/pocl.h in front) with the
 * system's OpenCL platform (Debian's pocl-opencl-icd), runs the launch file's grid and writes
 * the output buffers.  A grid that the workgroup does not divide runs rounded up to a
 * multiple of it (OpenCL C 1.2 has no partial workgroups): the suite's kernels guard every
 * access with their n argument, so the extra work-items change nothing.  Exits 77 (skip)
 * when there is no OpenCL device or it lacks an extension the source enables.
 * --build-options STRING adds options to the build (after -cl-std=CL1.2): the corpus runner
 * (corpus/run.sh) builds hashcat's sources with hashcat's -D options and include path.
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_common.h"

static char *read_text(const struct ref_run *run, const char *path)
{
	size_t size;
	char *text, *data = launch_read_regular(path, 1 << 20, &size);
	if (!data) {
		ref_error(run, "cannot read '%s'", path);
		return NULL;
	}
	if ((text = realloc(data, size + 1)))
		text[size] = 0;
	else
		free(data);
	return text;
}

/* The extensions the source enables with #pragma OPENCL EXTENSION that the device lacks. */
static int missing_extension(const struct ref_run *run, const char *source, const char *have)
{
	static const char *const wanted[] = {"cl_khr_fp16", "cl_khr_fp64", NULL};
	for (const char *const *w = wanted; *w; w++) {
		if (strstr(source, *w) && !strstr(have, *w)) {
			ref_error(run, "skip: the OpenCL device lacks %s, which %s enables", *w,
			          run->source);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ref_run run;
	cl_platform_id platform;
	cl_device_id device;
	cl_context ctx = NULL;
	cl_command_queue queue = NULL;
	cl_program program = NULL;
	cl_kernel kernel = NULL;
	cl_mem *mems = NULL;
	char *source = NULL, *prelude = NULL, ext[8192] = "";
	cl_uint nplatforms = 0;
	cl_int e;
	/* --build-options is this reference's own; ref_setup parses the rest. */
	const char *extra = NULL;
	char *options = NULL;
	for (int i = 1; i + 1 < argc; i++) {
		if (strcmp(argv[i], "--build-options") == 0) {
			extra = argv[i + 1];
			memmove(&argv[i], &argv[i + 2], (size_t)(argc - i - 1) * sizeof *argv);
			argc -= 2;
			break;
		}
	}
	int rc = ref_setup(&run, "pocl_ref", argc, argv);
	if (rc)
		goto done;
	rc = 2;
	if (!run.source || !run.prelude) {
		ref_error(&run, "--source FILE.cl and --prelude FILE are required");
		goto done;
	}
	if (!(source = read_text(&run, run.source)) || !(prelude = read_text(&run, run.prelude)))
		goto done;
	rc = 77;
	if (clGetPlatformIDs(1, &platform, &nplatforms) != CL_SUCCESS || nplatforms == 0 ||
	    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL) != CL_SUCCESS) {
		ref_error(&run, "skip: no OpenCL platform or device (install pocl-opencl-icd)");
		goto done;
	}
	clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
	if (missing_extension(&run, source, ext))
		goto done;
	rc = 1;
	if (!(ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &e)) ||
	    !(queue = clCreateCommandQueue(ctx, device, 0, &e))) {
		ref_error(&run, "cannot create an OpenCL context (error %d)", e);
		goto done;
	}
	const char *texts[2] = {prelude, source};
	if (!(program = clCreateProgramWithSource(ctx, 2, texts, NULL, &e)))
		goto done;
	if (asprintf(&options, "-cl-std=CL1.2 -DMIRAGE_SUB_GROUP_SIZE=%u %s", run.sub_group_size,
	             extra ? extra : "") < 0) {
		options = NULL;
		goto done;
	}
	e = clBuildProgram(program, 1, &device, options, NULL, NULL);
	if (e != CL_SUCCESS) {
		static char log[65536];
		clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log,
		                      NULL);
		ref_error(&run, "%s: build failed (error %d):\n%s", run.source, e, log);
		goto done;
	}
	if (!(kernel = clCreateKernel(program, run.lf->kernel, &e))) {
		ref_error(&run, "%s: kernel: no kernel '%s' in %s (error %d)", run.lf->path,
		          run.lf->kernel, run.source, e);
		rc = 2;
		goto done;
	}
	mems = calloc(run.lf->nbuffers + 1, sizeof *mems);
	for (size_t i = 0; mems && i < run.lf->nbuffers; i++) {
		mems[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
		                         run.lf->buffers[i].size, run.mem[i], &e);
		if (!mems[i]) {
			ref_error(&run, "buffers.%s: cannot create (error %d)",
			          run.lf->buffers[i].name, e);
			goto done;
		}
	}
	for (size_t i = 0; i < run.lf->nargs; i++) {
		const struct launch_arg *a = &run.lf->args[i];
		if (a->kind == LAUNCH_ARG_BUFFER && a->offset) {
			ref_error(&run,
			          "skip: args[%zu]: buffer offsets are not run by this reference",
			          i);
			rc = 77;
			goto done;
		}
		e = a->kind == LAUNCH_ARG_BUFFER
		        ? clSetKernelArg(kernel, (cl_uint)i, sizeof(cl_mem), &mems[a->buffer])
		        : clSetKernelArg(kernel, (cl_uint)i, a->size, a->value);
		if (e != CL_SUCCESS) {
			ref_error(&run, "%s: args[%zu]: the kernel refuses it (error %d)",
			          run.lf->path, i, e);
			rc = 2;
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
		ref_error(&run, "kernel '%s': cannot enqueue (error %d)", run.lf->kernel, e);
		goto done;
	}
	for (size_t i = 0; i < run.lf->nbuffers; i++) {
		e = clEnqueueReadBuffer(queue, mems[i], CL_TRUE, 0, run.lf->buffers[i].size,
		                        run.mem[i], 0, NULL, NULL);
		if (e != CL_SUCCESS) {
			ref_error(&run, "buffers.%s: cannot read back (error %d)",
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
	if (program)
		clReleaseProgram(program);
	if (queue)
		clReleaseCommandQueue(queue);
	if (ctx)
		clReleaseContext(ctx);
	free(options);
	free(source);
	free(prelude);
	ref_release(&run);
	return rc;
}
