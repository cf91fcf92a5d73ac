/*
 * The HIP entries the shim interposes (docs/hip.md): __hipRegisterFatBinary,
 * hipModuleLoadData, hipModuleLoadDataEx, hipModuleLoad and hipGetProcAddress.  Each
 * forwards to the runtime's own function.  When HSA_HOTSWAP_ISA_OVERRIDE names a target
 * (mirage run sets it), the core first says what to give the runtime instead: a fat binary
 * with a translated entry added, a translated image.  A process that never calls HIP never
 * reaches this code; one that does, without a target, only pays the lookup of the real
 * function.  libc only, like the rest of the shim.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

#include "hotswap_contract.h"
#include "truthy.h"

typedef int hipError_t;
typedef void *hipModule_t;
#define HIP_ERROR_NOT_INITIALIZED 3 /* hipErrorNotInitialized: no runtime to forward to */

typedef void **(*register_fat_binary_fn)(const void *wrapper);
typedef hipError_t (*module_load_data_fn)(hipModule_t *module, const void *image);
typedef hipError_t (*module_load_data_ex_fn)(hipModule_t *module, const void *image,
                                             unsigned int num_options, int *options, void **values);
typedef hipError_t (*module_load_fn)(hipModule_t *module, const char *path);
typedef hipError_t (*get_proc_address_fn)(const char *symbol, void **pfn, int hip_version,
                                          uint64_t flags, void *status);

HSI_EXPORT void **__hipRegisterFatBinary(const void *wrapper);
HSI_EXPORT hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
HSI_EXPORT hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image,
                                          unsigned int num_options, int *options, void **values);
HSI_EXPORT hipError_t hipModuleLoad(hipModule_t *module, const char *path);
HSI_EXPORT hipError_t hipGetProcAddress(const char *symbol, void **pfn, int hip_version,
                                        uint64_t flags, void *status);

enum hip_entry {
	HIP_REGISTER_FAT_BINARY,
	HIP_MODULE_LOAD_DATA,
	HIP_MODULE_LOAD_DATA_EX,
	HIP_MODULE_LOAD,
	HIP_GET_PROC_ADDRESS,
	HIP_ENTRIES,
};

static const char *const entry_name[HIP_ENTRIES] = {
    [HIP_REGISTER_FAT_BINARY] = "__hipRegisterFatBinary",
    [HIP_MODULE_LOAD_DATA] = "hipModuleLoadData",
    [HIP_MODULE_LOAD_DATA_EX] = "hipModuleLoadDataEx",
    [HIP_MODULE_LOAD] = "hipModuleLoad",
    [HIP_GET_PROC_ADDRESS] = "hipGetProcAddress",
};

/* Our own functions, which a lookup must never hand back as the runtime's. */
static void *ours(enum hip_entry e)
{
	void *const fns[HIP_ENTRIES] = {
	    [HIP_REGISTER_FAT_BINARY] = (void *)__hipRegisterFatBinary,
	    [HIP_MODULE_LOAD_DATA] = (void *)hipModuleLoadData,
	    [HIP_MODULE_LOAD_DATA_EX] = (void *)hipModuleLoadDataEx,
	    [HIP_MODULE_LOAD] = (void *)hipModuleLoad,
	    [HIP_GET_PROC_ADDRESS] = (void *)hipGetProcAddress,
	};
	return fns[e];
}

/* The runtime's functions, found once each (a race finds the same address twice). */
static _Atomic(void *) real[HIP_ENTRIES];

/* The sonames the HIP runtime has shipped under, newest first. */
static const char *const runtime_sonames[] = {"libamdhip64.so.7", "libamdhip64.so.6",
                                              "libamdhip64.so"};

static void *symbol_in_loaded(const char *path, const char *name, void *self)
{
	/* RTLD_NOLOAD: only a runtime already in the process, never a new load. */
	void *h = dlopen(path, RTLD_LAZY | RTLD_NOLOAD);
	void *p;

	if (!h)
		return NULL;
	p = dlsym(h, name);
	dlclose(h);
	return p == self ? NULL : p;
}

struct link_map_search {
	const char *name;
	void *self;
	void *found;
};

/* A loaded object named libamdhip64.so* at any path (a runtime with another soname). */
static int search_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct link_map_search *s = data;
	const char *base = info->dlpi_name ? strrchr(info->dlpi_name, '/') : NULL;

	(void)size;
	if (!base || strncmp(base + 1, "libamdhip64.so", strlen("libamdhip64.so")))
		return 0;
	s->found = symbol_in_loaded(info->dlpi_name, s->name, s->self);
	return s->found != NULL;
}

/*
 * The runtime's function: the next definition after ours in the global scope, else the
 * runtime loaded RTLD_LOCAL (a dependency of a plugin or a Python extension), which
 * RTLD_NEXT cannot see, by its soname or found in the link map.
 */
static void *runtime_fn(enum hip_entry e)
{
	void *p = atomic_load_explicit(&real[e], memory_order_acquire);
	void *self = ours(e);

	if (p)
		return p;
	p = dlsym(RTLD_NEXT, entry_name[e]);
	if (p == self)
		p = NULL;
	for (size_t i = 0; !p && i < sizeof(runtime_sonames) / sizeof(runtime_sonames[0]); i++)
		p = symbol_in_loaded(runtime_sonames[i], entry_name[e], self);
	if (!p) {
		struct link_map_search s = {entry_name[e], self, NULL};
		dl_iterate_phdr(search_object, &s);
		p = s.found;
	}
	if (!p) {
		shim_warn("%s: no HIP runtime in this process to forward to", entry_name[e]);
		return NULL;
	}
	atomic_store_explicit(&real[e], p, memory_order_release);
	return p;
}

/* POSIX's way from dlsym's object pointer to a function pointer of the right type. */
#define AS_FN(type, p)                                                                             \
	({                                                                                         \
		type fn_;                                                                          \
		void *p_ = (p);                                                                    \
		memcpy(&fn_, &p_, sizeof(fn_));                                                    \
		fn_;                                                                               \
	})

/*
 * The core when there is something to translate for: a target named, HotSwap not disabled.
 * NULL otherwise, and then nothing but the forwarding happens.
 */
static const struct hsi_core_api *core_for_hip(void)
{
	const char *target = getenv(HOTSWAP_ENV_ISA_OVERRIDE);
	const struct hsi_core_api *api;

	if (!target || !*target || env_flag(HOTSWAP_ENV_DISABLE))
		return NULL;
	api = shim_core();
	if (!api && shim_strict())
		shim_warn("HIP code objects reach the runtime untranslated (" HOTSWAP_ENV_STRICT
		          " is set, but the core is not loaded): a program built for another "
		          "GPU will fail with hipErrorNoBinaryForGpu");
	return api;
}

void **__hipRegisterFatBinary(const void *wrapper)
{
	void *fn = runtime_fn(HIP_REGISTER_FAT_BINARY);
	const struct hsi_core_api *api;

	if (!fn)
		return NULL;
	if ((api = core_for_hip()))
		wrapper = api->hip_fatbin(wrapper);
	return AS_FN(register_fat_binary_fn, fn)(wrapper);
}

hipError_t hipModuleLoadData(hipModule_t *module, const void *image)
{
	void *fn = runtime_fn(HIP_MODULE_LOAD_DATA);
	const struct hsi_core_api *api;

	if (!fn)
		return HIP_ERROR_NOT_INITIALIZED;
	if ((api = core_for_hip()))
		image = api->hip_image(image);
	return AS_FN(module_load_data_fn, fn)(module, image);
}

hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int num_options,
                               int *options, void **values)
{
	void *fn = runtime_fn(HIP_MODULE_LOAD_DATA_EX);
	const struct hsi_core_api *api;

	if (!fn)
		return HIP_ERROR_NOT_INITIALIZED;
	if ((api = core_for_hip()))
		image = api->hip_image(image);
	return AS_FN(module_load_data_ex_fn, fn)(module, image, num_options, options, values);
}

hipError_t hipModuleLoad(hipModule_t *module, const char *path)
{
	void *fn = runtime_fn(HIP_MODULE_LOAD);
	const struct hsi_core_api *api = fn ? core_for_hip() : NULL;
	const void *image = api ? api->hip_file(path) : NULL;
	void *load_data;

	if (!fn)
		return HIP_ERROR_NOT_INITIALIZED;
	/* A translation is loaded from memory, through the runtime's own hipModuleLoadData. */
	if (image && (load_data = runtime_fn(HIP_MODULE_LOAD_DATA)))
		return AS_FN(module_load_data_fn, load_data)(module, image);
	return AS_FN(module_load_fn, fn)(module, path);
}

/*
 * A program that asks the runtime for one of the entries above gets ours, so that a
 * pointer obtained there translates too; the runtime's pointer is the one we forward to.
 */
hipError_t hipGetProcAddress(const char *symbol, void **pfn, int hip_version, uint64_t flags,
                             void *status)
{
	void *fn = runtime_fn(HIP_GET_PROC_ADDRESS);
	hipError_t rc;

	if (!fn)
		return HIP_ERROR_NOT_INITIALIZED;
	rc = AS_FN(get_proc_address_fn, fn)(symbol, pfn, hip_version, flags, status);
	if (rc || !symbol || !pfn || !*pfn)
		return rc;
	for (int e = 0; e < HIP_ENTRIES; e++) {
		void *expected = NULL;
		if (strcmp(symbol, entry_name[e]) || *pfn == ours(e))
			continue;
		atomic_compare_exchange_strong(&real[e], &expected, *pfn);
		*pfn = ours(e);
		break;
	}
	return rc;
}
