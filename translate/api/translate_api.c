/* libmirage_translate.so's only export: `mirage raise` and `mirage emulate` as data in, data out.
 */
#include "mirage_translate.h"

#include "amdgcn_translate.h"
#include "atomic_file.h"
#include "build_id.h"
#include "float_env.h"
#include "host_jit.h"
#include "kernarg.h"
#include "launch_file.h"
#include "mirage/code_object.h"
#include "mirage/isa.h"
#include "mirage/raise.h"
#include "refusal.h"
#include "runner.h"
#include "str_fmt.h"

#include <ctype.h>
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

/* "its kernels: a, b, c, ..." for a --kernel that names none of them; NULL when out of memory. */
static char *kernel_list_hint(const struct code_object *co)
{
	enum {
		SHOWN = 12
	};
	size_t shown = co->nkernels < SHOWN ? co->nkernels : SHOWN, len = 0, at;
	char *names, *hint;

	if (!co->nkernels)
		return str_fmt("the object has no kernels");
	for (size_t i = 0; i < shown; i++)
		len += strlen(co->kernels[i].name) + 2;
	if (!(names = malloc(len + 1)))
		return NULL;
	at = 0;
	for (size_t i = 0; i < shown; i++)
		at += (size_t)sprintf(names + at, "%s%s", i ? ", " : "", co->kernels[i].name);
	if (co->nkernels > shown)
		hint =
		    str_fmt("its kernels: %s and %zu more (`mirage raise --json` lists them); give "
		            "one to --kernel, or leave --kernel out for all",
		            names, co->nkernels - shown);
	else
		hint = str_fmt(
		    "its kernels: %s; give one to --kernel, or leave --kernel out for all", names);
	free(names);
	return hint;
}

static int raise_object(const char *path, const char *kernel, enum tr_binding binding, int want_ir,
                        struct tr_raise_report *out)
{
	struct code_object *co;
	char *err = NULL;

	memset(out, 0, sizeof(*out));
	int rc = co_load(path, &co, &err);

	if (rc) {
		out->error = err;
		/* A file that was read but is no code object; a file that cannot be read says why.
		 */
		if (rc == -EINVAL || rc == -EFBIG)
			out->hint = str_fmt("give an AMDGPU code object (clang-22 -target "
			                    "amdgcn-amd-amdhsa, then ld.lld-22 -shared)");
		return -1;
	}
	if (kernel && !co_find_kernel(co, kernel)) {
		out->error = str_fmt("%s: no kernel '%s' in the object", path, kernel);
		out->hint = kernel_list_hint(co);
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
		} else if (binding == TR_BINDING_HOST && host_float_env_check(co, k, &res, &why)) {
			tr_kernel_refuse(t, &why);
			LLVMDisposeModule(res.module);
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

static void raise_report_free(struct tr_raise_report *r)
{
	for (size_t i = 0; i < r->nkernels; i++)
		tr_kernel_free(&r->kernels[i]);
	free(r->kernels);
	free(r->error);
	free(r->hint);
	memset(r, 0, sizeof(*r));
}

static int parse_schedule(const char *s, int *shuffle, uint64_t *seed)
{
	char *end;
	*shuffle = 0;
	*seed = 0;
	if (!s || !strcmp(s, "deterministic"))
		return 0;
	/* strtoull would take "-1" as 2^64-1: a seed is digits (or 0x and hex digits) only. */
	if (strncmp(s, "shuffle:", 8) || !isxdigit((unsigned char)s[8]))
		return -1;
	errno = 0;
	*seed = strtoull(s + 8, &end, 0);
	if (errno || *end)
		return -1;
	*shuffle = 1;
	return 0;
}

/* The AQL kernel dispatch packet the launch would enqueue (hsa_kernel_dispatch_packet_t). */
static void aql_packet(uint8_t *p, const uint32_t grid[3], const uint32_t wg[3],
                       uint32_t private_bytes, uint32_t group_bytes, const uint8_t *kernarg)
{
	uint16_t dims = grid[2] > 1 ? 3 : grid[1] > 1 ? 2 : 1;
	uint64_t ka = (uint64_t)(uintptr_t)kernarg;
	memset(p, 0, 64);
	p[2] = (uint8_t)dims;
	for (int d = 0; d < 3; d++) {
		p[4 + 2 * d] = (uint8_t)wg[d];
		p[5 + 2 * d] = (uint8_t)(wg[d] >> 8);
		memcpy(p + 12 + 4 * d, &grid[d], 4);
	}
	memcpy(p + 24, &private_bytes, 4);
	memcpy(p + 28, &group_bytes, 4);
	memcpy(p + 40, &ka, 8);
}

/* Static + dynamic LDS a workgroup of the object's processor may have. */
static uint32_t lds_limit(const struct code_object *co, const char **gfx)
{
	int arch = isa_arch_of_e_flags(co->mach);
	*gfx = co->mcpu ? co->mcpu : "gfx1250";
	return isa_arch_lds_limit(arch < 0 ? ISA_ARCH_GFX1250 : (unsigned)arch);
}

/*
 * One kernel run on the CPU, the one path behind `emulate` and `dispatch`: the caller has
 * found the kernel, filled the kernarg (k->kernarg_size bytes, 64-byte aligned) and listed
 * the memory the kernel may touch in regions[0..nregions), with room for two more (the
 * kernarg and the dispatch packet, added here).  Raises, JIT-compiles and runs; fills out's
 * counters and timings, and on failure exit_code 1 with the message.
 */
struct kernel_run {
	const struct code_object *co;
	const struct co_kernel *k;
	uint32_t grid[3], wg[3];
	uint32_t lds_bytes; /* static + dynamic */
	uint8_t *kernarg;
	struct run_region *regions;
	size_t nregions;
	int shuffle;
	uint64_t seed;
	tr_progress_fn progress; /* each workgroup run, or NULL */
	void *progress_ctx;
};

/*
 * cfg->image: a copy of the object's loaded image for this launch (program-scope data starts
 * from its initial bytes at every launch, as at every load).  Its addresses are the object's
 * own, low ones no host allocation has; a launch buffer there would be ambiguous, so it is
 * refused.  0, or -1 with out's message.
 */
static int image_for(const struct kernel_run *kr, struct run_config *cfg,
                     struct tr_emulate_result *out)
{
	const struct code_object *co = kr->co;

	for (size_t i = 0; i < cfg->nregions; i++) {
		uint64_t base = (uint64_t)(uintptr_t)cfg->regions[i].base;
		if (base < co->image_addr + co->image_size &&
		    co->image_addr < base + cfg->regions[i].size) {
			out->message = str_fmt(
			    "kernel %s: buffer '%s' lies at the code object's own "
			    "addresses [0x%llx, 0x%llx), where the kernel reads its "
			    "image",
			    kr->k->name, cfg->regions[i].name, (unsigned long long)co->image_addr,
			    (unsigned long long)(co->image_addr + co->image_size));
			return -1;
		}
	}
	if (!co->image_size)
		return 0; /* nothing loaded: every such access faults */
	if (!(cfg->image = malloc(co->image_size))) {
		out->message =
		    str_fmt("kernel %s: out of memory for the object's image", kr->k->name);
		return -1;
	}
	memcpy(cfg->image, co->image, co->image_size);
	cfg->image_addr = co->image_addr;
	cfg->image_size = co->image_size;
	return 0;
}

/*
 * The LDS a workgroup has: its static and dynamic bytes rounded up to the block the processor
 * allocates LDS in (isa_arch_lds_granule), so an access past the declared bytes but inside
 * the allocation reads and writes the workgroup's LDS, as on the hardware; one past the
 * allocation is a fault, since what the hardware does there is no rule we can check.
 * MIRAGE_LDS_BOUND=declared faults past the declared bytes instead (docs/emulate.md, "LDS").
 */
static uint32_t lds_allocation(const struct kernel_run *kr)
{
	const char *bound = getenv("MIRAGE_LDS_BOUND");
	int arch = isa_arch_of_e_flags(kr->co->mach);
	uint32_t g = arch < 0 ? 1 : isa_arch_lds_granule((unsigned)arch);

	if (bound && !strcmp(bound, "declared"))
		return kr->lds_bytes;
	return (uint32_t)(((uint64_t)kr->lds_bytes + g - 1) / g * g);
}

static int run_kernel(const struct kernel_run *kr, struct tr_emulate_result *out)
{
	const struct co_kernel *k = kr->k;
	struct raise_result res;
	struct raise_refusal why;
	struct run_config cfg = {0};
	struct run_report rep;
	struct host_jit *jit = NULL;
	uint8_t dispatch[64] __attribute__((aligned(64)));
	LLVMContextRef ctx;
	char msg[512];
	double t0;
	int refused, rc;

	out->exit_code = 1;
	kr->regions[kr->nregions] = (struct run_region){"kernarg", kr->kernarg, k->kernarg_size};
	aql_packet(dispatch, kr->grid, kr->wg, k->private_fixed, kr->lds_bytes, kr->kernarg);
	kr->regions[kr->nregions + 1] =
	    (struct run_region){"dispatch packet", dispatch, sizeof(dispatch)};
	t0 = now_ms();
	ctx = LLVMContextCreate();
	refused = raise_kernel(ctx, kr->co, k, &res, &why);
	if (!refused && host_float_env_check(kr->co, k, &res, &why)) {
		LLVMDisposeModule(res.module);
		refused = 1;
	}
	if (refused) {
		char line[REFUSAL_MAX];
		refusal_format(line, sizeof(line),
		               &(struct refusal){k->name, why.offset, why.mnemonic,
		                                 raise_reason_code(why.reason),
		                                 raise_reason_text(why.reason), why.detail});
		out->message = strdup(line);
		out->hint = strdup("`mirage raise CODE_OBJECT --json` lists every kernel's result");
		LLVMContextDispose(ctx);
		return -1;
	}
	out->instructions = res.instructions;
	out->raise_ms = now_ms() - t0;
	t0 = now_ms();
	LLVMSetValueName2(res.function, ENTRY_NAME, strlen(ENTRY_NAME));
	jit = host_jit_compile(ctx, res.module, ENTRY_NAME, &cfg.entry, msg, sizeof(msg));
	/* ctx is consumed */
	if (!jit) {
		out->message = str_fmt("kernel %s: %s", k->name, msg);
		return -1;
	}
	out->jit_ms = now_ms() - t0;
	memcpy(cfg.grid, kr->grid, sizeof(cfg.grid));
	memcpy(cfg.wg, kr->wg, sizeof(cfg.wg));
	cfg.kernarg = kr->kernarg;
	cfg.kernarg_size = k->kernarg_size;
	cfg.lds_declared = kr->lds_bytes;
	cfg.lds_bytes = lds_allocation(kr);
	cfg.scratch_bytes = res.scratch_bytes;
	cfg.wave = res.wave_size;
	cfg.regions = kr->regions;
	cfg.nregions = kr->nregions + 2;
	cfg.dispatch = dispatch;
	cfg.shuffle = kr->shuffle;
	cfg.seed = kr->seed;
	cfg.progress = kr->progress;
	cfg.progress_ctx = kr->progress_ctx;
	if (res.reads_image && image_for(kr, &cfg, out) < 0) {
		host_jit_free(jit);
		return -1;
	}
	t0 = now_ms();
	rc = runner_run(&cfg, &rep);
	free(cfg.image);
	if (rc) {
		out->message = str_fmt("kernel %s: %s", k->name, rep.message);
		out->fault_offset = rep.fault_offset;
		out->workgroups = rep.workgroups;
		out->waves = rep.waves;
		host_jit_free(jit);
		return -1;
	}
	out->run_ms = now_ms() - t0;
	out->workgroups = rep.workgroups;
	out->waves = rep.waves;
	host_jit_free(jit);
	out->exit_code = 0;
	return 0;
}

/* A kernarg segment of size bytes, 64-byte aligned and zeroed, or NULL. */
static uint8_t *kernarg_alloc(uint32_t size)
{
	size_t bytes = ((size_t)size + 64) & ~(size_t)63;
	uint8_t *p = aligned_alloc(64, bytes);
	if (p)
		memset(p, 0, bytes);
	return p;
}

static int emulate_progress(const char *launch_path, const char *schedule, tr_progress_fn progress,
                            void *progress_ctx, struct tr_emulate_result *out)
{
	struct launch_file *lf = NULL;
	struct code_object *co = NULL;
	const struct co_kernel *k;
	struct kernel_run kr = {0};
	uint8_t **bufs = NULL;
	char *err = NULL, msg[512];
	const char *gfx;
	uint32_t limit;

	memset(out, 0, sizeof(*out));
	out->exit_code = 2;
	if (parse_schedule(schedule, &kr.shuffle, &kr.seed)) {
		out->message = str_fmt(
		    "--schedule: '%s' is neither 'deterministic' nor 'shuffle:SEED'", schedule);
		out->hint = strdup("give --schedule deterministic or --schedule shuffle:42");
		return -1;
	}
	int loaded = launch_file_load(launch_path, &lf, &err);
	if (loaded) {
		/* A file that cannot be read is a failure (1); one that is not a launch file a bad
		 * value (2), as for any file mirage is given to parse. */
		if (loaded != -EINVAL && loaded != -EFBIG)
			out->exit_code = 1;
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
	limit = lds_limit(co, &gfx);
	if (lf->dynamic_lds + k->group_fixed > limit) {
		out->message =
		    str_fmt("%s: dynamic_lds: %u bytes with the kernel's %u static exceed "
		            "%s's %u KiB",
		            launch_path, lf->dynamic_lds, k->group_fixed, gfx, limit / 1024);
		goto done;
	}
	/* Buffers and kernarg before raising: a bad launch file is exit 2 whatever the kernel. */
	bufs = calloc(lf->nbuffers + 1, sizeof(*bufs));
	kr.regions = calloc(lf->nbuffers + 2, sizeof(*kr.regions));
	kr.kernarg = kernarg_alloc(k->kernarg_size);
	if (!bufs || !kr.regions || !kr.kernarg) {
		out->exit_code = 1;
		out->message = strdup("out of memory");
		goto done;
	}
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
		kr.regions[i] =
		    (struct run_region){lf->buffers[i].name, bufs[i], lf->buffers[i].size};
	}
	{
		int rc = kernarg_build(k, lf, bufs, kr.kernarg, msg, sizeof(msg));
		if (rc) {
			out->message = str_fmt("%s: %s", launch_path, msg);
			if (rc == -1)
				out->exit_code = 1;
			goto done;
		}
	}
	kr.co = co;
	kr.k = k;
	memcpy(kr.grid, lf->grid, sizeof(kr.grid));
	memcpy(kr.wg, lf->workgroup, sizeof(kr.wg));
	kr.lds_bytes = k->group_fixed + lf->dynamic_lds;
	kr.nregions = lf->nbuffers;
	kr.progress = progress;
	kr.progress_ctx = progress_ctx;
	if (run_kernel(&kr, out))
		goto done;
	out->exit_code = 1;
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
	for (size_t i = 0; bufs && i < lf->nbuffers; i++)
		free(bufs[i]);
	free(bufs);
	free(kr.regions);
	free(kr.kernarg);
	co_free(co);
	launch_file_free(lf);
	return out->exit_code ? -1 : 0;
}

/* The checks of a dispatch the runner relies on; 0, or -1 with out's message (exit 2). */
static int dispatch_check(const struct tr_dispatch *d, const struct code_object *co,
                          const struct co_kernel *k, struct tr_emulate_result *out)
{
	static const char dims[] = "xyz";
	uint64_t items = 1, wg_items = 1;
	const char *gfx;
	uint32_t limit = lds_limit(co, &gfx);

	if (d->kernarg_size < k->kernarg_size || (!d->kernarg && k->kernarg_size)) {
		out->message =
		    str_fmt("kernarg: %zu bytes given, kernel %s's kernarg segment is %u",
		            d->kernarg ? d->kernarg_size : 0, k->name, k->kernarg_size);
		return -1;
	}
	for (int i = 0; i < 3; i++) {
		if (!d->grid[i] || !d->workgroup[i]) {
			out->message =
			    str_fmt("%s_%c: 0 work-items (every dimension needs at least 1)",
			            d->grid[i] ? "workgroup_size" : "grid_size", dims[i]);
			return -1;
		}
		if (items <= LAUNCH_MAX_WORKITEMS) /* no overflow: at most 2^32 * (2^32 - 1) */
			items *= d->grid[i];
		wg_items *= d->workgroup[i];
	}
	if (wg_items > LAUNCH_MAX_WORKGROUP || items > LAUNCH_MAX_WORKITEMS) {
		out->message = str_fmt(
		    "%s: %llu work-items, more than the %llu a dispatch may have",
		    wg_items > LAUNCH_MAX_WORKGROUP ? "workgroup_size" : "grid_size",
		    (unsigned long long)(wg_items > LAUNCH_MAX_WORKGROUP ? wg_items : items),
		    (unsigned long long)(wg_items > LAUNCH_MAX_WORKGROUP ? LAUNCH_MAX_WORKGROUP
		                                                         : LAUNCH_MAX_WORKITEMS));
		return -1;
	}
	if (d->group_segment_size < k->group_fixed || d->group_segment_size > limit) {
		out->message = str_fmt("group_segment_size: %u bytes, kernel %s needs %u to %u "
		                       "(its static LDS to %s's %u KiB)",
		                       d->group_segment_size, k->name, k->group_fixed, limit, gfx,
		                       limit / 1024);
		return -1;
	}
	for (size_t i = 0; i < d->nregions; i++) {
		uint64_t a = (uint64_t)(uintptr_t)d->regions[i].base, n = d->regions[i].size;
		if (!a || !n || a + n < a) {
			out->message =
			    str_fmt("regions[%zu]: 0x%llx, %llu bytes is not a memory range", i,
			            (unsigned long long)a, (unsigned long long)n);
			return -1;
		}
		for (size_t j = 0; j < i; j++) {
			uint64_t b = (uint64_t)(uintptr_t)d->regions[j].base,
			         m = d->regions[j].size;
			if (a < b + m && b < a + n) {
				out->message =
				    str_fmt("regions[%zu] (0x%llx, %llu bytes) overlaps "
				            "regions[%zu] (0x%llx, "
				            "%llu bytes)",
				            i, (unsigned long long)a, (unsigned long long)n, j,
				            (unsigned long long)b, (unsigned long long)m);
				return -1;
			}
		}
	}
	return 0;
}

static int dispatch(const struct tr_dispatch *d, struct tr_emulate_result *out)
{
	struct code_object *co = NULL;
	const struct co_kernel *k;
	struct kernel_run kr = {0};
	char *err = NULL;

	memset(out, 0, sizeof(*out));
	out->exit_code = 2;
	if (d->kernel)
		out->kernel = strdup(d->kernel);
	if (parse_schedule(d->schedule, &kr.shuffle, &kr.seed)) {
		out->message = str_fmt(
		    "schedule: '%s' is neither 'deterministic' nor 'shuffle:SEED'", d->schedule);
		return -1;
	}
	if (!d->code || !d->code_size) {
		out->message = strdup("code: no code object given");
		return -1;
	}
	if (co_load_memory(d->code, d->code_size, "the dispatched code object", &co, &err)) {
		out->message = err;
		return -1;
	}
	k = d->kernel ? co_find_kernel(co, d->kernel) : NULL;
	if (!k) {
		out->message = str_fmt("kernel: '%s' is not a kernel of the dispatched code object",
		                       d->kernel ? d->kernel : "(none)");
		goto done;
	}
	if (dispatch_check(d, co, k, out))
		goto done;
	kr.regions = calloc(d->nregions + 2, sizeof(*kr.regions));
	kr.kernarg = kernarg_alloc(k->kernarg_size);
	if (!kr.regions || !kr.kernarg) {
		out->exit_code = 1;
		out->message = strdup("out of memory");
		goto done;
	}
	/* The kernel reads a private copy: the client's kernarg memory is one of its regions. */
	if (k->kernarg_size)
		memcpy(kr.kernarg, d->kernarg, k->kernarg_size);
	for (size_t i = 0; i < d->nregions; i++)
		kr.regions[i] =
		    (struct run_region){"region", d->regions[i].base, d->regions[i].size};
	kr.co = co;
	kr.k = k;
	memcpy(kr.grid, d->grid, sizeof(kr.grid));
	memcpy(kr.wg, d->workgroup, sizeof(kr.wg));
	kr.lds_bytes = d->group_segment_size;
	kr.nregions = d->nregions;
	run_kernel(&kr, out);
done:
	free(kr.regions);
	free(kr.kernarg);
	co_free(co);
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
	return amdgcn_translate(code, size, target, NULL, NULL, out);
}

static int translate_object_progress(const void *code, size_t size, const char *target,
                                     tr_progress_fn progress, void *ctx, struct tr_translation *out)
{
	return amdgcn_translate(code, size, target, progress, ctx, out);
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

static int emulate(const char *launch_path, const char *schedule, struct tr_emulate_result *out)
{
	return emulate_progress(launch_path, schedule, NULL, NULL, out);
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
	    .dispatch = dispatch,
	    .translate_object_progress = translate_object_progress,
	    .emulate_progress = emulate_progress,
	};
	return &api;
}
