/* libmirage_translate.so's only export: `mirage raise` and `mirage emulate` as data in, data out.
 */
#include "mirage_translate.h"

#include "amdgcn_translate.h"
#include "atomic_file.h"
#include "build_id.h"
#include "host_jit.h"
#include "kernarg.h"
#include "launch_file.h"
#include "mirage/code_object.h"
#include "mirage/raise.h"
#include "runner.h"
#include "str_fmt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ENTRY_NAME "mirage_kernel_entry"

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int raise_object(const char *path, const char *kernel, enum tr_binding binding, int want_ir,
                        struct tr_raise_report *out)
{
	struct code_object *co;
	char *err = NULL;

	memset(out, 0, sizeof(*out));
	if (co_load(path, &co, &err)) {
		out->error = err;
		return -1;
	}
	if (kernel && !co_find_kernel(co, kernel)) {
		out->error = str_fmt("%s: no kernel '%s' in the object", path, kernel);
		co_free(co);
		return -1;
	}
	out->kernels = calloc(co->nkernels + 1, sizeof(*out->kernels));
	for (size_t i = 0; out->kernels && i < co->nkernels; i++) {
		const struct co_kernel *k = &co->kernels[i];
		struct tr_kernel *t = &out->kernels[out->nkernels];
		struct raise_result res;
		struct raise_refusal why;
		LLVMContextRef ctx;
		if (kernel && k != co_find_kernel(co, kernel))
			continue;
		out->nkernels++;
		t->name = strdup(k->name);
		ctx = LLVMContextCreate();
		if (raise_kernel(ctx, co, k, &res, &why)) {
			tr_kernel_refuse(t, &why);
		} else {
			char msg[512];
			t->raised = 1;
			t->instructions = res.instructions;
			if (binding == TR_BINDING_HOST &&
			    (host_bind(res.module, msg, sizeof(msg)) ||
			     host_optimize(res.module, msg, sizeof(msg)))) {
				t->raised = 0;
				t->reason = raise_reason_code(RAISE_RAISER_BUG);
				t->reason_text = raise_reason_text(RAISE_RAISER_BUG);
				t->detail = strdup(msg);
				t->mnemonic = strdup("");
			} else if (want_ir) {
				char *ir = LLVMPrintModuleToString(res.module);
				t->ir = strdup(ir);
				LLVMDisposeMessage(ir);
			}
			LLVMDisposeModule(res.module);
		}
		LLVMContextDispose(ctx);
	}
	co_free(co);
	return 0;
}

static void tr_kernel_free(struct tr_kernel *k)
{
	free(k->name);
	free(k->mnemonic);
	free(k->detail);
	free(k->ir);
}

static void raise_report_free(struct tr_raise_report *r)
{
	for (size_t i = 0; i < r->nkernels; i++)
		tr_kernel_free(&r->kernels[i]);
	free(r->kernels);
	free(r->error);
	memset(r, 0, sizeof(*r));
}

static int parse_schedule(const char *s, int *shuffle, uint64_t *seed)
{
	char *end;
	*shuffle = 0;
	*seed = 0;
	if (!s || !strcmp(s, "deterministic"))
		return 0;
	if (strncmp(s, "shuffle:", 8) || !s[8])
		return -1;
	errno = 0;
	*seed = strtoull(s + 8, &end, 0);
	if (errno || *end)
		return -1;
	*shuffle = 1;
	return 0;
}

/* The AQL kernel dispatch packet the launch would enqueue (hsa_kernel_dispatch_packet_t). */
static void aql_packet(uint8_t *p, const struct launch_file *lf, const struct co_kernel *k,
                       const uint8_t *kernarg)
{
	uint16_t dims = lf->grid[2] > 1 ? 3 : lf->grid[1] > 1 ? 2 : 1;
	uint64_t ka = (uint64_t)(uintptr_t)kernarg;
	memset(p, 0, 64);
	p[2] = (uint8_t)dims;
	for (int d = 0; d < 3; d++) {
		p[4 + 2 * d] = (uint8_t)lf->workgroup[d];
		p[5 + 2 * d] = (uint8_t)(lf->workgroup[d] >> 8);
		memcpy(p + 12 + 4 * d, &lf->grid[d], 4);
	}
	memcpy(p + 24, &k->private_fixed, 4);
	{
		uint32_t group = k->group_fixed + lf->dynamic_lds;
		memcpy(p + 28, &group, 4);
	}
	memcpy(p + 40, &ka, 8);
}

static int emulate(const char *launch_path, const char *schedule, struct tr_emulate_result *out)
{
	struct launch_file *lf = NULL;
	struct code_object *co = NULL;
	const struct co_kernel *k;
	struct raise_result res;
	struct raise_refusal why;
	struct run_config cfg = {0};
	struct run_report rep;
	struct run_region *regions = NULL;
	struct host_jit *jit = NULL;
	uint8_t **bufs = NULL, *kernarg = NULL;
	uint8_t dispatch[64] __attribute__((aligned(64)));
	LLVMContextRef ctx = NULL;
	char *err = NULL, msg[512];
	double t0;
	int shuffle;
	uint64_t seed;

	memset(out, 0, sizeof(*out));
	out->exit_code = 2;
	if (parse_schedule(schedule, &shuffle, &seed)) {
		out->message = str_fmt(
		    "--schedule: '%s' is neither 'deterministic' nor 'shuffle:SEED'", schedule);
		out->hint = strdup("give --schedule deterministic or --schedule shuffle:42");
		return -1;
	}
	if (launch_file_load(launch_path, &lf, &err)) {
		out->message = err;
		return -1;
	}
	out->kernel = strdup(lf->kernel);
	if (co_load(lf->code_object, &co, &err)) {
		out->message = str_fmt("%s: code_object: %s", launch_path, err);
		free(err);
		goto done;
	}
	k = co_find_kernel(co, lf->kernel);
	if (!k) {
		out->message = str_fmt("%s: kernel: '%s' is not a kernel of %s", launch_path,
		                       lf->kernel, lf->code_object);
		goto done;
	}
	if (lf->dynamic_lds + k->group_fixed > 320u * 1024) {
		out->message =
		    str_fmt("%s: dynamic_lds: %u bytes with the kernel's %u static exceed "
		            "gfx1250's 320 KiB",
		            launch_path, lf->dynamic_lds, k->group_fixed);
		goto done;
	}
	/* Buffers and kernarg before raising: a bad launch file is exit 2 whatever the kernel. */
	bufs = calloc(lf->nbuffers + 1, sizeof(*bufs));
	regions = calloc(lf->nbuffers + 2, sizeof(*regions));
	kernarg = aligned_alloc(64, ((size_t)k->kernarg_size + 64) & ~(size_t)63);
	if (!bufs || !regions || !kernarg) {
		out->exit_code = 1;
		out->message = strdup("out of memory");
		goto done;
	}
	memset(kernarg, 0, ((size_t)k->kernarg_size + 64) & ~(size_t)63);
	for (size_t i = 0; i < lf->nbuffers; i++) {
		bufs[i] = malloc(lf->buffers[i].size ? lf->buffers[i].size : 1);
		if (!bufs[i]) {
			out->exit_code = 1;
			out->message = str_fmt("buffers.%s: out of memory", lf->buffers[i].name);
			goto done;
		}
		if (launch_buffer_fill(lf, &lf->buffers[i], bufs[i], &err)) {
			out->message = err;
			goto done;
		}
		regions[i] = (struct run_region){lf->buffers[i].name, bufs[i], lf->buffers[i].size};
	}
	regions[lf->nbuffers] = (struct run_region){"kernarg", kernarg, k->kernarg_size};
	aql_packet(dispatch, lf, k, kernarg);
	regions[lf->nbuffers + 1] =
	    (struct run_region){"dispatch packet", dispatch, sizeof(dispatch)};
	{
		int rc = kernarg_build(k, lf, bufs, kernarg, msg, sizeof(msg));
		if (rc) {
			out->message = str_fmt("%s: %s", launch_path, msg);
			if (rc == -1)
				out->exit_code = 1;
			goto done;
		}
	}
	out->exit_code = 1;
	t0 = now_ms();
	ctx = LLVMContextCreate();
	if (raise_kernel(ctx, co, k, &res, &why)) {
		out->message = str_fmt("kernel %s is refused at offset 0x%llx (%s): %s: %s%s%s",
		                       k->name, (unsigned long long)why.offset, why.mnemonic,
		                       raise_reason_code(why.reason), raise_reason_text(why.reason),
		                       why.detail[0] ? ": " : "", why.detail);
		out->hint = strdup("`mirage raise CODE_OBJECT --json` lists every kernel's result");
		goto done;
	}
	out->instructions = res.instructions;
	out->raise_ms = now_ms() - t0;
	t0 = now_ms();
	LLVMSetValueName2(res.function, ENTRY_NAME, strlen(ENTRY_NAME));
	jit = host_jit_compile(ctx, res.module, ENTRY_NAME, &cfg.entry, msg, sizeof(msg));
	ctx = NULL; /* consumed */
	if (!jit) {
		out->message = str_fmt("kernel %s: %s", k->name, msg);
		goto done;
	}
	out->jit_ms = now_ms() - t0;
	memcpy(cfg.grid, lf->grid, sizeof(cfg.grid));
	memcpy(cfg.wg, lf->workgroup, sizeof(cfg.wg));
	cfg.kernarg = kernarg;
	cfg.kernarg_size = k->kernarg_size;
	cfg.lds_bytes = k->group_fixed + lf->dynamic_lds;
	cfg.scratch_bytes = res.scratch_bytes;
	cfg.regions = regions;
	cfg.nregions = lf->nbuffers + 2;
	cfg.dispatch = dispatch;
	cfg.shuffle = shuffle;
	cfg.seed = seed;
	t0 = now_ms();
	if (runner_run(&cfg, &rep)) {
		out->message = str_fmt("kernel %s: %s", k->name, rep.message);
		out->fault_offset = rep.fault_offset;
		out->workgroups = rep.workgroups;
		out->waves = rep.waves;
		goto done;
	}
	out->run_ms = now_ms() - t0;
	out->workgroups = rep.workgroups;
	out->waves = rep.waves;
	out->outputs = calloc(lf->nbuffers + 1, sizeof(*out->outputs));
	for (size_t i = 0; out->outputs && i < lf->nbuffers; i++) {
		if (!lf->buffers[i].output_path)
			continue;
		if (atomic_write_file(lf->buffers[i].output_path, bufs[i], lf->buffers[i].size,
		                      0666, ATOMIC_REPLACE)) {
			out->message =
			    str_fmt("buffers.%s.output: cannot write '%s': %s", lf->buffers[i].name,
			            lf->buffers[i].output_path, strerror(errno));
			goto done;
		}
		out->outputs[out->noutputs++] = strdup(lf->buffers[i].output_path);
	}
	out->exit_code = 0;
done:
	host_jit_free(jit);
	if (ctx)
		LLVMContextDispose(ctx);
	for (size_t i = 0; bufs && i < lf->nbuffers; i++)
		free(bufs[i]);
	free(bufs);
	free(regions);
	free(kernarg);
	co_free(co);
	launch_file_free(lf);
	return out->exit_code ? -1 : 0;
}

static void emulate_result_free(struct tr_emulate_result *r)
{
	free(r->message);
	free(r->hint);
	free(r->kernel);
	for (size_t i = 0; i < r->noutputs; i++)
		free(r->outputs[i]);
	free(r->outputs);
	memset(r, 0, sizeof(*r));
}

static int translate_object(const void *code, size_t size, const char *target,
                            struct tr_translation *out)
{
	return amdgcn_translate(code, size, target, out);
}

static void translation_free(struct tr_translation *t)
{
	free(t->error);
	for (size_t i = 0; i < t->nkernels; i++)
		tr_kernel_free(&t->kernels[i]);
	free(t->kernels);
	free(t->image);
	memset(t, 0, sizeof(*t));
}

const struct translate_api *mirage_translate_api(void)
{
	static const struct translate_api api = {
	    .version = TRANSLATE_API_VERSION,
	    .raise_object = raise_object,
	    .raise_report_free = raise_report_free,
	    .emulate = emulate,
	    .emulate_result_free = emulate_result_free,
	    .translate_object = translate_object,
	    .translation_free = translation_free,
	    .build_id = translate_build_id,
	};
	return &api;
}
