/*
 * The contract between mirage and the HotSwap tree: the environment variables the launcher
 * sets and the intercept, the rewriter and the doctor read, and the names of the tree's parts
 * (docs/env-contract.md, docs/discovery.md).  Every component spells them through this header,
 * never as literals, so the two sides cannot drift; cmake/Contract.cmake reads the tree names
 * from here for the staging, and tests/unit/test_contract.c checks the staged tree against the
 * table.  Macros, the table's types and one table (hotswap_contract.c): no code, so the
 * libc-only shim includes it too.
 */
#ifndef MIRAGE_HOTSWAP_CONTRACT_H
#define MIRAGE_HOTSWAP_CONTRACT_H

#include <stdbool.h>

/* ---- Environment: what `mirage run` sets and the workload's readers read ---- */

/* The tree's root, canonical; set by `mirage run`, and it pins discovery when the user sets it. */
#define HOTSWAP_ENV_HOME "HOTSWAP_HOME"
/* The search lists the contract heads (docs/env-contract.md, "Search lists"). */
#define HOTSWAP_ENV_PRELOAD      "LD_PRELOAD"
#define HOTSWAP_ENV_LIBRARY_PATH "LD_LIBRARY_PATH"
#define HOTSWAP_ENV_PYTHONPATH   "PYTHONPATH"
#define HOTSWAP_ENV_TOOLS_LIB    "HSA_TOOLS_LIB" /* ROCr's list of tools to call OnLoad in */

/* Every variable of the intercept's own namespace starts with this; the launcher owns them. */
#define HOTSWAP_ENV_PREFIX "HSA_HOTSWAP_"
/* Set by the launcher from the profile, read by the intercept. */
#define HOTSWAP_ENV_SOURCE_TARGET          "HSA_HOTSWAP_SOURCE_TARGET"
#define HOTSWAP_ENV_ISA_OVERRIDE           "HSA_HOTSWAP_ISA_OVERRIDE"
#define HOTSWAP_ENV_STRICT                 "HSA_HOTSWAP_STRICT"
#define HOTSWAP_ENV_ALL_KERNELS            "HSA_HOTSWAP_ALL_KERNELS"
#define HOTSWAP_ENV_ENTRY_TRAMPOLINES      "HSA_HOTSWAP_ENTRY_TRAMPOLINES"
#define HOTSWAP_ENV_STEPPING               "HSA_HOTSWAP_STEPPING"
#define HOTSWAP_ENV_CACHE_DIR              "HSA_HOTSWAP_CACHE_DIR"
#define HOTSWAP_ENV_CACHE_DEBUG            "HSA_HOTSWAP_CACHE_DEBUG"
#define HOTSWAP_ENV_IR_RAISER              "HSA_HOTSWAP_IR_RAISER"
#define HOTSWAP_ENV_BACKEND_ADAPTER_POLICY "HSA_HOTSWAP_BACKEND_ADAPTER_POLICY"
#define HOTSWAP_ENV_BACKEND_ADAPTERS       "HSA_HOTSWAP_BACKEND_ADAPTERS"
/* Read by the intercept and the rewriter only; the launcher passes or drops them. */
#define HOTSWAP_ENV_VERBOSE       "HSA_HOTSWAP_VERBOSE"
#define HOTSWAP_ENV_DISABLE       "HSA_HOTSWAP_DISABLE"
#define HOTSWAP_ENV_CACHE_DISABLE "HSA_HOTSWAP_CACHE_DISABLE"
/* Seconds a process waits for another's translation of the same object (docs/intercept.md). */
#define HOTSWAP_ENV_CACHE_LOCK_TIMEOUT "HSA_HOTSWAP_CACHE_LOCK_TIMEOUT"
/* Threads one translation may use, 1 to 256 (docs/translate.md, "Parallel translation"). */
#define HOTSWAP_ENV_JOBS "HSA_HOTSWAP_JOBS"

/* mirage's own directories: profiles/config_paths.c decides them, discovery probes MIRAGE_DATA. */
#define MIRAGE_ENV_CONFIG "MIRAGE_CONFIG"
#define MIRAGE_ENV_DATA   "MIRAGE_DATA"
#define MIRAGE_ENV_CACHE  "MIRAGE_CACHE"
/* Where KFD detection reads sysfs (tests point it at a fixture). */
#define MIRAGE_ENV_SYSFS_ROOT "MIRAGE_SYSFS_ROOT"

/* ---- The tree: directories and file names under its root ---- */

#define HOTSWAP_TREE_LIB_DIR   "lib"
#define HOTSWAP_TREE_TOOLS_DIR "llvm-tools"
#define HOTSWAP_TREE_PY_DIR    "runtime/hotswap_py"

/* The libc-only shim: what LD_PRELOAD and HSA_TOOLS_LIB name. */
#define HOTSWAP_INTERCEPT_LIB "libhotswap_intercept.so"
/* What our (native) intercept dlopen()s at OnLoad; the reference flavour has none. */
#define HOTSWAP_INTERCEPT_CORE_LIB "libhotswap_intercept_core.so"
/* The rewriter of a native tree, in lib/ next to the intercept. */
#define HOTSWAP_REWRITE_LIB "libhotswap_rewrite.so"
/* LLVM MC glue, which the rewriter dlopen()s from its own directory on demand. */
#define HOTSWAP_MC_LIB "libhotswap_mc.so"
/*
 * The translator (gfx1250 -> gfx942/gfx950), which the rewriter dlopen()s from its own directory
 * only for a translation.  Not a part of the table below: a tree without it is complete, and
 * `mirage doctor` checks it only for profiles that translate.  The same file as
 * TRANSLATE_LIBRARY_NAME of translate/api/mirage_translate.h (tests/unit/test_contract.c checks
 * the two agree, and that the staged tree has it).
 */
#define HOTSWAP_TRANSLATE_LIB "libmirage_translate.so"
/* The reference flavour's patched ROCr and COMGR (and the versioned names accepted instead). */
#define HOTSWAP_REF_HSA_RUNTIME_LIB "libhsa-runtime64.so"
#define HOTSWAP_REF_HSA_RUNTIME_ALT "libhsa-runtime64.so.1"
#define HOTSWAP_REF_COMGR_LIB       "libamd_comgr.so"
#define HOTSWAP_REF_COMGR_ALT       "libamd_comgr.so.3"
/* The tools in llvm-tools/ and the python runtime's entry file. */
#define HOTSWAP_TOOL_LLC         "llc"
#define HOTSWAP_TOOL_LLVM_MC     "llvm-mc"
#define HOTSWAP_TOOL_LLD         "lld"
#define HOTSWAP_TOOL_LD_LLD      "ld.lld"
#define HOTSWAP_PY_SITECUSTOMIZE "sitecustomize.py"

/*
 * The gfx1250 stepping as a target feature (docs/rewriter.md): "+" marks B0 code, "-" A0; an
 * object without it is B0.  The rewriter parses it, the intercept matches objects and names
 * the ISAs of its B0->A0 route with it, the doctor's self-test and mirage rewrite's hint say it.
 */
#define HOTSWAP_STEPPING_FEATURE "gfx1250-b0-specific"
#define HOTSWAP_ISA_GFX1250_B0   "amdgcn-amd-amdhsa--gfx1250:" HOTSWAP_STEPPING_FEATURE "+"
#define HOTSWAP_ISA_GFX1250_A0   "amdgcn-amd-amdhsa--gfx1250:" HOTSWAP_STEPPING_FEATURE "-"

/* The parts' paths relative to the root ("lib/libhotswap_intercept.so"). */
#define HOTSWAP_INTERCEPT_PATH        HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_INTERCEPT_LIB
#define HOTSWAP_INTERCEPT_CORE_PATH   HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_INTERCEPT_CORE_LIB
#define HOTSWAP_REWRITE_PATH          HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_REWRITE_LIB
#define HOTSWAP_MC_PATH               HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_MC_LIB
#define HOTSWAP_TRANSLATE_PATH        HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_TRANSLATE_LIB
#define HOTSWAP_REF_HSA_RUNTIME_PATH  HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_REF_HSA_RUNTIME_LIB
#define HOTSWAP_REF_COMGR_PATH        HOTSWAP_TREE_LIB_DIR "/" HOTSWAP_REF_COMGR_LIB
#define HOTSWAP_PY_SITECUSTOMIZE_PATH HOTSWAP_TREE_PY_DIR "/" HOTSWAP_PY_SITECUSTOMIZE

/* The entry points the parts export (discovery checks them in .dynsym). */
#define HOTSWAP_INTERCEPT_SYMBOL       "OnLoad"
#define HOTSWAP_INTERCEPT_CORE_SYMBOL  "hsi_core_get_api"
#define HOTSWAP_REWRITE_SYMBOL         "hs_rewrite"
#define HOTSWAP_MC_SYMBOL              "hs_mc_get_api"
#define HOTSWAP_TRANSLATE_SYMBOL       "mirage_translate_api"
#define HOTSWAP_REF_HSA_RUNTIME_SYMBOL "hsa_init"
#define HOTSWAP_REF_COMGR_SYMBOL       "amd_comgr_hotswap_rewrite"

/* ---- The tree's parts: one row each, the one table discovery and the tests read ---- */

enum hotswap_flavour {
	HOTSWAP_FLAVOUR_NONE = 0,  /* no tree, or only the intercept (looks like neither) */
	HOTSWAP_FLAVOUR_NATIVE,    /* intercept + its core + libhotswap_rewrite.so, stock ROCr */
	HOTSWAP_FLAVOUR_REFERENCE, /* intercept + patched libhsa-runtime64 + COMGR */
};

enum hotswap_part_id {
	HOTSWAP_PART_INTERCEPT,
	HOTSWAP_PART_REWRITE,
	HOTSWAP_PART_INTERCEPT_CORE,
	HOTSWAP_PART_REF_HSA_RUNTIME,
	HOTSWAP_PART_REF_COMGR,
	HOTSWAP_PART_LLC,
	HOTSWAP_PART_LLVM_MC,
	HOTSWAP_PART_LLD,
	HOTSWAP_PART_LD_LLD,
	HOTSWAP_PART_PY_RUNTIME,
	HOTSWAP_PART_COUNT
};

enum hotswap_part_kind {
	HOTSWAP_PART_LIBRARY, /* an ELF shared object for this machine, exporting .symbol */
	HOTSWAP_PART_TOOL,    /* an executable */
	HOTSWAP_PART_FILE,    /* a regular file */
};

struct hotswap_part_row {
	const char *label;  /* how messages name it ("lib/libhsa-runtime64.so[.1]") */
	const char *path;   /* relative to the root */
	const char *alt;    /* a versioned file accepted in its place, or NULL */
	const char *symbol; /* the entry point a library must export, or NULL */
	/* The flavour it belongs to; NONE: every tree (the intercept, the optional parts). */
	enum hotswap_flavour flavour;
	enum hotswap_part_kind kind;
	bool required; /* false: a problem is a warning, not incompleteness */
};

/* In enum hotswap_part_id order, which is the order discovery checks and reports them in. */
extern const struct hotswap_part_row hotswap_tree_parts[HOTSWAP_PART_COUNT];

#endif
