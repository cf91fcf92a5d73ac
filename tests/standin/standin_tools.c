/*
 * HSA tools loading as ROCr does it: every library named in HSA_TOOLS_LIB
 * (space or colon separated) is dlopen'ed and its OnLoad called with the API
 * table; then, like newer ROCr, already-loaded objects that export
 * HSA_AMD_TOOL_PRIORITY (say, LD_PRELOADed) are called too, without
 * de-duplication (STANDIN_NO_TOOL_DISCOVERY=1 models an older runtime).
 * A tool whose OnLoad returns false is closed and the runtime starts without
 * it, as in ROCr's LoadTools; OnUnload runs for the others, in reverse order,
 * at shutdown.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotswap_contract.h"
#include "standin.h"

typedef bool (*onload_fn)(void *table, uint64_t runtime_version, uint64_t failed_tool_count,
                          const char *const *failed_tool_names);
typedef void (*onunload_fn)(void);

#define MAX_TOOLS 16

static void *tools[MAX_TOOLS];
static size_t ntools;
static const char *failed[MAX_TOOLS];
static size_t nfailed;

static void call_onload(void *h, const char *name)
{
	onload_fn onload = (onload_fn)(uintptr_t)dlsym(h, "OnLoad");
	if (!onload || ntools == MAX_TOOLS) {
		dlclose(h);
		return;
	}
	/* As ROCr: closed, named to later tools as failed; hsa_init still succeeds. */
	if (!onload(standin_api_table(), standin_api_major(), nfailed, failed)) {
		fprintf(stderr, "standin: tool '%s' OnLoad returned false\n", name);
		if (nfailed < MAX_TOOLS)
			failed[nfailed++] = "tool";
		dlclose(h);
		return;
	}
	tools[ntools++] = h;
}

/* Names of loaded objects, gathered first: dlopen is not called under dl_iterate_phdr's lock. */
struct names {
	char *v[256];
	size_t n;
};

static int gather(struct dl_phdr_info *info, size_t size, void *data)
{
	struct names *ns = data;
	if (info->dlpi_name && info->dlpi_name[0] && !strstr(info->dlpi_name, "vdso") &&
	    ns->n < sizeof(ns->v) / sizeof(ns->v[0]))
		ns->v[ns->n++] = strdup(info->dlpi_name);
	return 0;
}

/* Like ROCr: find already-loaded tools first, then load HSA_TOOLS_LIB, then call OnLoad. */
static size_t discover(void **found, const char **names, size_t max, struct names *ns)
{
	size_t n = 0;
	dl_iterate_phdr(gather, ns);
	for (size_t i = 0; i < ns->n; i++) {
		void *h = ns->v[i] ? dlopen(ns->v[i], RTLD_NOW | RTLD_NOLOAD) : NULL;
		if (h && dlsym(h, "HSA_AMD_TOOL_PRIORITY") && n < max) {
			found[n] = h;
			names[n++] = ns->v[i];
		} else if (h) {
			dlclose(h);
		}
	}
	return n;
}

void standin_tools_load(void)
{
	const char *env = getenv(HOTSWAP_ENV_TOOLS_LIB);
	char *list = env ? strdup(env) : NULL, *save = NULL;
	const char *nodisc = getenv("STANDIN_NO_TOOL_DISCOVERY");
	struct names ns = {.n = 0};
	void *found[MAX_TOOLS];
	const char *found_names[MAX_TOOLS];
	size_t nfound = 0;

	if (!nodisc || strcmp(nodisc, "1"))
		nfound = discover(found, found_names, MAX_TOOLS, &ns);
	/* HSA_TOOLS_LIB entries come first in ROCr's priority order. */
	for (char *name = list ? strtok_r(list, " :", &save) : NULL; name;
	     name = strtok_r(NULL, " :", &save)) {
		void *h = dlopen(name, RTLD_NOW);
		if (!h) {
			fprintf(stderr, "standin: cannot load tool '%s': %s\n", name, dlerror());
			if (nfailed < MAX_TOOLS)
				failed[nfailed++] = "tool";
			continue;
		}
		call_onload(h, name);
	}
	free(list);
	for (size_t i = 0; i < nfound; i++)
		call_onload(found[i], found_names[i]);
	for (size_t i = 0; i < ns.n; i++)
		free(ns.v[i]);
}

void standin_tools_unload(void)
{
	while (ntools) {
		void *h = tools[--ntools];
		onunload_fn onunload = (onunload_fn)(uintptr_t)dlsym(h, "OnUnload");
		if (onunload)
			onunload();
		dlclose(h);
	}
	nfailed = 0;
}
