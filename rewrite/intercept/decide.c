/* docs/intercept.md's decision table, as one pure function. */
#include "decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <hotswap/rewrite.h>

#include "gfx_table.h"
#include "hotswap_contract.h"
#include "truthy.h"

void hsi_config_from_env(struct hsi_config *cfg)
{
	const char *step = getenv(HOTSWAP_ENV_STEPPING);

	memset(cfg, 0, sizeof(*cfg));
	cfg->disable = env_flag(HOTSWAP_ENV_DISABLE);
	cfg->strict = env_flag(HOTSWAP_ENV_STRICT);
	cfg->trampolines = env_flag(HOTSWAP_ENV_ENTRY_TRAMPOLINES);
	cfg->stepping = HSI_STEP_UNKNOWN;
	if (step && *step) {
		if (!strcasecmp(step, "a0"))
			cfg->stepping = HSI_STEP_A0;
		else if (!strcasecmp(step, "b0"))
			cfg->stepping = HSI_STEP_B0;
		else
			cfg->stepping_invalid = true;
	}
}

static bool is_gfx125x(const char *proc)
{
	const struct gfx_info *g = gfx_by_name(proc);
	return g && !strcmp(g->family, "gfx12.5");
}

/* The agent's effective stepping: the override, else ASIC revision 0 = A0 on gfx1250. */
static enum hsi_stepping hsi_agent_stepping(const struct hsi_config *cfg,
                                            const struct hsi_agent_facts *agent)
{
	const struct gfx_info *g = gfx_by_name(agent->gfx);

	if (cfg->stepping != HSI_STEP_UNKNOWN)
		return cfg->stepping;
	if (!gfx_has_a0_stepping(g))
		return HSI_STEP_B0;
	if (!agent->have_asic_rev)
		return HSI_STEP_UNKNOWN;
	return gfx_stepping(g, agent->asic_rev) == GFX_STEPPING_A0 ? HSI_STEP_A0 : HSI_STEP_B0;
}

/* The stepping pseudo-feature defaults to B0; only an explicit '-' marks an A0 object. */
static bool object_is_a0(const struct hsi_object_facts *obj)
{
	return strstr(obj->isa, "gfx1250-b0-specific-") != NULL;
}

static void names(struct hsi_decision *d, const char *src, const char *tgt)
{
	snprintf(d->src_name, sizeof(d->src_name), "%s", src);
	snprintf(d->tgt_name, sizeof(d->tgt_name), "%s", tgt);
}

void hsi_decide(const struct hsi_config *cfg, const struct hsi_agent_facts *agent,
                const struct hsi_object_facts *obj, struct hsi_decision *d)
{
	enum hsi_stepping step;

	memset(d, 0, sizeof(*d));
	names(d, obj->proc, agent->gfx);
	if (cfg->disable) {
		d->why = HOTSWAP_ENV_DISABLE " is set";
		return;
	}
	if (!is_gfx125x(agent->gfx) || !is_gfx125x(obj->proc)) {
		d->why = "not a gfx12.5 agent and code object";
		return;
	}
	step = hsi_agent_stepping(cfg, agent);
	d->required = cfg->strict;
	if (cfg->strict)
		d->flags |= HS_REWRITE_STRICT;
	if (cfg->trampolines)
		d->flags |= HS_REWRITE_ENTRY_DEFAULT;

	if (!strcmp(agent->gfx, "gfx1250") && !strcmp(obj->proc, "gfx1250") &&
	    step == HSI_STEP_A0 && !object_is_a0(obj)) {
		d->rewrite = true;
		d->source_isa = HSI_ISA_GFX1250_B0;
		d->target_isa = HSI_ISA_GFX1250_A0;
		names(d, "gfx1250-b0", "gfx1250-a0");
		d->why = "B0 code object on an A0 gfx1250";
		return;
	}
	/* Same ISA, no processor or stepping change: the object's own ISA on both sides. */
	if (cfg->trampolines) {
		d->rewrite = true;
		names(d, obj->proc, obj->proc);
		d->why = "entry trampolines requested";
		return;
	}
	if (cfg->strict && !strcmp(agent->gfx, "gfx1250") && !strcmp(obj->proc, "gfx1250") &&
	    step == HSI_STEP_B0) {
		d->rewrite = true;
		names(d, obj->proc, obj->proc);
		d->why = "strict B0 rewrite";
		return;
	}
	d->required = false;
	d->flags = 0;
	d->why = step == HSI_STEP_UNKNOWN ? "agent stepping unknown and nothing requested"
	                                  : "nothing to do for this agent";
}
