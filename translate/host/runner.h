/*
 * The CPU runner: executes a raised, host-bound kernel for a grid.  One fiber per lane,
 * waves of 32 or 64 lanes (the kernel's wave size) in lockstep at every cross-lane hook (a lane at
 * another hook site is a reported convergence violation, never a hang), workgroup barriers across
 * the waves of a group, one LDS buffer per workgroup, scratch per lane, every memory access checked
 * against the launch's buffers.  Workgroups run one after another; the schedule of waves
 * and lanes between rendezvous is deterministic, or shuffled from a seed.
 */
#ifndef MIRAGE_RUNNER_H
#define MIRAGE_RUNNER_H

#include <stddef.h>
#include <stdint.h>

/* The widest wave (gfx9.4 wave64); gfx12.5 kernels run waves of 32. */
#define RUNNER_MAX_WAVE 64

struct run_region {
	const char *name; /* a buffer's name, "kernarg" */
	uint8_t *base;
	uint64_t size;
};

struct run_config {
	void (*entry)(void); /* the JIT-compiled lane function */
	uint32_t grid[3];    /* work-items */
	uint32_t wg[3];      /* work-items */
	uint8_t *kernarg;
	uint8_t *dispatch; /* the 64-byte AQL dispatch packet the kernel may read */
	uint32_t kernarg_size;
	uint32_t lds_bytes;     /* LDS per workgroup: what the hardware allocates for it */
	uint32_t lds_declared;  /* ... of which the kernel declares (static + dynamic) */
	uint32_t scratch_bytes; /* per lane */
	uint32_t wave;          /* lanes per wave: 32 or 64 (0 = 32) */
	const struct run_region *regions;
	size_t nregions;
	/* The launch's copy of the code object's loaded image, read and written at the object's
	 * own addresses [image_addr, image_addr + image_size): what s_get_pc_i64-relative
	 * addresses reach.  NULL when the kernel reads no image. */
	uint8_t *image;
	uint64_t image_addr, image_size;
	int shuffle; /* 0 deterministic; else seeded */
	uint64_t seed;
	/* Called after each workgroup with done of total (NULL: nobody asked). */
	void (*progress)(void *ctx, size_t done, size_t total);
	void *progress_ctx;
};

enum run_status {
	RUN_OK = 0,
	RUN_FAULT,       /* an access outside every buffer, a trap, an unresolved branch */
	RUN_CONVERGENCE, /* lanes of a wave at different hooks: a raiser bug */
	RUN_FPENV,       /* MXCSR not round-to-nearest with denormals kept */
	RUN_NOMEM,
};

struct run_report {
	enum run_status status;
	char message[512];
	uint64_t fault_offset; /* instruction offset in .text (RUN_FAULT) */
	uint64_t workgroups, waves;
};

int runner_run(const struct run_config *cfg, struct run_report *rep);

/* The runner's implementation of hook NAME ("mx.ballot"), or NULL: the host binding's table. */
void *runner_hook_address(const char *hook);

#endif
