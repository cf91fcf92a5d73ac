/*
 * Host GPU detection from the KFD topology in sysfs: every GPU node with its
 * gfx name and ASIC revision, and which of them ROCR_VISIBLE_DEVICES /
 * HIP_VISIBLE_DEVICES leave visible to a workload.
 *
 *	struct kfd_gpus gpus = KFD_GPUS_INIT;
 *	kfd_scan(NULL, &gpus);      // NULL: $MIRAGE_SYSFS_ROOT or /sys
 *	... gpus.gpu[i], gpus.warnings ...
 *	kfd_gpus_release(&gpus);
 */
#ifndef MIRAGE_KFD_H
#define MIRAGE_KFD_H

#include "gfx_table.h"
#include "strvec.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kfd_gpu {
	unsigned index;              /* GPU index as ROCr counts them: GPU nodes in node order */
	unsigned node;               /* topology node number (directory name) */
	uint32_t gfx_target_version; /* KFD value, e.g. 90402 */
	char gfx[24];                /* "gfx942" */
	const struct gfx_info *info; /* row of the gfx table, NULL if the table does not know it */
	unsigned asic_revision;      /* (capability >> 22) & 0xf; on gfx1250 0 = A0 */
	uint32_t device_id;
	uint32_t location_id;
	uint32_t drm_render_minor;
	uint32_t simd_count;
	uint64_t unique_id; /* 0 when the kernel does not report one */
	int visible_rank;   /* position in the visible order, -1 if hidden by *_VISIBLE_DEVICES */
};

struct kfd_gpus {
	bool kfd_present;    /* the topology directory exists */
	char *nodes_dir;     /* the directory that was read */
	struct kfd_gpu *gpu; /* every GPU node, in index order */
	size_t nr;
	size_t *visible; /* indices into gpu[], in the order a workload sees them */
	size_t nvisible;
	const char
	    *visible_var; /* "ROCR_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", both joined, or NULL */
	struct strvec
	    warnings; /* malformed nodes and bad *_VISIBLE_DEVICES entries, one line each */
};

#define KFD_GPUS_INIT                                                                              \
	{                                                                                          \
		.warnings = STRVEC_INIT                                                            \
	}

/*
 * Reads <sysfs_root>/class/kfd/kfd/topology/nodes.  sysfs_root NULL means
 * $MIRAGE_SYSFS_ROOT, else "/sys".  A missing directory is no GPUs, not an
 * error; a malformed properties file is a warning naming file and line, and
 * that node is skipped.  Always returns 0 (out must be KFD_GPUS_INIT).
 */
int kfd_scan(const char *sysfs_root, struct kfd_gpus *out);

/* Frees everything and resets to KFD_GPUS_INIT. */
void kfd_gpus_release(struct kfd_gpus *gpus);

/* "A0" or "B0" for gfx12.5 GPUs, by gfx_stepping() (the intercept's rule too), else NULL. */
const char *kfd_gpu_stepping(const struct kfd_gpu *gpu);

#endif
