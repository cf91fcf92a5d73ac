/*
 * translate_object for gfx942/gfx950 (amdgcn_translate.h): per kernel raise, prove, bind and
 * optimise in one LLVM context; then one module, one object, one link, and every descriptor
 * validated.  A refused kernel gets an entry that traps (amdgcn_trap.c), so the image holds
 * every kernel; it is returned when at least one kernel translated and every translated
 * kernel's descriptor checked out.
 */
#include "amdgcn_translate.h"

#include "amdgcn.h"
#include "mirage/isa.h"
#include "str_fmt.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Linker.h>
#include <inttypes.h>
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

/* Lowers, links and validates the translated kernels (module m, consumed). */
static int lower_and_check(LLVMModuleRef m, LLVMTargetMachineRef tm, const struct amdgcn_target *t,
                           const struct code_object *co, struct tr_translation *out,
                           unsigned char **image, size_t *image_size)
{
	struct code_object *linked = NULL;
	unsigned char *obj = NULL;
	size_t obj_size = 0;
	char msg[512], *err = NULL;
	int ok = 1;

	for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		if (LLVMGetFunctionCallConv(f) == LLVMAMDGPUKERNELCallConv)
			amdgcn_no_input_attributes(f);
	if (amdgcn_emit_object(m, tm, &obj, &obj_size, msg, sizeof(msg)) ||
	    amdgcn_link(obj, obj_size, image, image_size, msg, sizeof(msg))) {
		out->error = str_fmt("%s: %s", SOURCE_NAME, msg);
		free(obj);
		LLVMDisposeModule(m);
		return -1;
	}
	free(obj);
	LLVMDisposeModule(m);
	if (co_load_memory(*image, *image_size, "the translated object", &linked, &err)) {
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

int amdgcn_translate(const void *code, size_t size, const char *target, tr_progress_fn progress,
                     void *progress_ctx, struct tr_translation *out)
{
	const struct amdgcn_target *t = amdgcn_target_find(target);
	struct code_object *co = NULL;
	LLVMTargetMachineRef tm = NULL;
	LLVMContextRef ctx = NULL;
	LLVMModuleRef all = NULL;
	char *err = NULL, msg[512];
	int any = 0, checked = 0;

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
	out->kernels = calloc(co->nkernels + 1, sizeof(*out->kernels));
	tm = amdgcn_target_machine(t, msg, sizeof(msg));
	if (!out->kernels || !tm) {
		out->error = str_fmt("%s", out->kernels ? msg : "out of memory");
		goto done;
	}
	ctx = LLVMContextCreate();
	for (size_t i = 0; i < co->nkernels; i++) {
		struct tr_kernel *tk = &out->kernels[out->nkernels++];
		struct raise_refusal why;
		LLVMModuleRef m;
		int whole_wave = 0;
		tk->name = strdup(co->kernels[i].name);
		if (translate_kernel(ctx, tm, t, co, &co->kernels[i], &m, &tk->instructions,
		                     &whole_wave, &why)) {
			tr_kernel_refuse(tk, &why);
			m = amdgcn_trap_kernel(ctx, tm, co->kernels[i].name);
		} else {
			tk->raised = 1;
			any = 1;
		}
		if (tk->raised && whole_wave) {
			tk->offset = why.offset;
			tk->mnemonic = strdup(why.mnemonic);
			tk->note =
			    str_fmt("whole-wave mode for %s at 0x%" PRIx64 ": %s",
			            *why.mnemonic ? why.mnemonic : "?", why.offset, why.detail);
		}
		if (!all) {
			all = m;
		} else if (LLVMLinkModules2(all, m)) {
			out->error = str_fmt("%s: kernel %s does not link with the others",
			                     SOURCE_NAME, tk->name);
			goto done;
		}
		if (progress)
			progress(progress_ctx, i + 1, co->nkernels);
	}
	if (any && all) {
		LLVMModuleRef m = all;
		all = NULL;
		LLVMSetSourceFileName(m, "mirage-translate", 16);
		/* 1: a translated kernel failed its descriptor check (now refused, but its code
		 * is in the image): no image. */
		checked = lower_and_check(m, tm, t, co, out, &out->image, &out->image_size);
		if (checked < 0)
			goto done;
	}
	if (!any || checked) {
		free(out->image);
		out->image = NULL;
		out->image_size = 0;
	}
done:
	if (all)
		LLVMDisposeModule(all);
	if (ctx)
		LLVMContextDispose(ctx);
	if (tm)
		LLVMDisposeTargetMachine(tm);
	co_free(co);
	return out->error ? -1 : 0;
}
