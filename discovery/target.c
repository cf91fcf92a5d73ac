/* Chooses the GPU a HotSwap workload is retargeted onto, or says why there is none. */
#include "target.h"

#include "gfx_route.h"
#include "hotswap_contract.h"

#include <stdio.h>
#include <string.h>

#define OVERRIDE_VAR HOTSWAP_ENV_ISA_OVERRIDE

const char *target_source_gfx(const char *source_target, char *buf, size_t size)
{
	return gfx_target_processor(source_target && *source_target ? source_target : "gfx1250",
	                            buf, size);
}

/* A target is one the source has a route to (gfx_route.h). */
bool target_supported(const char *source_gfx, const struct gfx_info *target)
{
	return gfx_route(gfx_by_name(source_gfx), target) != GFX_ROUTE_NONE;
}

void target_supported_list(const char *source_gfx, struct strbuf *out)
{
	char routes[256];
	strbuf_addstr(out, gfx_routes_text(source_gfx, routes, sizeof(routes)));
}

static void set_choice(struct target_choice *out, const char *gfx, enum target_origin origin,
                       const char *origin_text)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->gfx, sizeof(out->gfx), "%s", gfx);
	out->origin = origin;
	snprintf(out->origin_text, sizeof(out->origin_text), "%s", origin_text);
}

static void describe_detected(const struct kfd_gpus *gpus, struct strbuf *why)
{
	if (!gpus || !gpus->nr) {
		strbuf_addstr(why, gpus && gpus->kfd_present
		                       ? "the KFD topology lists none"
		                       : "this host has no KFD topology (no amdgpu driver)");
		return;
	}
	strbuf_addstr(why, "detected ");
	for (size_t i = 0; i < gpus->nr; i++) {
		const struct kfd_gpu *g = &gpus->gpu[i];
		strbuf_addf(why, "%s%s (GPU %u%s)", i ? ", " : "", g->gfx, g->index,
		            g->visible_rank < 0 ? ", hidden" : "");
	}
	if (gpus->visible_var && gpus->nvisible < gpus->nr)
		strbuf_addf(why, "; hidden GPUs are excluded by %s", gpus->visible_var);
}

int target_resolve(const struct target_request *req, const struct kfd_gpus *gpus,
                   struct target_choice *out, struct strbuf *why, struct strbuf *fix)
{
	char source[64];

	if (req->profile_target && *req->profile_target && strcmp(req->profile_target, "auto")) {
		set_choice(out, req->profile_target, TARGET_FROM_PROFILE, "profile");
		return 0;
	}
	if (req->isa_override && *req->isa_override) {
		set_choice(out, req->isa_override, TARGET_FROM_OVERRIDE, OVERRIDE_VAR);
		return 0;
	}
	if (!target_source_gfx(req->source_target, source, sizeof(source)))
		snprintf(source, sizeof(source), "%s", "?");
	for (size_t i = 0; gpus && i < gpus->nvisible; i++) {
		const struct kfd_gpu *g = &gpus->gpu[gpus->visible[i]];
		if (!target_supported(source, g->info))
			continue;
		char text[48];
		snprintf(text, sizeof(text), "detected GPU %u", g->index);
		set_choice(out, g->gfx, TARGET_FROM_GPU, text);
		out->gpu = g;
		return 0;
	}
	if (why) {
		strbuf_addf(why, "no GPU to retarget %s code onto: ", source);
		describe_detected(gpus, why);
	}
	if (fix) {
		strbuf_addstr(fix, "HotSwap retargets ");
		strbuf_addstr(fix, source);
		strbuf_addstr(fix, " onto ");
		target_supported_list(source, fix);
		strbuf_addstr(
		    fix, "; run on such a GPU, set the profile's target, or export " OVERRIDE_VAR
		         "=<gfx> if this host can run it");
	}
	return -1;
}
