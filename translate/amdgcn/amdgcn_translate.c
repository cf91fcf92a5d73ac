/*
 * translate_object for gfx942/gfx950 (amdgcn_translate.h): per kernel raise, prove, bind and
 * optimise; the kernels of one chunk (amdgcn_chunks.c) in one LLVM context, linked into one
 * module and emitted as one relocatable object, the chunks on threads of their own; then one
 * link of every chunk's object, and every descriptor validated.  A refused kernel gets an
 * entry that traps (amdgcn_trap.c), so the image holds every kernel; it is returned when at
 * least one kernel translated and every translated kernel's descriptor checked out.
 */
#include "amdgcn_translate.h"

#include "amdgcn.h"
#include "mirage/isa.h"
#include "str_fmt.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Comdat.h>
#include <llvm-c/Linker.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SOURCE_NAME "the code object"

static int refuse(struct raise_refusal *why, const struct co_kernel *k, enum raise_reason reason,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int refuse(struct raise_refusal *why, const struct co_kernel *k, enum raise_reason reason,
                  const char *fmt, ...)
{
	va_list ap;
	memset(why, 0, sizeof(*why));
	snprintf(why->kernel, sizeof(why->kernel), "%s", k->name);
	why->offset = k->entry;
	why->reason = reason;
	va_start(ap, fmt);
	vsnprintf(why->detail, sizeof(why->detail), fmt, ap);
	va_end(ap);
	return -1;
}

/* An alloca mem2reg left (a register whose address escapes) would be in the wrong address
 * space for the target: its name, or NULL. */
static const char *unpromoted(LLVMValueRef fn)
{
	for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
		for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
			if (LLVMIsAAllocaInst(i)) {
				size_t len;
				return LLVMGetValueName2(i, &len);
			}
	return NULL;
}

/* One kernel up to its optimised module, or a refusal in *why. */
static int translate_kernel(LLVMContextRef ctx, LLVMTargetMachineRef tm,
                            const struct amdgcn_target *t, const struct code_object *co,
                            const struct co_kernel *k, LLVMModuleRef *mod, size_t *instructions,
                            int *whole_wave, struct raise_refusal *why)
{
	struct raise_result res;
	char msg[512], *err = NULL;
	const char *reg;
	LLVMValueRef kernel;
	uint32_t round_mode;

	*mod = NULL;
	if (co_kernel_lds(k) > isa_arch_lds_limit(t->arch))
		return refuse(why, k, RAISE_LDS_LIMIT, "%u bytes of LDS, %s has %u",
		              co_kernel_lds(k), t->name, isa_arch_lds_limit(t->arch));
	/* FLOAT_ROUND_MODE: the 32-bit and the 16/64-bit modes, RSRC1 [15:12] together. */
	round_mode = co_kd(k, "float_round_mode_32") | co_kd(k, "float_round_mode_16_64") << 2;
	if (round_mode)
		return refuse(
		    why, k, RAISE_MODE,
		    "RSRC1 FLOAT_ROUND_MODE is 0x%x, the raised code rounds to nearest even",
		    round_mode);
	if (raise_kernel(ctx, co, k, &res, why))
		return -1;
	*instructions = res.instructions;
	amdgcn_mark_exec_writes(res.module, res.function);
	if (amdgcn_run_passes(res.module, "mem2reg", NULL, msg, sizeof(msg))) {
		refuse(why, k, RAISE_RAISER_BUG, "%s", msg);
		goto fail;
	}
	reg = unpromoted(res.function);
	if (reg) {
		refuse(why, k, RAISE_RAISER_BUG, "register %s is not promoted by mem2reg", reg);
		goto fail;
	}
	*whole_wave = amdgcn_prove_wave_native(res.module, res.function, co, k, why);
	if (*whole_wave < 0)
		goto fail;
	amdgcn_prepare_module(res.module, tm);
	kernel = amdgcn_bind(res.module, res.function, k, res.reads_image ? co : NULL,
	                     res.scratch_bytes, *whole_wave, msg, sizeof(msg));
	if (!kernel) {
		refuse(why, k, RAISE_RAISER_BUG, "%s", msg);
		goto fail;
	}
	if (LLVMVerifyModule(res.module, LLVMReturnStatusAction, &err)) {
		refuse(why, k, RAISE_RAISER_BUG, "the bound module does not verify: %.100s",
		       err ? err : "");
		LLVMDisposeMessage(err);
		goto fail;
	}
	LLVMDisposeMessage(err);
	if (amdgcn_optimise(res.module, tm, msg, sizeof(msg))) {
		refuse(why, k, RAISE_RAISER_BUG, "%s", msg);
		goto fail;
	}
	*mod = res.module;
	return 0;
fail:
	LLVMDisposeModule(res.module);
	return -1;
}

void tr_kernel_refuse(struct tr_kernel *t, const struct raise_refusal *w)
{
	t->raised = 0;
	t->offset = w->offset;
	t->mnemonic = strdup(w->mnemonic);
	t->reason = raise_reason_code(w->reason);
	t->reason_text = raise_reason_text(w->reason);
	t->detail = strdup(w->detail);
}

void tr_kernel_free(struct tr_kernel *t)
{
	free(t->name);
	free(t->mnemonic);
	free(t->detail);
	free(t->ir);
	free(t->note);
}

/* One translation's shared state: each chunk writes only its own slots and its kernels'. */
struct object_job {
	const struct amdgcn_target *t;
	const struct code_object *co;
	struct tr_translation *out;
	size_t nchunks;
	struct amdgcn_object *objs; /* per chunk: its relocatable object */
	char **errors;              /* per chunk: why it has none (malloc'd), or NULL */
	bool *any;                  /* per chunk: a kernel of it translated */
	tr_progress_fn progress;
	void *progress_ctx;
	pthread_mutex_t lock; /* done and the progress calls */
	size_t done;
};

/* Kernel i of the object into its module (the translation, or an entry that traps). */
static LLVMModuleRef kernel_module(struct object_job *j, LLVMContextRef ctx,
                                   LLVMTargetMachineRef tm, size_t i)
{
	struct tr_kernel *tk = &j->out->kernels[i];
	const struct co_kernel *k = &j->co->kernels[i];
	struct raise_refusal why;
	LLVMModuleRef m;
	int whole_wave = 0;

	if (translate_kernel(ctx, tm, j->t, j->co, k, &m, &tk->instructions, &whole_wave, &why)) {
		tr_kernel_refuse(tk, &why);
		return amdgcn_trap_kernel(ctx, tm, k->name);
	}
	tk->raised = 1;
	if (whole_wave) {
		tk->offset = why.offset;
		tk->mnemonic = strdup(why.mnemonic);
		tk->note = str_fmt("whole-wave mode for %s at 0x%" PRIx64 ": %s",
		                   *why.mnemonic ? why.mnemonic : "?", why.offset, why.detail);
	}
	return m;
}

/* The chunk's kernels as one relocatable object (module m, consumed). */
static int emit_chunk(struct object_job *j, LLVMModuleRef m, LLVMTargetMachineRef tm,
                      struct amdgcn_object *obj, char *msg, size_t size)
{
	LLVMValueRef image = LLVMGetNamedGlobal(m, "mirage.image");
	int rc;

	LLVMSetSourceFileName(m, "mirage-translate", 16);
	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		if (LLVMGetFunctionCallConv(f) == LLVMAMDGPUKERNELCallConv)
			amdgcn_no_input_attributes(f);
	/* Several chunks may each carry the object's image (amdgcn_bind.c): one comdat, so the
	 * linker keeps one copy. */
	if (image && j->nchunks > 1)
		LLVMSetComdat(image, LLVMGetOrInsertComdat(m, "mirage.image"));
	rc = amdgcn_emit_object(m, tm, &obj->bytes, &obj->size, msg, size);
	LLVMDisposeModule(m);
	return rc;
}

/* Chunk c (amdgcn_run_chunks' fn): its kernels raised, bound, optimised and emitted, in an
 * LLVM context and target machine of its own. */
static void translate_chunk(void *arg, size_t c)
{
	struct object_job *j = arg;
	LLVMTargetMachineRef tm;
	LLVMContextRef ctx;
	LLVMModuleRef all = NULL;
	size_t first, count;
	char msg[512];

	amdgcn_chunk_range(j->co->nkernels, j->nchunks, c, &first, &count);
	tm = amdgcn_target_machine(j->t, msg, sizeof(msg));
	if (!tm) {
		j->errors[c] = str_fmt("%s", msg);
		return;
	}
	ctx = LLVMContextCreate();
	for (size_t i = first; i < first + count; i++) {
		LLVMModuleRef m = kernel_module(j, ctx, tm, i);
		j->any[c] |= j->out->kernels[i].raised;
		if (!all) {
			all = m;
		} else if (LLVMLinkModules2(all, m)) {
			j->errors[c] = str_fmt("%s: kernel %s does not link with the others",
			                       SOURCE_NAME, j->out->kernels[i].name);
			goto done;
		}
		pthread_mutex_lock(&j->lock);
		j->done++;
		if (j->progress)
			j->progress(j->progress_ctx, j->done, j->co->nkernels);
		pthread_mutex_unlock(&j->lock);
	}
	/* An object of one chunk with nothing translated has no image to make. */
	if (all && (j->any[c] || j->nchunks > 1)) {
		if (emit_chunk(j, all, tm, &j->objs[c], msg, sizeof(msg)))
			j->errors[c] = str_fmt("%s: %s", SOURCE_NAME, msg);
		all = NULL;
	}
done:
	if (all)
		LLVMDisposeModule(all);
	LLVMContextDispose(ctx);
	LLVMDisposeTargetMachine(tm);
}

/* Every translated kernel's descriptor in the linked image against its source's; a kernel that
 * fails is refused.  Returns 0, 1 when one failed (its code is in the image: no image), or -1
 * with out->error. */
static int check_image(const unsigned char *image, size_t image_size, const struct amdgcn_target *t,
                       const struct code_object *co, struct tr_translation *out)
{
	struct code_object *linked = NULL;
	char *err = NULL;
	int ok = 1;

	if (co_load_memory(image, image_size, "the translated object", &linked, &err)) {
		out->error = str_fmt("LLVM's object cannot be read back: %s", err);
		free(err);
		return -1;
	}
	for (size_t i = 0; i < co->nkernels; i++) {
		const struct co_kernel *src = &co->kernels[i];
		const struct co_kernel *dst = co_find_kernel(linked, src->name);
		struct raise_refusal why;
		char detail[160];
		if (dst && !out->kernels[i].raised)
			continue; /* a trap entry: none of the source's code to hold to its
			             descriptor */
		if (!dst)
			snprintf(detail, sizeof(detail), "the linked object has no kernel %s",
			         src->name);
		if (dst && !amdgcn_validate(dst, src, t, 0, detail, sizeof(detail)))
			continue;
		refuse(&why, src, RAISE_BAD_DESCRIPTOR, "%s", detail);
		free(out->kernels[i].mnemonic);
		free(out->kernels[i].detail);
		free(out->kernels[i].note);
		out->kernels[i].note = NULL;
		tr_kernel_refuse(&out->kernels[i], &why);
		ok = 0;
	}
	co_free(linked);
	return ok ? 0 : 1;
}

/* The per-chunk arrays of j, or -1. */
static int job_init(struct object_job *j, size_t nchunks)
{
	j->nchunks = nchunks;
	j->objs = calloc(nchunks, sizeof(*j->objs));
	j->errors = calloc(nchunks, sizeof(*j->errors));
	j->any = calloc(nchunks, sizeof(*j->any));
	pthread_mutex_init(&j->lock, NULL);
	return j->objs && j->errors && j->any ? 0 : -1;
}

static void job_release(struct object_job *j)
{
	for (size_t c = 0; c < j->nchunks; c++) {
		if (j->objs)
			free(j->objs[c].bytes);
		if (j->errors)
			free(j->errors[c]);
	}
	free(j->objs);
	free(j->errors);
	free(j->any);
	pthread_mutex_destroy(&j->lock);
}

/* A failed translation reports no kernel results: the ones it made are dropped. */
static void drop_kernels(struct tr_translation *out)
{
	for (size_t i = 0; i < out->nkernels; i++)
		tr_kernel_free(&out->kernels[i]);
	out->nkernels = 0;
}

int amdgcn_translate(const void *code, size_t size, const char *target, tr_progress_fn progress,
                     void *progress_ctx, struct tr_translation *out)
{
	const struct amdgcn_target *t = amdgcn_target_find(target);
	struct object_job j = {
	    .t = t, .out = out, .progress = progress, .progress_ctx = progress_ctx};
	struct code_object *co = NULL;
	char *err = NULL, msg[512];
	bool any = false;
	int checked = 0;

	memset(out, 0, sizeof(*out));
	if (!t) {
		out->error = str_fmt("no translation to '%s': the translator lowers for %s",
		                     target ? target : "(null)", amdgcn_target_list());
		return -1;
	}
	if (co_load_memory(code, size, SOURCE_NAME, &co, &err)) {
		out->error = err;
		return -1;
	}
	j.co = co;
	out->kernels = calloc(co->nkernels + 1, sizeof(*out->kernels));
	if (!out->kernels || job_init(&j, amdgcn_chunk_count(co->nkernels))) {
		out->error = str_fmt("out of memory");
		goto done;
	}
	for (; out->nkernels < co->nkernels; out->nkernels++)
		if (!(out->kernels[out->nkernels].name = strdup(co->kernels[out->nkernels].name))) {
			out->error = str_fmt("out of memory");
			goto done;
		}
	amdgcn_run_chunks(j.nchunks, amdgcn_jobs(), translate_chunk, &j);
	for (size_t c = 0; c < j.nchunks; c++) {
		if (j.errors[c]) {
			out->error = j.errors[c];
			j.errors[c] = NULL;
			goto done;
		}
		any |= j.any[c];
	}
	if (any) {
		if (amdgcn_link(j.objs, j.nchunks, &out->image, &out->image_size, msg,
		                sizeof(msg))) {
			out->error = str_fmt("%s: %s", SOURCE_NAME, msg);
			goto done;
		}
		checked = check_image(out->image, out->image_size, t, co, out);
		if (checked < 0)
			goto done;
	}
	if (!any || checked) {
		free(out->image);
		out->image = NULL;
		out->image_size = 0;
	}
done:
	if (out->error)
		drop_kernels(out);
	job_release(&j);
	co_free(co);
	return out->error ? -1 : 0;
}
