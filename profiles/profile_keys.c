/* The profile key table, expanded from PROFILE_KEY_ROWS (profile.h), the only place that lists
 * keys. */
#include "profile.h"

#include <string.h>

const char *const profile_emulators[] = {"hotswap", "native", NULL};
const char *const profile_adapter_policies[] = {"none", "env", "native_build", "triton", "compile",
                                                "full", NULL};
const char *const profile_steppings[] = {"auto", "a0", "b0", NULL};

#define PROFILE_KEY(key_id, key_section, key_name, key_flag, key_type, key_choices, key_def,       \
                    key_help)                                                                      \
	[key_id] = {.id = key_id,                                                                  \
	            .section = key_section,                                                        \
	            .name = key_name,                                                              \
	            .flag = key_flag,                                                              \
	            .type = key_type,                                                              \
	            .choices = key_choices,                                                        \
	            .def = key_def,                                                                \
	            .help = key_help},
const struct profile_key profile_keys[PK_COUNT] = {PROFILE_KEY_ROWS(PROFILE_KEY)};
#undef PROFILE_KEY

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
