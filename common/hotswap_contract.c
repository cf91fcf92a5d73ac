/* The table of a HotSwap tree's parts (hotswap_contract.h): name, flavour, what each exports. */
#include "hotswap_contract.h"

#include <stddef.h>

#define LIB(id, name, sym, flav)                                                                   \
	[id] = {.label = HOTSWAP_TREE_LIB_DIR "/" name,                                            \
	        .path = HOTSWAP_TREE_LIB_DIR "/" name,                                             \
	        .symbol = sym,                                                                     \
	        .flavour = flav,                                                                   \
	        .kind = HOTSWAP_PART_LIBRARY,                                                      \
	        .required = true}
/* A reference library, and the versioned file (suffix in its label) accepted in its place. */
#define REF(id, name, suffix, alt_name, sym)                                                       \
	[id] = {.label = HOTSWAP_TREE_LIB_DIR "/" name suffix,                                     \
	        .path = HOTSWAP_TREE_LIB_DIR "/" name,                                             \
	        .alt = HOTSWAP_TREE_LIB_DIR "/" alt_name,                                          \
	        .symbol = sym,                                                                     \
	        .flavour = HOTSWAP_FLAVOUR_REFERENCE,                                              \
	        .kind = HOTSWAP_PART_LIBRARY,                                                      \
	        .required = true}
/* The cross-family translator shells out to these; optional. */
#define TOOL(id, name)                                                                             \
	[id] = {.label = HOTSWAP_TREE_TOOLS_DIR "/" name,                                          \
	        .path = HOTSWAP_TREE_TOOLS_DIR "/" name,                                           \
	        .kind = HOTSWAP_PART_TOOL}

const struct hotswap_part_row hotswap_tree_parts[HOTSWAP_PART_COUNT] = {
    LIB(HOTSWAP_PART_INTERCEPT, HOTSWAP_INTERCEPT_LIB, HOTSWAP_INTERCEPT_SYMBOL,
        HOTSWAP_FLAVOUR_NONE),
    LIB(HOTSWAP_PART_REWRITE, HOTSWAP_REWRITE_LIB, HOTSWAP_REWRITE_SYMBOL, HOTSWAP_FLAVOUR_NATIVE),
    /*
     * Our intercept is a libc-only shim that dlopen()s its core at OnLoad; without the core it
     * only warns and the workload runs unemulated, so a native tree needs it.  The reference
     * flavour's intercept has no core.
     */
    LIB(HOTSWAP_PART_INTERCEPT_CORE, HOTSWAP_INTERCEPT_CORE_LIB, HOTSWAP_INTERCEPT_CORE_SYMBOL,
        HOTSWAP_FLAVOUR_NATIVE),
    /* The patched ROCr and COMGR of the reference flavour, under the names that flavour stages. */
    REF(HOTSWAP_PART_REF_HSA_RUNTIME, HOTSWAP_REF_HSA_RUNTIME_LIB, "[.1]",
        HOTSWAP_REF_HSA_RUNTIME_ALT, HOTSWAP_REF_HSA_RUNTIME_SYMBOL),
    REF(HOTSWAP_PART_REF_COMGR, HOTSWAP_REF_COMGR_LIB, "[.3]", HOTSWAP_REF_COMGR_ALT,
        HOTSWAP_REF_COMGR_SYMBOL),
    TOOL(HOTSWAP_PART_LLC, HOTSWAP_TOOL_LLC),
    TOOL(HOTSWAP_PART_LLVM_MC, HOTSWAP_TOOL_LLVM_MC),
    TOOL(HOTSWAP_PART_LLD, HOTSWAP_TOOL_LLD),
    TOOL(HOTSWAP_PART_LD_LLD, HOTSWAP_TOOL_LD_LLD),
    /* Python adapters need the runtime; optional. */
    [HOTSWAP_PART_PY_RUNTIME] = {.label = HOTSWAP_PY_SITECUSTOMIZE_PATH,
                                 .path = HOTSWAP_PY_SITECUSTOMIZE_PATH,
                                 .kind = HOTSWAP_PART_FILE},
};
