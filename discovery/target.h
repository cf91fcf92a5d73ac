/*
 * Which GPU a HotSwap workload is retargeted onto: the profile's target, else
 * $HSA_HOTSWAP_ISA_OVERRIDE, else the first visible detected GPU that HotSwap
 * supports for the source; otherwise a refusal naming what was detected.
 */
#ifndef MIRAGE_TARGET_H
#define MIRAGE_TARGET_H

#include "kfd.h"
#include "strbuf.h"

#include <stdbool.h>

struct target_request {
	const char *profile_target; /* "auto", NULL (= auto) or a gfx name */
	const char *isa_override;   /* value of HSA_HOTSWAP_ISA_OVERRIDE; NULL/"" = unset */
	const char *source_target;  /* "gfx1250:32", "amdgcn-amd-amdhsa--gfx1250", NULL = gfx1250 */
};

enum target_origin {
	TARGET_FROM_PROFILE,
	TARGET_FROM_OVERRIDE,
	TARGET_FROM_GPU,
};

struct target_choice {
	char gfx[64]; /* the target: a gfx name, or the override verbatim */
	enum target_origin origin;
	char origin_text[48];      /* "profile", "HSA_HOTSWAP_ISA_OVERRIDE", "detected GPU 1" */
	const struct kfd_gpu *gpu; /* TARGET_FROM_GPU: the GPU chosen (points into the kfd_gpus) */
};

/*
 * Resolves the target.  Returns 0 and fills *out, or -1 and appends a
 * one-line reason to why and a one-line fix to fix (either may be NULL).
 */
int target_resolve(const struct target_request *req, const struct kfd_gpus *gpus,
                   struct target_choice *out, struct strbuf *why, struct strbuf *fix);

/* The processor of a source target spec ("gfx1250:32" -> "gfx1250") into buf; NULL if it does not
 * fit. */
const char *target_source_gfx(const char *source_target, char *buf, size_t size);

/* Whether HotSwap can retarget code built for source_gfx onto the processor target. */
bool target_supported(const char *source_gfx, const struct gfx_info *target);

/* Appends the gfx names HotSwap can target for source_gfx, comma-separated, in table order. */
void target_supported_list(const char *source_gfx, struct strbuf *out);

#endif
