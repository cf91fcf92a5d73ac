/*
 * The host-C reference: runs a launch file's kernel from the kernel source compiled as host C
 * (linked in with its generated kernel table), and writes the output buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_runtime.h"
#include "ref_common.h"
#include "work_item.h"

static const struct mirage_host_kernel *find_kernel(const char *name)
{
	for (const struct mirage_host_kernel *k = mirage_host_kernels; k->name; k++) {
		if (strcmp(k->name, name) == 0)
			return k;
	}
	return NULL;
}

/* The launch file's args against the kernel's parameters: count, buffer or value, size. */
static int check_args(const struct ref_run *run, const struct mirage_host_kernel *k)
{
	const struct launch_file *lf = run->lf;
	if (lf->nargs != k->nparams) {
		ref_error(run, "%s: args: %zu given, kernel '%s' has %zu parameters", lf->path,
		          lf->nargs, k->name, k->nparams);
		return 2;
	}
	for (size_t i = 0; i < lf->nargs; i++) {
		const struct launch_arg *a = &lf->args[i];
		const struct mirage_host_param *p = &k->params[i];
		if (p->pointer && a->kind != LAUNCH_ARG_BUFFER) {
			ref_error(run,
			          "%s: args[%zu]: parameter '%s' takes a buffer, the launch file "
			          "gives %s",
			          lf->path, i, p->decl, launch_scalar_name(a->type));
			return 2;
		}
		if (!p->pointer && (a->kind == LAUNCH_ARG_BUFFER || a->size != p->size)) {
			ref_error(run,
			          "%s: args[%zu]: parameter '%s' takes %zu bytes, the launch file "
			          "gives %s",
			          lf->path, i, p->decl, p->size,
			          a->kind == LAUNCH_ARG_BUFFER ? "a buffer"
			                                       : launch_scalar_name(a->type));
			return 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ref_run run;
	const struct mirage_host_kernel *k;
	const char *err;
	void **args = NULL, **pointers = NULL;
	int rc = ref_setup(&run, "host_ref", argc, argv);
	if (rc)
		goto done;
	if (!(k = find_kernel(run.lf->kernel))) {
		ref_error(&run, "%s: kernel: no kernel '%s' in this reference", run.lf->path,
		          run.lf->kernel);
		rc = 2;
		goto done;
	}
	if ((rc = check_args(&run, k)))
		goto done;
	args = calloc(run.lf->nargs + 1, sizeof *args);
	pointers = calloc(run.lf->nargs + 1, sizeof *pointers);
	if (!args || !pointers) {
		ref_error(&run, "out of memory");
		rc = 1;
		goto done;
	}
	for (size_t i = 0; i < run.lf->nargs; i++) {
		const struct launch_arg *a = &run.lf->args[i];
		if (a->kind == LAUNCH_ARG_BUFFER) {
			pointers[i] = run.mem[a->buffer] + a->offset;
			args[i] = &pointers[i];
		} else {
			args[i] = a->value;
		}
	}
	mirage_sub_group_size = run.sub_group_size;
	if (mirage_host_run(k, args, run.lf->grid, run.lf->workgroup, &err)) {
		ref_error(&run, "kernel '%s': %s", k->name, err);
		fflush(stderr);
		_Exit(1); /* work-item threads may still wait at a barrier */
	}
	rc = ref_write_outputs(&run);
done:
	free(args);
	free(pointers);
	ref_release(&run);
	return rc;
}
