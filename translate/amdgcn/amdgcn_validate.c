/*
 * Descriptor validation (amdgcn.h): what LLVM wrote into <kernel>.kd and the metadata of the
 * linked object, checked against the source kernel before anything ships.  GFX9 (gfx942,
 * gfx950) fields (codeobj/kd.h): ACCUM_OFFSET = accum / 4 - 1; the VGPR granules =
 * ceil((arch + AGPRs) / 8) - 1, metadata .vgpr_count align4(arch) + AGPRs.
 */
#include "amdgcn.h"
#include "mirage/isa.h"

#include <stdarg.h>
#include <stdio.h>

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
	uint32_t accum = (co_kd(out, "accum_offset") + 1) * 4,
	         total = (co_kd(out, "granulated_workitem_vgpr_count") + 1) * 8;
	uint32_t need = out->agpr_count ? accum + out->agpr_count : out->vgpr_count;
	uint32_t private_size = out->desc.private_segment_fixed_size,
	         group = out->desc.group_segment_fixed_size;
	uint32_t private_enabled = co_kd(out, "enable_private_segment");
	uint32_t src_max = src->max_flat_wg ? src->max_flat_wg : 1024;
	int uses_private = private_size > 0 || co_kd(out, "uses_dynamic_stack");

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
	if (!!private_enabled != uses_private)
		return bad(
		    detail, size,
		    "the private segment is %s but the kernel %s scratch (%u bytes per lane)",
		    private_enabled ? "enabled" : "disabled", uses_private ? "uses" : "uses no",
		    private_size);
	if (group > isa_arch_lds_limit(t->arch))
		return bad(detail, size, "%u bytes of LDS exceed %s's %u", group, t->name,
		           isa_arch_lds_limit(t->arch));
	if (group < co_kernel_lds(src))
		return bad(detail, size, "%u bytes of LDS, the source needs %u", group,
		           co_kernel_lds(src));
	if (out->desc.kernarg_size != src->kernarg_size || out->kernarg_size != src->kernarg_size)
		return bad(detail, size,
		           "kernarg segment of %u bytes (metadata %u), the source's is %u",
		           out->desc.kernarg_size, out->kernarg_size, src->kernarg_size);
	if (out->max_flat_wg < src_max)
		return bad(detail, size, "max_flat_workgroup_size %u is below the source's %u",
		           out->max_flat_wg, src_max);
	if (out->wavefront_size != 64 || co_kd(out, "enable_wavefront_size32"))
		return bad(detail, size, "wavefront size %u, not 64", out->wavefront_size);
	return 0;
}
