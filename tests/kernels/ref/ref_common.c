/* The launch-file side of the CPU references (ref_common.h). */
#include "ref_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ref_error(const struct ref_run *run, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: ", run->tool);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int ref_setup(struct ref_run *run, const char *tool, int argc, char **argv)
{
	char *err = NULL;
	const char *sg = NULL;
	memset(run, 0, sizeof *run);
	run->tool = tool;
	run->sub_group_size = 32;
	for (int i = 1; i < argc; i++) {
		const char **opt = NULL;
		if (strcmp(argv[i], "--sub-group-size") == 0)
			opt = &sg;
		else if (strcmp(argv[i], "--output-dir") == 0)
			opt = &run->output_dir;
		else if (strcmp(argv[i], "--source") == 0)
			opt = &run->source;
		else if (strcmp(argv[i], "--prelude") == 0)
			opt = &run->prelude;
		if (opt) {
			if (++i == argc) {
				ref_error(run, "%s needs a value", argv[i - 1]);
				return 2;
			}
			*opt = argv[i];
		} else if (argv[i][0] == '-' || run->launch) {
			ref_error(run,
			          "usage: %s LAUNCH.json [--output-dir DIR] [--source FILE.cl] "
			          "[--prelude FILE] [--sub-group-size 32|64]",
			          tool);
			return 2;
		} else {
			run->launch = argv[i];
		}
	}
	if (sg) {
		if (strcmp(sg, "32") && strcmp(sg, "64")) {
			ref_error(run, "--sub-group-size: '%s' is not 32 or 64 (the wave sizes)",
			          sg);
			return 2;
		}
		run->sub_group_size = (unsigned)atoi(sg);
	}
	if (!run->launch) {
		ref_error(run, "usage: %s LAUNCH.json [--output-dir DIR]", tool);
		return 2;
	}
	if (launch_file_load(run->launch, &run->lf, &err)) {
		ref_error(run, "%s", err ? err : "cannot load the launch file");
		free(err);
		return 2;
	}
	run->mem = calloc(run->lf->nbuffers ? run->lf->nbuffers : 1, sizeof *run->mem);
	if (!run->mem) {
		ref_error(run, "out of memory");
		return 1;
	}
	for (size_t i = 0; i < run->lf->nbuffers; i++) {
		const struct launch_buffer *b = &run->lf->buffers[i];
		/* 256-byte alignment, as a GPU allocation has; the kernels' loads need it. */
		if (!(run->mem[i] = aligned_alloc(256, (b->size + 255) & ~(uint64_t)255))) {
			ref_error(run, "buffer '%s': out of memory (%llu bytes)", b->name,
			          (unsigned long long)b->size);
			return 1;
		}
		if (launch_buffer_fill(run->lf, b, run->mem[i], &err)) {
			ref_error(run, "%s", err ? err : "cannot fill a buffer");
			free(err);
			return 2;
		}
	}
	return 0;
}

int ref_write_outputs(const struct ref_run *run)
{
	for (size_t i = 0; i < run->lf->nbuffers; i++) {
		const struct launch_buffer *b = &run->lf->buffers[i];
		char *path = NULL;
		FILE *f;
		if (!b->output)
			continue;
		if (run->output_dir) {
			const char *base = strrchr(b->output, '/');
			if (asprintf(&path, "%s/%s", run->output_dir, base ? base + 1 : b->output) <
			    0)
				path = NULL;
		} else {
			path = strdup(b->output_path);
		}
		if (!path) {
			ref_error(run, "out of memory");
			return 1;
		}
		f = fopen(path, "wb");
		int bad = !f || fwrite(run->mem[i], 1, b->size, f) != b->size;
		if (f && fclose(f) != 0)
			bad = 1;
		if (bad) {
			ref_error(run, "buffers.%s.output: cannot write '%s': %s", b->name, path,
			          strerror(errno));
			free(path);
			return 1;
		}
		free(path);
	}
	return 0;
}

void ref_release(struct ref_run *run)
{
	if (run->mem) {
		for (size_t i = 0; i < run->lf->nbuffers; i++)
			free(run->mem[i]);
	}
	free(run->mem);
	launch_file_free(run->lf);
	run->mem = NULL;
	run->lf = NULL;
}
