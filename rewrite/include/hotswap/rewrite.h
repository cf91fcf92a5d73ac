/*
 * libhotswap_rewrite: rewrites AMDGPU code objects (ELF64, EM_AMDGPU) so that
 * code built for one GPU or silicon stepping runs on another.
 *
 * Error convention: functions return an enum hs_status (HS_OK == 0).  Every
 * non-OK status comes with a message naming the kernel and the reason, in the
 * report (if one was passed) and in hs_last_error() of the calling thread.
 * The library never prints to stdout, never exits, and logs only through the
 * callback set with hs_set_log_fn() (default: warnings to stderr, prefixed
 * "hotswap: "; HSA_HOTSWAP_VERBOSE truthy adds info lines).
 *
 * Thread safety: every function may be called from many threads at once on
 * different inputs.  Output is deterministic: the same input bytes, ISA pair
 * and options give the same output bytes in any process.
 */
#ifndef HOTSWAP_REWRITE_H
#define HOTSWAP_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HS_API __attribute__((visibility("default")))

/* HS_REWRITE_VERSION_MAJOR, _MINOR, _PATCH and _STRING, generated from the build's version. */
#include <hotswap/version.h>

enum hs_status {
	HS_OK = 0, /* a valid code object was produced (see report->changed) */
	HS_INVALID_ARGUMENT =
	    1,        /* caller's fault: bad ELF, bad ISA, bad options, unsupported pair */
	HS_ERROR = 2, /* a selected transform cannot be applied safely: fail closed */
	HS_OUT_OF_RESOURCES = 3, /* allocation failed, or a table/count would overflow */
};

/* Option flags (struct hs_rewrite_opts.flags).  Unknown bits are HS_INVALID_ARGUMENT. */
/*
 * gfx125x: give every kernel the entry prologue the erratum needs, through a stub.  On
 * any other processor the pass does not run; the call succeeds with an unchanged copy
 * and the report's note says why (reason HS_REASON_PASS_NOT_APPLICABLE).
 */
#define HS_REWRITE_ENTRY_TRAMPOLINES (UINT64_C(1) << 0)
/* Any required patch that cannot be placed is HS_ERROR instead of a declined patch. */
#define HS_REWRITE_STRICT (UINT64_C(1) << 1)
/* Add <kernel>.stub to .symtab for each stub (with ENTRY_TRAMPOLINES). */
#define HS_REWRITE_STUB_SYMBOLS (UINT64_C(1) << 2)
/* Never run the gfx1250 B0->A0 instruction pass. */
#define HS_REWRITE_NO_B0A0 (UINT64_C(1) << 3)
/*
 * 0.2: a required B0->A0 edit that cannot be placed (no room in reach, no free register)
 * is declined and counted (report->count[HS_COUNT_B0A0_*_DECLINED], the message names
 * each site) instead of failing the call; the output then still computes wrong results
 * on A0 at those sites.  Ignored under HS_REWRITE_STRICT.  Without it the call fails.
 */
#define HS_REWRITE_BEST_EFFORT (UINT64_C(1) << 4)
/*
 * 0.2: a translation in which the translator refuses any kernel fails the call
 * (HS_REASON_TRANSLATION_REFUSED).  Without it the call succeeds with a partial object
 * when at least one kernel translated: each refused kernel is an entry that only traps
 * (never its source code), its launch contract kept; count[HS_COUNT_KERNELS_REFUSED] says
 * how many and the note (HS_REASON_PARTIAL) names them.  An object none of whose kernels
 * translates always fails.
 */
#define HS_REWRITE_ALL_KERNELS (UINT64_C(1) << 5)
#define HS_REWRITE_ALL_FLAGS   (UINT64_C(0x3f))
/* What a caller that wants entry trampolines usually asks for. */
#define HS_REWRITE_ENTRY_DEFAULT (HS_REWRITE_ENTRY_TRAMPOLINES | HS_REWRITE_STUB_SYMBOLS)

/* Log levels for the log callback. */
enum hs_log_level {
	HS_LOG_WARN = 0,
	HS_LOG_INFO = 1,
	HS_LOG_DEBUG = 2,
};
typedef void (*hs_log_fn)(enum hs_log_level level, const char *msg, void *ctx);

/*
 * Options, guarded by their size (libbpf style).  Declare with
 * HS_OPTS(hs_rewrite_opts, name, .flags = ...).  NULL opts means defaults.
 * sz smaller than the first version of the struct, or a larger struct whose
 * unknown tail is not all zero, is HS_INVALID_ARGUMENT.  New fields are only
 * ever added at the end.
 */
struct hs_rewrite_result;
struct hs_rewrite_opts {
	size_t sz;      /* sizeof(struct hs_rewrite_opts) as the caller knows it */
	uint64_t flags; /* HS_REWRITE_*; default 0 (validate and copy, plus any required pass) */
	/*
	 * 0.2: when set, a successful call stores its per-kernel results here (free them
	 * with hs_rewrite_result_free); on failure *result is set to NULL, except when the
	 * translator refused kernels (reason HS_REASON_TRANSLATION_REFUSED): then it holds
	 * every kernel's verdict, the refusals with their reasons.
	 */
	struct hs_rewrite_result **result;
	/*
	 * 0.2: when set, a translation calls progress(progress_ctx, done, total) on the calling
	 * thread after each kernel the translator has raised (kernel done of total), for a
	 * caller that shows progress; the lowering of the whole object follows the last call.
	 * Other routes never call it.
	 */
	void (*progress)(void *progress_ctx, size_t done, size_t total);
	void *progress_ctx;
	size_t : 0;
};
#define hs_rewrite_opts__last_field progress_ctx

#define HS_OPTS(TYPE, NAME, ...) struct TYPE NAME = {.sz = sizeof(struct TYPE), __VA_ARGS__}

/* Passes (report->passes_run bits). */
#define HS_PASS_VALIDATE          (1u << 0)
#define HS_PASS_ENTRY_TRAMPOLINES (1u << 1)
#define HS_PASS_STUB_SYMBOLS      (1u << 2)
#define HS_PASS_B0A0              (1u << 3)
#define HS_PASS_METADATA          (1u << 4)
/*
 * 0.2: the cross-family translation route (gfx1250 -> gfx942/gfx950), through the translator
 * libmirage_translate.so beside this library, loaded only by a call that translates.  It
 * replaces the passes: none of the others runs on a translated object (docs/rewriter.md).
 */
#define HS_PASS_TRANSLATE (1u << 5)

/*
 * Why a call failed, or what its note says (report->reason), so callers switch on a
 * code instead of matching message text.  Codes are only ever appended.  (0.2)
 */
enum hs_reason {
	HS_REASON_NONE = 0,
	HS_REASON_BAD_ARGUMENT = 1,         /* options, sizes or ISA names the caller passed */
	HS_REASON_BAD_OBJECT = 2,           /* the input is not a well-formed AMDGPU code object */
	HS_REASON_UNKNOWN_PROCESSOR = 3,    /* its EF_AMDGPU_MACH names no processor we know */
	HS_REASON_UNSUPPORTED_PAIR = 4,     /* this source -> target pair is not supported */
	HS_REASON_NEEDS_B0A0 = 5,           /* 0.1 only: B0 -> A0 before the B0->A0 pass existed */
	HS_REASON_STEPPING_CONFLICT = 6,    /* an earlier pool was made for another stepping */
	HS_REASON_CANNOT_APPLY = 7,         /* a required edit cannot be made safely */
	HS_REASON_NO_RESOURCES = 8,         /* memory, or a table that cannot grow */
	HS_REASON_SEVERAL_METADATA = 9,     /* more than one NT_AMDGPU_METADATA note */
	HS_REASON_TRANSLATION_REFUSED = 10, /* the translator refused a kernel (see the result) */
	HS_REASON_NO_TRANSLATOR = 11, /* libmirage_translate.so is missing, unloadable or stale */
	/* Notes on success (the message says more). */
	HS_REASON_SYMBOLS_SKIPPED = 64, /* stub symbols asked for, .symtab cannot take them */
	HS_REASON_PASS_NOT_APPLICABLE =
	    65,                        /* a pass was asked for that this processor never needs */
	HS_REASON_SITES_DECLINED = 66, /* HS_REWRITE_BEST_EFFORT declined required B0->A0 sites */
	HS_REASON_PARTIAL = 67,        /* a translation with refused kernels as trap entries */
};

/*
 * Per-kind counts (report->count[HS_COUNT_*]).  New kinds (the B0->A0 pass's patch
 * kinds, the translator's) are appended up to HS_COUNT_CAPACITY without a new field
 * or a new struct version; a library that does not know a kind leaves it 0.  (0.2)
 */
enum hs_count {
	HS_COUNT_KERNELS = 0,      /* == kernels */
	HS_COUNT_KERNELS_STUBBED,  /* == kernels_stubbed */
	HS_COUNT_SKIP_PROLOGUE,    /* == kernels_skip_prologue */
	HS_COUNT_SKIP_STUBBED,     /* == kernels_skip_stubbed */
	HS_COUNT_SYMBOLS_ADDED,    /* == symbols_added */
	HS_COUNT_PATCHES_APPLIED,  /* == patches_applied */
	HS_COUNT_PATCHES_DECLINED, /* == patches_declined */
	HS_COUNT_KERNELS_RAISED,   /* kernels whose .sgpr_count/.vgpr_count were raised */
	/* The gfx1250 B0->A0 pass (0.2). */
	HS_COUNT_B0A0_CLUSTER_LOAD, /* cluster_load_* (VGPR address) -> global_load_*, in place */
	HS_COUNT_B0A0_ISFIRST,      /* s_barrier_signal_isfirst imm -> s_barrier_signal, in place */
	HS_COUNT_B0A0_DS2,          /* DS two-address forms split (trampoline) */
	HS_COUNT_B0A0_ADDTID,       /* ds_{load,store}_addtid_b32 rewritten (trampoline) */
	HS_COUNT_B0A0_DS2_DECLINED, /* DS2 sites that could not be placed (best effort) */
	HS_COUNT_B0A0_ADDTID_DECLINED, /* ADDTID sites that could not be placed (best effort) */
	HS_COUNT_B0A0_LEFT_SADDR,      /* cluster loads with an SGPR base: left alone */
	HS_COUNT_B0A0_LEFT_M0,         /* s_barrier_signal_isfirst m0 / SGPR: left alone */
	HS_COUNT_B0A0_IN_SLED,         /* trampolines placed in NOP sleds in .text */
	HS_COUNT_B0A0_IN_POOL,         /* trampolines placed in the pool */
	HS_COUNT_B0A0_LONG_JUMP,       /* sites reaching the pool through an SGPR-pair far jump */
	HS_COUNT_B0A0_RETAGGED,        /* .gfx1250_revision tags rewritten B0 -> A0 */
	HS_COUNT_B0A0_CERTIFIED,       /* 1: every kernel is tagged A0, the object was left alone */
	HS_COUNT_B0A0_UNDECODABLE,     /* .text regions the decoder could not size (not patched) */
	/* The translation route. */
	HS_COUNT_KERNELS_TRANSLATED, /* kernels the translator translated */
	HS_COUNT_KERNELS_REFUSED,    /* kernels it refused: trap entries, or the call fails */
	/* The B0->A0 pass's far jumps (s_get_pc_i64 / s_add_nc_u64 / s_set_pc_i64 on a pair). */
	HS_COUNT_B0A0_FAR_JUMPS,        /* far jumps into the pool (one may carry several sites) */
	HS_COUNT_B0A0_FAR_PAIR_KERNELS, /* kernels charged a far-jump SGPR pair (.sgpr_count) */
	HS_COUNT_B0A0_FAR_PAIR_LOW,     /* the lowest pair's first SGPR (when kernels > 0) */
	HS_COUNT_B0A0_FAR_PAIR_HIGH,    /* the highest pair's first SGPR (when kernels > 0) */
	HS_COUNT__KNOWN                 /* kinds this header knows; not a kind */
};
#define HS_COUNT_CAPACITY 32

/* What one call did.  Also size-guarded: set .sz (HS_OPTS works for it too). */
struct hs_rewrite_report {
	size_t sz;
	bool changed;                   /* false => output is byte-identical to the input */
	uint32_t passes_run;            /* HS_PASS_* */
	uint32_t kernels;               /* kernel descriptors found */
	uint32_t kernels_stubbed;       /* entry stubs added by this call */
	uint32_t kernels_skip_prologue; /* already begin with the compiler's VMEM + v_nop */
	uint32_t kernels_skip_stubbed;  /* already redirected to one of our stubs */
	uint32_t symbols_added;         /* <kernel>.stub symbols added to .symtab */
	bool symbols_skipped;      /* stub symbols were asked for but .symtab could not take them */
	uint32_t patches_applied;  /* B0->A0 patches applied (all kinds) */
	uint32_t patches_declined; /* optional B0->A0 patches declined */
	uint64_t pool_vaddr;       /* vaddr of the pool segment, 0 if none */
	uint64_t pool_size;        /* bytes in the pool segment */
	int64_t bytes_grown;       /* output size - input size */
	char message[512];         /* failure reason, or a note (e.g. why symbols were skipped) */
	/* 0.2: a caller built against 0.1 passes the smaller sz and never sees these. */
	uint32_t reason;                   /* enum hs_reason of the failure or the note */
	uint32_t count[HS_COUNT_CAPACITY]; /* enum hs_count */
	size_t : 0;
};
#define hs_rewrite_report__last_field count

/* Rewritten bytes: owned by the caller, released with hs_rewrite_output_release(). */
struct hs_rewrite_output {
	void *data;
	size_t size;
};

/*
 * Rewrites the code object in[0..in_size) from source_isa to target_isa.
 * ISA names: "gfx1250", or "amdgcn-amd-amdhsa--gfx1250[:feature(+|-)]...",
 * where the stepping pseudo-feature gfx1250-b0-specific+ means B0 and - means
 * A0 (defaults: source B0, target A0).  NULL source_isa means "the ISA the
 * code object says"; NULL target_isa means "same as source".  A gfx1250 source
 * with a gfx942 or gfx950 target is a translation (HS_PASS_TRANSLATE): the
 * translator libmirage_translate.so beside this library does it; a kernel it refuses
 * becomes an entry that traps (HS_REASON_PARTIAL), or fails the call under
 * HS_REWRITE_ALL_KERNELS (HS_ERROR, HS_REASON_TRANSLATION_REFUSED).
 * The input is never modified.  On HS_OK, *out holds the result (a copy of the
 * input when nothing changed); on failure *out is left untouched.
 * report may be NULL.
 */
HS_API enum hs_status hs_rewrite(const void *in, size_t in_size, const char *source_isa,
                                 const char *target_isa, const struct hs_rewrite_opts *opts,
                                 struct hs_rewrite_output *out, struct hs_rewrite_report *report);

/*
 * Per-kernel results (0.2): what one call did to each kernel, in descriptor-address order.
 * Size-guarded like the report: set .sz; fields are only ever appended, and a library
 * that does not know a field leaves the caller's bytes past its own struct alone.
 */
struct hs_kernel_result {
	size_t sz;
	const char *name;      /* symbol name without ".kd"; valid until the result is freed */
	uint64_t descriptor;   /* vaddr of its kernel descriptor */
	uint32_t passes;       /* HS_PASS_* of the passes that changed its entry or resources */
	uint64_t entry_before; /* entry vaddr in the input */
	uint64_t entry_after;  /* and in the output */
	uint64_t sgprs_before; /* metadata .sgpr_count (0: unknown) */
	uint64_t sgprs_after;
	uint64_t vgprs_before; /* metadata .vgpr_count (0: unknown) */
	uint64_t vgprs_after;
	/*
	 * The translation route (HS_PASS_TRANSLATE): 1 translated, 0 refused, -1 not a
	 * translation.  A refusal says where and why: the instruction's address in the source
	 * (as llvm-objdump prints it), its mnemonic, the translator's reason code
	 * ("unknown-instruction") and text, and a detail; strings valid until the result is freed,
	 * NULL when not known.
	 */
	int translated;
	uint64_t refused_offset;
	const char *refused_mnemonic;
	const char *refused_reason;
	const char *refused_reason_text;
	const char *refused_detail;
	/*
	 * (0.2, appended) A translated kernel's note, NULL when none: "whole-wave mode for
	 * <mnemonic> at 0x<address>: ..." when it was translated in whole-wave mode (an
	 * EXEC or lane write there is not proven within the launched lanes; docs/translate.md).
	 */
	const char *translated_note;
	size_t : 0;
};
#define hs_kernel_result__last_field translated_note

/* The number of kernels in a result (0 for NULL). */
HS_API size_t hs_rewrite_result_kernels(const struct hs_rewrite_result *res);
/* Fills *kr with kernel i; HS_INVALID_ARGUMENT when i is out of range or kr->sz too small. */
HS_API enum hs_status hs_rewrite_result_kernel(const struct hs_rewrite_result *res, size_t i,
                                               struct hs_kernel_result *kr);
/* Frees a result; NULL is fine. */
HS_API void hs_rewrite_result_free(struct hs_rewrite_result *res);

/* Frees out->data and zeroes *out; NULL or an empty output is fine. */
HS_API void hs_rewrite_output_release(struct hs_rewrite_output *out);

/* The last failure message of the calling thread ("" if none); valid until its next call. */
HS_API const char *hs_last_error(void);

/* Short name of a status: "OK", "INVALID_ARGUMENT", "ERROR", "OUT_OF_RESOURCES". */
HS_API const char *hs_status_str(enum hs_status status);

/* The library's version, HS_REWRITE_VERSION_STRING of the build ("0.2.0"). */
HS_API const char *hs_version(void);

/*
 * The version and the GNU build-ids of this library and of libhotswap_mc.so beside it:
 * "<hs_version()> rewrite=<hex> mc=<hex> translate=<hex>" ("none" for a part without one or
 * missing; translate is the translator libmirage_translate.so beside it).  It changes whenever
 * one of them is rebuilt with other code, so caches of rewritten objects key on it.
 * Reads the files; never loads LLVM nor the translator.  (HOTSWAP_REWRITE_0.2)
 */
HS_API const char *hs_build_identity(void);

/*
 * Replaces the log callback for the whole process (NULL restores the default).
 * Returns the previous one.  The callback may be called from any thread.
 */
HS_API hs_log_fn hs_set_log_fn(hs_log_fn fn, void *ctx);

/*
 * Reads the target of a code object without rewriting it: writes the
 * canonical ISA name ("amdgcn-amd-amdhsa--gfx1250[:xnack+]...") into buf and
 * the processor name ("gfx1250") into proc (either may be NULL).  Validates
 * the ELF header only.
 */
HS_API enum hs_status hs_code_object_isa(const void *in, size_t in_size, char *buf, size_t buf_size,
                                         char *proc, size_t proc_size);

/*
 * Describes a code object as a JSON document (kernels with descriptor fields
 * and decoded RSRC1/2/3, SGPR/VGPR counts, metadata, notes, pool and
 * provenance).  flags: HS_INSPECT_DISASM adds LLVM MC disassembly of the
 * kernels (kernel NULL = all, else only that kernel); this loads LLVM.
 * On HS_OK *json is a NUL-terminated string the caller frees with free().
 */
#define HS_INSPECT_DISASM (1u << 0)
HS_API enum hs_status hs_inspect(const void *in, size_t in_size, unsigned flags, const char *kernel,
                                 char **json);

/*
 * The entry points' pointer types, for a program that dlopen()s the library rather than
 * linking it (mirage does, so that only the commands that rewrite load it): dlsym() the
 * function's name and keep it in one of these.  The checks below make a declaration that
 * changes without its type a compile error for every includer.
 */
typedef enum hs_status (*hs_rewrite_fn)(const void *in, size_t in_size, const char *source_isa,
                                        const char *target_isa, const struct hs_rewrite_opts *opts,
                                        struct hs_rewrite_output *out,
                                        struct hs_rewrite_report *report);
typedef void (*hs_rewrite_output_release_fn)(struct hs_rewrite_output *out);
typedef const char *(*hs_last_error_fn)(void);
typedef const char *(*hs_status_str_fn)(enum hs_status status);
typedef const char *(*hs_version_fn)(void);
typedef const char *(*hs_build_identity_fn)(void);
typedef enum hs_status (*hs_inspect_fn)(const void *in, size_t in_size, unsigned flags,
                                        const char *kernel, char **json);
typedef enum hs_status (*hs_code_object_isa_fn)(const void *in, size_t in_size, char *buf,
                                                size_t buf_size, char *proc, size_t proc_size);
typedef size_t (*hs_rewrite_result_kernels_fn)(const struct hs_rewrite_result *res);
typedef enum hs_status (*hs_rewrite_result_kernel_fn)(const struct hs_rewrite_result *res, size_t i,
                                                      struct hs_kernel_result *kr);
typedef void (*hs_rewrite_result_free_fn)(struct hs_rewrite_result *res);
typedef hs_log_fn (*hs_set_log_fn_fn)(hs_log_fn fn, void *ctx);
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define HS_DL_TYPE_CHECK(fn) _Static_assert(_Generic(&fn, fn##_fn : 1, default : 0), #fn "_fn")
HS_DL_TYPE_CHECK(hs_rewrite);
HS_DL_TYPE_CHECK(hs_rewrite_output_release);
HS_DL_TYPE_CHECK(hs_last_error);
HS_DL_TYPE_CHECK(hs_status_str);
HS_DL_TYPE_CHECK(hs_version);
HS_DL_TYPE_CHECK(hs_build_identity);
HS_DL_TYPE_CHECK(hs_inspect);
HS_DL_TYPE_CHECK(hs_code_object_isa);
HS_DL_TYPE_CHECK(hs_rewrite_result_kernels);
HS_DL_TYPE_CHECK(hs_rewrite_result_kernel);
HS_DL_TYPE_CHECK(hs_rewrite_result_free);
HS_DL_TYPE_CHECK(hs_set_log_fn);
#undef HS_DL_TYPE_CHECK
#endif

#ifdef __cplusplus
}
#endif

#endif
