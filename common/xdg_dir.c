#include "xdg_dir.h"

#include <stdlib.h>

const char *xdg_base_dir(const char *var)
{
	const char *v = getenv(var);
	return v && v[0] == '/' ? v : NULL;
}
