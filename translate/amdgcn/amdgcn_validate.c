/*
 * Descriptor validation (amdgcn.h): what LLVM wrote into <kernel>.kd and the metadata of the
 * linked object, checked against the source kernel before anything ships.  GFX9 (gfx942,
 * gfx950) layout: RSRC3 ACCUM_OFFSET [5:0] = accum / 4 - 1; RSRC1 VGPR granules [5:0] =
 * ceil((arch + AGPRs) / 8) - 1, metadata .vgpr_count align4(arch) + AGPRs; RSRC2 bit 0
 * enables the private segment; kernel code properties bit 10 is wave32, bit 11 the dynamic
 * stack.
 */
#include "amdgcn.h"
#include "mirage/isa.h"

#include <stdarg.h>
#include <stdio.h>

#define KD_GROUP    0
#define KD_PRIVATE  4
#define KD_KERNARG  8
#define KD_RSRC3    44
#define KD_RSRC1    48
#define KD_RSRC2    52
#define KD_PROPS    56
#define KCP_WAVE32  (1u << 10)
#define KCP_DYN_STK (1u << 11)

static uint32_t u32_at(const uint8_t *kd, unsigned off)
{
	return (uint32_t)kd[off] | (uint32_t)kd[off + 1] << 8 | (uint32_t)kd[off + 2] << 16 |
	       (uint32_t)kd[off + 3] << 24;
}

static int bad(char *detail, size_t size, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int bad(char *detail, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(detail, size, fmt, ap);
	va_end(ap);
	return -1;
}

int amdgcn_validate(const struct co_kernel *out, const struct co_kernel *src,
                    const struct amdgcn_target *t, uint32_t scratch_bytes, char *detail,
                    size_t size)
{
	const uint8_t *kd = out->kd;
	uint32_t rsrc1 = u32_at(kd, KD_RSRC1), rsrc2 = u32_at(kd, KD_RSRC2),
	         rsrc3 = u32_at(kd, KD_RSRC3);
	uint32_t props = (uint32_t)kd[KD_PROPS] | (uint32_t)kd[KD_PROPS + 1] << 8;
	uint32_t accum = ((rsrc3 & 0x3f) + 1) * 4, total = ((rsrc1 & 0x3f) + 1) * 8;
	uint32_t need = out->agpr_count ? accum + out->agpr_count : out->vgpr_count;
	uint32_t private_size = u32_at(kd, KD_PRIVATE), group = u32_at(kd, KD_GROUP);
	uint32_t src_max = src->max_flat_wg ? src->max_flat_wg : 1024;
	int uses_private = private_size > 0 || (props & KCP_DYN_STK);

	/* With the unified register file (gfx90a on) LLVM's .vgpr_count is the total:
	 * align4(architected) + AGPRs. */
	uint32_t arch = out->agpr_count && out->agpr_count <= out->vgpr_count
	                    ? out->vgpr_count - out->agpr_count
	                    : out->vgpr_count;

	(void)scratch_bytes; /* LLVM may keep the source's private segment in registers */
	if (accum < arch)
		return bad(detail, size, "ACCUM_OFFSET %u does not cover the %u architected VGPRs",
		           accum, arch);
	if (total < need)
		return bad(detail, size,
		           "RSRC1 allocates %u VGPRs, the kernel needs %u (%u AGPRs after "
		           "ACCUM_OFFSET %u)",
		           total, need, out->agpr_count, accum);
	if (!!(rsrc2 & 1) != uses_private)
		return bad(
		    detail, size,
		    "the private segment is %s but the kernel %s scratch (%u bytes per lane)",
		    rsrc2 & 1 ? "enabled" : "disabled", uses_private ? "uses" : "uses no",
		    private_size);
	if (group > isa_arch_lds_limit(t->arch))
		return bad(detail, size, "%u bytes of LDS exceed %s's %u", group, t->name,
		           isa_arch_lds_limit(t->arch));
	if (group < amdgcn_source_lds(src))
		return bad(detail, size, "%u bytes of LDS, the source needs %u", group,
		           amdgcn_source_lds(src));
	if (u32_at(kd, KD_KERNARG) != src->kernarg_size || out->kernarg_size != src->kernarg_size)
		return bad(detail, size,
		           "kernarg segment of %u bytes (metadata %u), the source's is %u",
		           u32_at(kd, KD_KERNARG), out->kernarg_size, src->kernarg_size);
	if (out->max_flat_wg < src_max)
		return bad(detail, size, "max_flat_workgroup_size %u is below the source's %u",
		           out->max_flat_wg, src_max);
	if (out->wavefront_size != 64 || (props & KCP_WAVE32))
		return bad(detail, size, "wavefront size %u, not 64", out->wavefront_size);
	return 0;
}
