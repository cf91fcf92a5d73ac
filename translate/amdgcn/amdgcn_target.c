/*
 * The wave64 targets the translator lowers for (amdgcn.h): the gfx table's processors that
 * need the cross-family translator (GFX_RETARGET_CROSS, common/gfx_table.h), each with the
 * decoder table of its name (isa_arch_by_name).  No list of its own.
 */
#include "amdgcn.h"
#include "gfx_table.h"
#include "mirage/isa.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define TARGETS_MAX 8

static struct amdgcn_target targets[TARGETS_MAX];
static size_t ntargets;
static char list[TARGETS_MAX * 16];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void collect(void)
{
	size_t n, len = 0;
	const struct gfx_info *g = gfx_table(&n);

	for (size_t i = 0; i < n && ntargets < TARGETS_MAX; i++) {
		int arch = isa_arch_by_name(g[i].name);
		if (g[i].retarget != GFX_RETARGET_CROSS || g[i].is_generic || arch < 0)
			continue;
		targets[ntargets++] = (struct amdgcn_target){g[i].name, (unsigned)arch};
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", len ? ", " : "",
		                        g[i].name);
	}
}

const struct amdgcn_target *amdgcn_target_find(const char *name)
{
	pthread_once(&once, collect);
	for (size_t i = 0; name && i < ntargets; i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	return NULL;
}

const char *amdgcn_target_list(void)
{
	pthread_once(&once, collect);
	return list;
}
