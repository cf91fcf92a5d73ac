/* The wave64 targets the translator lowers for: one table (amdgcn.h). */
#include "amdgcn.h"
#include "mirage/isa.h"

#include <string.h>

/* X(name, its decoder table, ", " or "" after it in the list). */
#define AMDGCN_TARGETS(X)                                                                          \
	X("gfx942", ISA_ARCH_GFX942, ", ")                                                         \
	X("gfx950", ISA_ARCH_GFX950, "")

static const struct amdgcn_target targets[] = {
#define ROW(name, arch, sep) {name, arch},
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
#define NAME(name, arch, sep) name sep
	return AMDGCN_TARGETS(NAME);
#undef NAME
}
