/* The profile key table: one row per key, the only place that lists them. */
#include "profile.h"

#include <string.h>

const char *const profile_emulators[] = {"hotswap", "native", NULL};
const char *const profile_adapter_policies[] = {"none", "env", "native_build", "triton", "compile",
                                                "full", NULL};
const char *const profile_steppings[] = {"auto", "a0", "b0", NULL};

const struct profile_key profile_keys[PK_COUNT] = {
    [PK_DESCRIPTION] = {PK_DESCRIPTION, "profile", "description", "description", PKEY_TEXT, NULL,
                        "", "what this profile is for"},
    [PK_EMULATOR] = {PK_EMULATOR, "profile", "emulator", "emulator", PKEY_ENUM, profile_emulators,
                     "hotswap",
                     "backend: hotswap rewrites code objects, native runs the workload as is"},
    [PK_SOURCE_TARGET] = {PK_SOURCE_TARGET, "hotswap", "source_target", "source-target",
                          PKEY_SOURCE_TARGET, NULL, "gfx1250:32",
                          "what the workload was built for, gfx<name>[:wavefront size]"},
    [PK_TARGET] = {PK_TARGET, "hotswap", "target", "target", PKEY_TARGET, NULL, "auto",
                   "GPU to run on: auto (the detected GPU) or a gfx name"},
    [PK_ADAPTER_POLICY] = {PK_ADAPTER_POLICY, "hotswap", "adapter_policy", "policy", PKEY_ENUM,
                           profile_adapter_policies, "compile",
                           "which framework adapters retarget JIT compilers"},
    [PK_STRICT] = {PK_STRICT, "hotswap", "strict", "strict", PKEY_BOOL, NULL, "true",
                   "refuse a load whose required rewrite fails"},
    [PK_ENTRY_TRAMPOLINES] = {PK_ENTRY_TRAMPOLINES, "hotswap", "entry_trampolines",
                              "entry-trampolines", PKEY_BOOL, NULL, "false",
                              "retrofit the gfx12.5 entry-prologue erratum fix"},
    [PK_STEPPING] = {PK_STEPPING, "hotswap", "stepping", "stepping", PKEY_ENUM, profile_steppings,
                     "auto", "what the physical gfx1250 is: auto (detected), a0 or b0"},
    [PK_CACHE_DIR] = {PK_CACHE_DIR, "hotswap", "cache_dir", "cache-dir", PKEY_PATH, NULL, "",
                      "translation cache directory (empty: the default location)"},
};

const struct profile_key *profile_key_find(const char *name)
{
	for (size_t i = 0; i < PK_COUNT; i++) {
		const struct profile_key *k = &profile_keys[i];
		size_t sl = strlen(k->section);
		if (!strcmp(name, k->name))
			return k;
		if (!strncmp(name, k->section, sl) && name[sl] == '.' &&
		    !strcmp(name + sl + 1, k->name))
			return k;
	}
	return NULL;
}
