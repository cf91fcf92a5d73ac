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
/* gfx125x: give every kernel the entry prologue the erratum needs, through a stub. */
#define HS_REWRITE_ENTRY_TRAMPOLINES (UINT64_C(1) << 0)
/* Any required patch that cannot be placed is HS_ERROR instead of a declined patch. */
#define HS_REWRITE_STRICT (UINT64_C(1) << 1)
/* Add <kernel>.stub to .symtab for each stub (with ENTRY_TRAMPOLINES). */
#define HS_REWRITE_STUB_SYMBOLS (UINT64_C(1) << 2)
/* Never run the gfx1250 B0->A0 instruction pass. */
#define HS_REWRITE_NO_B0A0   (UINT64_C(1) << 3)
#define HS_REWRITE_ALL_FLAGS (UINT64_C(0xf))
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
struct hs_rewrite_opts {
	size_t sz;      /* sizeof(struct hs_rewrite_opts) as the caller knows it */
	uint64_t flags; /* HS_REWRITE_*; default 0 (validate and copy, plus any required pass) */
	size_t : 0;
};
#define hs_rewrite_opts__last_field flags

#define HS_OPTS(TYPE, NAME, ...) struct TYPE NAME = {.sz = sizeof(struct TYPE), __VA_ARGS__}

/* Passes (report->passes_run bits). */
#define HS_PASS_VALIDATE          (1u << 0)
#define HS_PASS_ENTRY_TRAMPOLINES (1u << 1)
#define HS_PASS_STUB_SYMBOLS      (1u << 2)
#define HS_PASS_B0A0              (1u << 3)
#define HS_PASS_METADATA          (1u << 4)

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
	size_t : 0;
};
#define hs_rewrite_report__last_field message

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
 * code object says"; NULL target_isa means "same as source".
 * The input is never modified.  On HS_OK, *out holds the result (a copy of the
 * input when nothing changed); on failure *out is left untouched.
 * report may be NULL.
 */
HS_API enum hs_status hs_rewrite(const void *in, size_t in_size, const char *source_isa,
                                 const char *target_isa, const struct hs_rewrite_opts *opts,
                                 struct hs_rewrite_output *out, struct hs_rewrite_report *report);

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
 * "<hs_version()> rewrite=<hex> mc=<hex>" ("none" for a part without one).  It changes whenever
 * either library is rebuilt with other code, so caches of rewritten objects key on it.
 * Reads the files; never loads LLVM.  (HOTSWAP_REWRITE_0.2)
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
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define HS_DL_TYPE_CHECK(fn) _Static_assert(_Generic(&fn, fn##_fn : 1, default : 0), #fn "_fn")
HS_DL_TYPE_CHECK(hs_rewrite);
HS_DL_TYPE_CHECK(hs_rewrite_output_release);
HS_DL_TYPE_CHECK(hs_last_error);
HS_DL_TYPE_CHECK(hs_status_str);
HS_DL_TYPE_CHECK(hs_version);
HS_DL_TYPE_CHECK(hs_build_identity);
HS_DL_TYPE_CHECK(hs_inspect);
#undef HS_DL_TYPE_CHECK
#endif

#ifdef __cplusplus
}
#endif

#endif
