/*
 * dlopen_app LIB ARGS...: opens LIB RTLD_LOCAL, as Python opens an extension module or a
 * program its plugins, and runs its hip_app_run(ARGS).  LIB's HIP runtime then comes in as
 * its dependency, outside the global scope (the case where RTLD_NEXT cannot find it).
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	void *lib = argc > 1 ? dlopen(argv[1], RTLD_NOW | RTLD_LOCAL) : NULL;
	void *sym = lib ? dlsym(lib, "hip_app_run") : NULL;
	int (*run)(int, char **);

	if (!sym) {
		fprintf(stderr, "dlopen_app: %s\n", argc > 1 ? dlerror() : "usage: dlopen_app LIB");
		return 2;
	}
	memcpy(&run, &sym, sizeof(run));
	return run(argc - 1, argv + 1);
}
