/*
 * The route table of docs/intercept.md: given the switches, the agent and the code object,
 * pass the object through, rewrite it or translate it (and how).  Pure: no HSA calls, no
 * allocation, so it is unit-tested row by row.
 */
#ifndef HOTSWAP_INTERCEPT_DECIDE_H
#define HOTSWAP_INTERCEPT_DECIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "hotswap_contract.h"

enum hsi_stepping {
	HSI_STEP_UNKNOWN = -1,
	HSI_STEP_A0 = 0,
	HSI_STEP_B0 = 1,
};

/* The HSA_HOTSWAP_* switches, read once per process (hsi_config_from_env). */
struct hsi_config {
	bool disable;     /* HSA_HOTSWAP_DISABLE */
	bool strict;      /* HSA_HOTSWAP_STRICT: rewrites become required */
	bool trampolines; /* HSA_HOTSWAP_ENTRY_TRAMPOLINES */
	bool all_kernels; /* HSA_HOTSWAP_ALL_KERNELS: a translation with a refused kernel fails */
	enum hsi_stepping stepping; /* HSA_HOTSWAP_STEPPING=a0|b0, else UNKNOWN (use the agent's) */
	bool stepping_invalid;      /* HSA_HOTSWAP_STEPPING was set to something else */
	char isa_override[64]; /* HSA_HOTSWAP_ISA_OVERRIDE ("" unset): a translation's target */
};

void hsi_config_from_env(struct hsi_config *cfg);

/* What the runtime told us about the agent. */
struct hsi_agent_facts {
	char gfx[64];       /* "gfx1250" (from its ISA name, else HSA_AGENT_INFO_NAME) */
	bool have_asic_rev; /* HSA_AMD_AGENT_INFO_ASIC_REVISION answered */
	uint32_t asic_rev;  /* 0 on gfx1250 = A0 */
};

/* What the code object says about itself (hs_code_object_isa). */
struct hsi_object_facts {
	char isa[256]; /* canonical: "amdgcn-amd-amdhsa--gfx1250[:feature+-]..." */
	char proc[64]; /* "gfx1250" */
};

#define HSI_ISA_GFX1250_B0 HOTSWAP_ISA_GFX1250_B0
#define HSI_ISA_GFX1250_A0 HOTSWAP_ISA_GFX1250_A0

struct hsi_decision {
	bool rewrite;           /* false: load the original untouched (unless refuse) */
	bool refuse;            /* a gfx12.5 object no route runs on this agent: refuse the load */
	bool required;          /* strict, or a translation: a failure refuses the load */
	bool translate;         /* the translation route (gfx1250 -> gfx942/gfx950) */
	const char *source_isa; /* for hs_rewrite; NULL = what the object says */
	const char *target_isa; /* for hs_rewrite; NULL = same as the source */
	uint64_t flags;         /* HS_REWRITE_* */
	char src_name[64];      /* short names for messages: "gfx1250-b0" */
	char tgt_name[64];
	const char *why; /* one phrase for verbose logs */
};

/* Fills *d; never fails (anything not gfx12.5 passes through). */
void hsi_decide(const struct hsi_config *cfg, const struct hsi_agent_facts *agent,
                const struct hsi_object_facts *obj, struct hsi_decision *d);

#endif
