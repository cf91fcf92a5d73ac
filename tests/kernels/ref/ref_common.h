/*
 * What both CPU references of the kernel suite share: read the launch file (the parser
 * `mirage emulate` uses), allocate and fill its buffers, and write the output buffers
 * afterwards.  Exit codes as mirage's: 0 ok, 1 the run failed, 2 a bad launch or command
 * line, 77 this reference cannot run the launch here (stated on stderr).
 */
#ifndef MIRAGE_REF_COMMON_H
#define MIRAGE_REF_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "launch_file.h"

struct ref_run {
	const char *tool;        /* prefix of every message */
	const char *launch;      /* the launch file's path */
	const char *output_dir;  /* --output-dir, or NULL: outputs go where the launch file says */
	const char *source;      /* --source (the POCL reference) */
	const char *prelude;     /* --prelude (the POCL reference) */
	unsigned sub_group_size; /* --sub-group-size: 32 (gfx1250's waves, the default) or 64 */
	struct launch_file *lf;
	uint8_t **mem; /* one allocation per buffer, lf->buffers[i].size bytes */
};

/* Parses argv ("LAUNCH.json [--output-dir DIR] [--source F] [--prelude F]
 * [--sub-group-size 32|64]"), loads the
 * launch file and fills its buffers.  Returns 0, or the exit code after printing why. */
int ref_setup(struct ref_run *run, const char *tool, int argc, char **argv);

/* Writes every buffer that has "output"; returns 0 or 1 after printing why. */
int ref_write_outputs(const struct ref_run *run);

void ref_release(struct ref_run *run);

/* Prints "TOOL: message" on stderr. */
void ref_error(const struct ref_run *run, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
