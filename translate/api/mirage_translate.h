/*
 * libmirage_translate.so, the translator's module: the raiser, the host binding and the CPU
 * runner.  `mirage raise` and `mirage emulate` dlopen() it from <mirage dir>/../lib/mirage
 * (launcher/translate_dl.c); `mirage run`, `doctor`, `profile` and the intercept never load
 * it, nor the libLLVM it links.  Never prints, never exits: results come back as data.
 */
#ifndef MIRAGE_TRANSLATE_API_H
#define MIRAGE_TRANSLATE_API_H

#include <stddef.h>
#include <stdint.h>

/* 4: tr_kernel.note; 5: tr_raise_report.hint; 6: images with refused kernels as trap entries;
 * 7: translate_object_progress, emulate_progress */
#define TRANSLATE_API_VERSION  7
#define TRANSLATE_LIBRARY_NAME "libmirage_translate.so"
#define TRANSLATE_ENTRY_SYMBOL "mirage_translate_api"

struct tr_kernel {
	char *name;
	int raised;          /* 1 raised and verified, 0 refused */
	size_t instructions; /* raised */
	uint64_t offset;     /* refusal (or the whole-wave site): the instruction's address */
	char *mnemonic;      /* refusal (or the whole-wave site) */
	const char *reason;  /* refusal code ("unknown-instruction"), static */
	const char *reason_text;
	char *detail; /* refusal detail */
	char *ir;     /* the module's text when asked for, else NULL */
	/* translated in whole-wave mode (docs/translate.md): "whole-wave mode for <mnemonic> at
	 * 0x<address>: <why unproven>", else NULL */
	char *note;
};

struct tr_raise_report {
	char *error; /* the object could not be read (or the kernel is unknown): the message */
	char *hint;  /* with error: how to fix it, or NULL */
	struct tr_kernel *kernels;
	size_t nkernels;
};

enum tr_binding {
	TR_BINDING_NONE,
	TR_BINDING_HOST
};

struct tr_emulate_result {
	int exit_code; /* 0 ran, 1 refused / fault / convergence violation, 2 bad launch file
	                  (dispatch: a bad dispatch, the field named) */
	char *message; /* when exit_code != 0 */
	char *hint;    /* or NULL */
	char *kernel;
	uint64_t workgroups, waves;
	size_t instructions;
	uint64_t fault_offset;
	double raise_ms, jit_ms, run_ms;
	char **outputs; /* the files written */
	size_t noutputs;
};

/*
 * A cross-family translation (gfx1250 -> gfx942/gfx950, docs/translate.md).  kernels[i].raised
 * is 1 when kernel i translated; a refusal carries offset, mnemonic, reason and detail as a
 * raise refusal does.  image is set when at least one kernel translated: one linked code
 * object (ET_DYN) holding each kernel under its own name and <name>.kd, the translated ones
 * with their descriptor checked, and each refused one as an entry that only traps (never its
 * source code; docs/translate.md, "Partial objects").  Its metadata is LLVM's: the caller
 * (libhotswap_rewrite's translate route) carries the source's .args over, adds the provenance
 * note, and decides whether a partial object is wanted.
 */
struct tr_translation {
	char *error; /* the object could not be read, lowered or linked: the message */
	struct tr_kernel *kernels;
	size_t nkernels;
	unsigned char *image;
	size_t image_size;
};

/* What a long translation reports as it goes: done of total kernels. */
typedef void (*tr_progress_fn)(void *ctx, size_t done, size_t total);

/* One allocation a dispatched kernel may touch (the client's memory, through its runtime). */
struct tr_region {
	void *base;
	uint64_t size;
};

/*
 * One AQL kernel dispatch of a code object in memory, as a runtime would hand it to the GPU:
 * the kernel (its .name or its <name>.kd symbol), the kernarg bytes as the client filled them
 * (at least the kernel's .kernarg_segment_size; the runner reads a private copy), the grid and
 * workgroup in work-items, the packet's group_segment_size (static + dynamic LDS, at least the
 * kernel's static size), and the memory the kernel may touch: regions that must not overlap.
 * Every access outside them (and outside the kernarg copy and the dispatch packet) faults.
 */
struct tr_dispatch {
	const void *code;
	size_t code_size;
	const char *kernel;
	const void *kernarg;
	size_t kernarg_size;
	uint32_t grid[3];
	uint32_t workgroup[3];
	uint32_t group_segment_size;
	const struct tr_region *regions;
	size_t nregions;
	const char *schedule; /* NULL or "deterministic", or "shuffle:SEED" */
};

struct translate_api {
	unsigned version;
	/* Raises every kernel of the object (or only kernel); IR text when want_ir. */
	int (*raise_object)(const char *path, const char *kernel, enum tr_binding binding,
	                    int want_ir, struct tr_raise_report *out);
	void (*raise_report_free)(struct tr_raise_report *r);
	/* schedule: NULL or "deterministic", or "shuffle:SEED". */
	int (*emulate)(const char *launch_path, const char *schedule,
	               struct tr_emulate_result *out);
	void (*emulate_result_free)(struct tr_emulate_result *r);
	/* Translates the code object in memory for target ("gfx942" or "gfx950"). */
	int (*translate_object)(const void *code, size_t size, const char *target,
	                        struct tr_translation *out);
	void (*translation_free)(struct tr_translation *t);
	/* This translator build's identity (stable for one build, changes with it): cache keys
	 * and provenance notes name it. */
	const char *(*build_id)(void);
	/* v3: runs one dispatch on the CPU, results written in place into its regions; out as
	 * emulate's (exit_code 2 names the bad field, 1 a refusal or fault; no outputs). */
	int (*dispatch)(const struct tr_dispatch *d, struct tr_emulate_result *out);
	/*
	 * v7: translate_object, calling progress (when not NULL) from the calling thread after
	 * each kernel is raised and bound, with done of total kernels; lowering and linking the
	 * one module follow the last call.
	 */
	int (*translate_object_progress)(const void *code, size_t size, const char *target,
	                                 tr_progress_fn progress, void *ctx,
	                                 struct tr_translation *out);
	/* v7: emulate, calling progress (when not NULL) after each workgroup run, done of total. */
	int (*emulate_progress)(const char *launch_path, const char *schedule,
	                        tr_progress_fn progress, void *ctx, struct tr_emulate_result *out);
};

/*
 * The module's one export, TRANSLATE_ENTRY_SYMBOL.  The launcher calls it through
 * translate_get_api_fn (launcher/translate_dl.c); the assertion makes a change of the
 * function without its type, or of the type without the function, a compile error for every
 * includer, so the two cannot drift.
 */
typedef const struct translate_api *(*translate_get_api_fn)(void);
__attribute__((visibility("default"))) const struct translate_api *mirage_translate_api(void);
_Static_assert(_Generic(&mirage_translate_api, translate_get_api_fn : 1, default : 0),
               "mirage_translate_api is a translate_get_api_fn");

#endif
