/* The wave64 targets the translator lowers for: one table (amdgcn.h). */
#include "amdgcn.h"

#include <string.h>

/* X(name, LDS bytes per workgroup, ", " or "" after it in the list). */
#define AMDGCN_TARGETS(X)                                                                          \
	X("gfx942", 64 * 1024, ", ")                                                               \
	X("gfx950", 160 * 1024, "")

static const struct amdgcn_target targets[] = {
#define ROW(name, lds, sep) {name, lds},
    AMDGCN_TARGETS(ROW)
#undef ROW
};

const struct amdgcn_target *amdgcn_target_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(targets) / sizeof(targets[0]); i++)
		if (!strcmp(targets[i].name, name))
			return &targets[i];
	return NULL;
}

const char *amdgcn_target_list(void)
{
#define NAME(name, lds, sep) name sep
	return AMDGCN_TARGETS(NAME);
#undef NAME
}
