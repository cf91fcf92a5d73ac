/*
 * Internal interface between the libhotswap_intercept shim and its core:
 * the shim (libc only, preloaded into every process of a workload) dlopen()s
 * libhotswap_intercept_core.so from its own directory the first time the HSA
 * runtime calls OnLoad, so processes that never touch HSA never load the
 * rewriter or libelf.  Not a public ABI: both objects are built
 * and shipped together, and the version field below must match exactly.
 */
#ifndef HOTSWAP_INTERCEPT_CORE_API_H
#define HOTSWAP_INTERCEPT_CORE_API_H

#include <stdbool.h>
#include <stdint.h>

#include "hotswap_contract.h"

#define HSI_CORE_API_VERSION  2
#define HSI_CORE_LIBRARY_NAME HOTSWAP_INTERCEPT_CORE_LIB
#define HSI_CORE_ENTRY_SYMBOL HOTSWAP_INTERCEPT_CORE_SYMBOL

struct hsi_core_api {
	uint32_t version; /* HSI_CORE_API_VERSION */

	/* The HSA tools interface's OnLoad and OnUnload, with the same contracts. */
	bool (*on_load)(void *table, uint64_t runtime_version, uint64_t failed_tool_count,
	                const char *const *failed_tool_names);
	void (*on_unload)(void);

	/*
	 * The HIP entries (docs/hip.md), for the target HSA_HOTSWAP_ISA_OVERRIDE names: what the
	 * runtime's function is to be given instead of its argument.  The argument itself when
	 * nothing changes (an entry that already fits, no translation route, a refusal, bad
	 * input: each said on stderr); otherwise a wrapper or image that lives as long as the
	 * process.  Thread-safe, and the first call reads the environment.
	 */
	const void *(*hip_fatbin)(const void *wrapper); /* __hipRegisterFatBinary */
	const void *(*hip_image)(const void *image);    /* hipModuleLoadData(Ex) */
	/* hipModuleLoad: an image to load in the file's place, or NULL to load the file. */
	const void *(*hip_file)(const char *path);
};

/* The one exported symbol of libhotswap_intercept_core.so. */
#define HSI_CORE_EXPORT __attribute__((visibility("default")))
typedef const struct hsi_core_api *(*hsi_core_get_api_fn)(void);

#endif
