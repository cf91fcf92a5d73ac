/* What the runtime says about an agent: its gfx name and ASIC revision. */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <hsa/hsa_ext_amd.h>

#include "hooks.h"
#include "log.h"

/* Agents are few and fixed for the life of the runtime: a small table is enough. */
#define MAX_AGENTS 64

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	uint64_t handle;
	struct hsi_agent_facts facts;
} known[MAX_AGENTS];
static size_t nknown;

static hsa_status_t first_isa(hsa_isa_t isa, void *data)
{
	*(hsa_isa_t *)data = isa;
	return HSA_STATUS_INFO_BREAK;
}

/* "amdgcn-amd-amdhsa--gfx1250:xnack-" -> "gfx1250" */
static void proc_from_isa(const char *isa, char *out, size_t size)
{
	const char *p = strstr(isa, "--");
	size_t n;
	p = p ? p + 2 : isa;
	n = strcspn(p, ":");
	snprintf(out, size, "%.*s", (int)n, p);
}

static int query(hsa_agent_t agent, struct hsi_agent_facts *f)
{
	struct hsa_core_table *t = &hsi_orig;
	hsa_isa_t isa = {0};
	uint32_t len = 0;
	char name[256] = "";

	memset(f, 0, sizeof(*f));
	if (t->hsa_agent_iterate_isas_fn && t->hsa_isa_get_info_alt_fn &&
	    t->hsa_agent_iterate_isas_fn(agent, first_isa, &isa) != HSA_STATUS_ERROR &&
	    isa.handle &&
	    t->hsa_isa_get_info_alt_fn(isa, HSA_ISA_INFO_NAME_LENGTH, &len) == HSA_STATUS_SUCCESS &&
	    len < sizeof(name) &&
	    t->hsa_isa_get_info_alt_fn(isa, HSA_ISA_INFO_NAME, name) == HSA_STATUS_SUCCESS) {
		name[len] = '\0';
		proc_from_isa(name, f->gfx, sizeof(f->gfx));
	}
	if (!f->gfx[0]) {
		/* HSA_AGENT_INFO_NAME is a char[64]: "gfx1250" on ROCr. */
		char agent_name[64] = "";
		if (t->hsa_agent_get_info_fn(agent, HSA_AGENT_INFO_NAME, agent_name) !=
		    HSA_STATUS_SUCCESS)
			return -1;
		agent_name[sizeof(agent_name) - 1] = '\0';
		snprintf(f->gfx, sizeof(f->gfx), "%s", agent_name);
	}
	f->have_asic_rev =
	    t->hsa_agent_get_info_fn(agent, (hsa_agent_info_t)HSA_AMD_AGENT_INFO_ASIC_REVISION,
	                             &f->asic_rev) == HSA_STATUS_SUCCESS;
	return 0;
}

static bool lookup_locked(uint64_t handle, struct hsi_agent_facts *out)
{
	for (size_t i = 0; i < nknown; i++) {
		if (known[i].handle == handle) {
			*out = known[i].facts;
			return true;
		}
	}
	return false;
}

int hsi_agent_facts(hsa_agent_t agent, struct hsi_agent_facts *out)
{
	struct hsi_agent_facts f;

	pthread_mutex_lock(&lock);
	if (lookup_locked(agent.handle, out)) {
		pthread_mutex_unlock(&lock);
		return 0;
	}
	pthread_mutex_unlock(&lock);

	/* Query outside the lock: the runtime may take its own locks. */
	if (query(agent, &f) < 0)
		return -1;
	pthread_mutex_lock(&lock);
	if (!lookup_locked(agent.handle, out)) {
		/* First to finish the query records it (and says so once). */
		hsi_info("agent 0x%llx: %s, ASIC revision %s%u", (unsigned long long)agent.handle,
		         f.gfx, f.have_asic_rev ? "" : "unknown ",
		         f.have_asic_rev ? f.asic_rev : 0);
		if (nknown < MAX_AGENTS) {
			known[nknown].handle = agent.handle;
			known[nknown].facts = f;
			nknown++;
		}
		*out = f;
	}
	pthread_mutex_unlock(&lock);
	return 0;
}
