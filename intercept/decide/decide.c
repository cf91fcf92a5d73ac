/* docs/intercept.md's route table, as one pure function over one const table. */
#include "decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <hotswap/rewrite.h>

#include "gfx_route.h"
#include "gfx_table.h"
#include "hotswap_contract.h"
#include "truthy.h"

void hsi_config_from_env(struct hsi_config *cfg)
{
	const char *step = getenv(HOTSWAP_ENV_STEPPING);
	const char *isa = getenv(HOTSWAP_ENV_ISA_OVERRIDE);

	memset(cfg, 0, sizeof(*cfg));
	cfg->disable = env_flag(HOTSWAP_ENV_DISABLE);
	cfg->strict = env_flag(HOTSWAP_ENV_STRICT);
	cfg->trampolines = env_flag(HOTSWAP_ENV_ENTRY_TRAMPOLINES);
	cfg->all_kernels = env_flag(HOTSWAP_ENV_ALL_KERNELS);
	cfg->stepping = HSI_STEP_UNKNOWN;
	if (step && *step) {
		if (!strcasecmp(step, "a0"))
			cfg->stepping = HSI_STEP_A0;
		else if (!strcasecmp(step, "b0"))
			cfg->stepping = HSI_STEP_B0;
		else
			cfg->stepping_invalid = true;
	}
	if (isa && *isa)
		snprintf(cfg->isa_override, sizeof(cfg->isa_override), "%s", isa);
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
	return strstr(obj->isa, HOTSWAP_STEPPING_FEATURE "-") != NULL;
}

/*
 * The translation target: HSA_HOTSWAP_ISA_OVERRIDE when it names a cross-family target
 * (mirage run sets it to the profile's target), else the agent when it is one; NULL: none.
 */
static const struct gfx_info *cross_target(const struct hsi_config *cfg,
                                           const struct hsi_agent_facts *agent)
{
	const struct gfx_info *o = gfx_by_name(cfg->isa_override);
	const struct gfx_info *a = gfx_by_name(agent->gfx);

	if (o && o->retarget == GFX_RETARGET_CROSS)
		return o;
	return a && a->retarget == GFX_RETARGET_CROSS ? a : NULL;
}

/* What a route matches: the load's facts, worked out once. */
struct facts {
	const struct hsi_config *cfg;
	const struct hsi_agent_facts *agent;
	const struct hsi_object_facts *obj;
	enum hsi_stepping step;
	const struct gfx_info *cross; /* cross_target() */
};

enum obj_match {
	OBJ_TRANSLATES,     /* an object with a translation route to cross_target() (gfx_route.h) */
	OBJ_GFX1250,        /* a gfx1250 object, either stepping */
	OBJ_GFX1250_NOT_A0, /* a gfx1250 object not marked A0 (B0 code) */
	OBJ_GFX125X,        /* any gfx12.5 object */
};
enum agent_match {
	AGENT_CROSS,      /* gfx942/gfx950 (or HSA_HOTSWAP_ISA_OVERRIDE names one) */
	AGENT_GFX1250_A0, /* gfx1250 with A0 stepping */
	AGENT_GFX1250_B0, /* gfx1250 with B0 stepping */
	AGENT_GFX125X,    /* any gfx12.5 agent */
};
enum target_kind {
	TARGET_OBJECT, /* the object's own ISA on both sides */
	TARGET_FIXED,  /* the row's ISAs */
	TARGET_CROSS,  /* the object's ISA -> cross_target() */
};
#define NEED_TRAMPOLINES (1u << 0) /* HSA_HOTSWAP_ENTRY_TRAMPOLINES */
#define NEED_STRICT      (1u << 1) /* HSA_HOTSWAP_STRICT */

/* One row: object family and stepping x agent (+ switches) -> source, target, flags, required. */
struct route {
	const char *why;
	enum obj_match obj;
	enum agent_match agent;
	unsigned needs;
	enum target_kind target;
	const char *source_isa, *target_isa; /* TARGET_FIXED */
	const char *src_name, *tgt_name;     /* TARGET_FIXED */
	bool trampolines;                    /* adds the entry trampolines when asked for */
	bool always_required; /* a failure refuses the load, HSA_HOTSWAP_STRICT or not */
	bool translate;       /* the translator does it (hsi_decision.translate) */
};

/*
 * First match wins; no match: untouched, or refused when the object is for another processor
 * (no_route).  docs/intercept.md shows this table.
 */
static const struct route routes[] = {
    {
        /* gfx1250 code can never run there: without a translation the load fails anyway. */
        .why = "gfx1250 code object on a gfx942/gfx950 agent: translation",
        .obj = OBJ_TRANSLATES,
        .agent = AGENT_CROSS,
        .target = TARGET_CROSS,
        .always_required = true,
        .translate = true,
    },
    {
        .why = "B0 code object on an A0 gfx1250",
        .obj = OBJ_GFX1250_NOT_A0,
        .agent = AGENT_GFX1250_A0,
        .target = TARGET_FIXED,
        .source_isa = HSI_ISA_GFX1250_B0,
        .target_isa = HSI_ISA_GFX1250_A0,
        .src_name = "gfx1250-b0",
        .tgt_name = "gfx1250-a0",
        .trampolines = true,
    },
    {
        .why = "entry trampolines requested",
        .obj = OBJ_GFX125X,
        .agent = AGENT_GFX125X,
        .needs = NEED_TRAMPOLINES,
        .target = TARGET_OBJECT,
        .trampolines = true,
    },
    {
        .why = "strict B0 rewrite",
        .obj = OBJ_GFX1250,
        .agent = AGENT_GFX1250_B0,
        .needs = NEED_STRICT,
        .target = TARGET_OBJECT,
    },
};

static bool obj_matches(enum obj_match m, const struct facts *f)
{
	switch (m) {
	case OBJ_TRANSLATES:
		return f->cross &&
		       gfx_route(gfx_by_name(f->obj->proc), f->cross) == GFX_ROUTE_TRANSLATE;
	case OBJ_GFX1250:
		return !strcmp(f->obj->proc, "gfx1250");
	case OBJ_GFX1250_NOT_A0:
		return !strcmp(f->obj->proc, "gfx1250") && !object_is_a0(f->obj);
	case OBJ_GFX125X:
		return is_gfx125x(f->obj->proc);
	}
	return false;
}

static bool agent_matches(enum agent_match m, const struct facts *f)
{
	bool gfx1250 = !strcmp(f->agent->gfx, "gfx1250");

	switch (m) {
	case AGENT_CROSS:
		return f->cross != NULL;
	case AGENT_GFX1250_A0:
		return gfx1250 && f->step == HSI_STEP_A0;
	case AGENT_GFX1250_B0:
		return gfx1250 && f->step == HSI_STEP_B0;
	case AGENT_GFX125X:
		return is_gfx125x(f->agent->gfx);
	}
	return false;
}

static bool needs_met(unsigned needs, const struct hsi_config *cfg)
{
	return (!(needs & NEED_TRAMPOLINES) || cfg->trampolines) &&
	       (!(needs & NEED_STRICT) || cfg->strict);
}

static void names(struct hsi_decision *d, const char *src, const char *tgt)
{
	snprintf(d->src_name, sizeof(d->src_name), "%s", src);
	snprintf(d->tgt_name, sizeof(d->tgt_name), "%s", tgt);
}

/* The decision a matching row makes. */
static void apply(const struct route *r, const struct facts *f, struct hsi_decision *d)
{
	d->rewrite = true;
	d->why = r->why;
	d->translate = r->translate;
	d->required = r->always_required || f->cfg->strict;
	if (f->cfg->strict)
		d->flags |= HS_REWRITE_STRICT;
	if (r->translate && f->cfg->all_kernels)
		d->flags |= HS_REWRITE_ALL_KERNELS;
	if (r->trampolines && f->cfg->trampolines)
		d->flags |= HS_REWRITE_ENTRY_DEFAULT;
	switch (r->target) {
	case TARGET_OBJECT:
		names(d, f->obj->proc, f->obj->proc);
		break;
	case TARGET_FIXED:
		d->source_isa = r->source_isa;
		d->target_isa = r->target_isa;
		names(d, r->src_name, r->tgt_name);
		break;
	case TARGET_CROSS:
		d->target_isa = f->cross->name;
		names(d, f->obj->proc, f->cross->name);
		break;
	}
}

/*
 * A gfx12.5 object for another processor than the agent's, with no route: the runtime would
 * refuse it with its bare incompatible-ISA error, so the intercept refuses it first, saying
 * why.  A generic object is left to the runtime (its compatibility is the runtime's rule).
 */
static bool no_route(const struct hsi_object_facts *obj, const struct hsi_agent_facts *agent)
{
	const struct gfx_info *o = gfx_by_name(obj->proc);
	return o && !o->is_generic && strcmp(obj->proc, agent->gfx) != 0;
}

void hsi_decide(const struct hsi_config *cfg, const struct hsi_agent_facts *agent,
                const struct hsi_object_facts *obj, struct hsi_decision *d)
{
	struct facts f = {.cfg = cfg, .agent = agent, .obj = obj};

	memset(d, 0, sizeof(*d));
	names(d, obj->proc, agent->gfx);
	if (cfg->disable) {
		d->why = HOTSWAP_ENV_DISABLE " is set";
		return;
	}
	if (!is_gfx125x(obj->proc)) {
		d->why = "not a gfx12.5 code object";
		return;
	}
	f.cross = cross_target(cfg, agent);
	f.step = hsi_agent_stepping(cfg, agent);
	for (size_t i = 0; i < sizeof(routes) / sizeof(routes[0]); i++) {
		const struct route *r = &routes[i];
		if (obj_matches(r->obj, &f) && agent_matches(r->agent, &f) &&
		    needs_met(r->needs, cfg)) {
			apply(r, &f, d);
			return;
		}
	}
	if (no_route(obj, agent)) {
		d->refuse = true;
		d->why = "no route for this pair";
		return;
	}
	d->why = f.cross && !strcmp(obj->proc, "gfx1250") ? "nothing to do for this agent"
	         : f.cross                                ? "the translator reads gfx1250 code only"
	         : f.step == HSI_STEP_UNKNOWN ? "agent stepping unknown and nothing requested"
	                                      : "nothing to do for this agent";
}
