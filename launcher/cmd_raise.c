/* `mirage raise` and `mirage emulate`: the translator from the shell (libmirage_translate.so). */
#include "command.h"
#include "msg.h"
#include "output.h"
#include "progress.h"

#include "atomic_file.h"
#include "emulate_init.h"
#include "refusal.h"
#include "strbuf.h"
#include "translate_dl.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const binding_choices[] = {"host", NULL};

enum raise_opt {
	RAISE_KERNEL,
	RAISE_BINDING,
	RAISE_OUTPUT,
	RAISE_NOPTS
};
static const struct opt_spec raise_opts[RAISE_NOPTS + 1] = {
    [RAISE_KERNEL] = {.name = "kernel",
                      .type = OPT_STRING,
                      .arg_name = "K",
                      .help = "raise only kernel K"},
    [RAISE_BINDING] = {.name = "binding",
                       .type = OPT_ENUM,
                       .choices = binding_choices,
                       .help = "bind the hooks for a target and optimise (host: the CPU runner)"},
    [RAISE_OUTPUT] = {.name = "output",
                      .short_name = 'o',
                      .type = OPT_PATH,
                      .arg_name = "FILE.ll",
                      .help = "write the IR to FILE.ll instead of stdout"},
};

enum emulate_opt {
	EMULATE_SCHEDULE,
	EMULATE_INIT,
	EMULATE_KERNEL,
	EMULATE_OUTPUT,
	EMULATE_NOPTS
};
static const struct opt_spec emulate_opts[EMULATE_NOPTS + 1] = {
    [EMULATE_SCHEDULE] = {.name = "schedule",
                          .type = OPT_STRING,
                          .arg_name = "deterministic|shuffle:SEED",
                          .values = OV_SCHEDULES,
                          .help = "the order of waves and lanes between rendezvous (default "
                                  "deterministic)"},
    [EMULATE_INIT] = {.name = "init",
                      .type = OPT_BOOL,
                      .help = "write a launch file for a kernel of the CODE_OBJECT given instead, "
                              "from its metadata, ready to edit and run"},
    [EMULATE_KERNEL] = {.name = "kernel",
                        .type = OPT_STRING,
                        .arg_name = "K",
                        .help = "with --init: the kernel (needed when the object has several)"},
    [EMULATE_OUTPUT] = {.name = "output",
                        .short_name = 'o',
                        .type = OPT_PATH,
                        .arg_name = "LAUNCH.json",
                        .help = "with --init: the file to write (default K.launch.json)"},
};

static const struct translate_api *load_api(const struct cmd_ctx *ctx)
{
	struct diag err = DIAG_INIT;
	const struct translate_api *api = translate_dl_load(ctx->self_exe, &err);
	if (!api)
		report_diag(&err, -1);
	return api;
}

static struct refusal refusal_of(const struct tr_kernel *k)
{
	return (struct refusal){k->name,   k->offset,      k->mnemonic,
	                        k->reason, k->reason_text, k->detail};
}

static cJSON *kernel_json(const struct tr_kernel *k)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kernel", k->name);
	cJSON_AddBoolToObject(o, "raised", k->raised);
	cJSON_AddNumberToObject(o, "instructions", (double)k->instructions);
	if (!k->raised) {
		struct refusal r = refusal_of(k);
		refusal_json(o, &r);
	}
	return o;
}

static void print_refusal(const char *co, const struct tr_kernel *k)
{
	char line[REFUSAL_MAX];
	struct refusal r = refusal_of(k);

	refusal_format(line, sizeof(line), &r);
	error("%s: %s", co, line);
}

static int raise_exec(const struct cmd_ctx *ctx, struct cmd_args *args)
{
	const char *co = args->positional.v[0], *out = args_str(args, RAISE_OUTPUT);
	const char *binding = args_str(args, RAISE_BINDING);
	const struct translate_api *api = load_api(ctx);
	struct tr_raise_report rep;
	size_t raised = 0;
	int rc = 0;

	if (!api)
		return EXIT_ERROR;
	api->raise_object(co, args_str(args, RAISE_KERNEL),
	                  binding && !strcmp(binding, "host") ? TR_BINDING_HOST : TR_BINDING_NONE,
	                  !ctx->json, &rep);
	if (rep.error) {
		error("%s", rep.error);
		if (rep.hint)
			hint("%s", rep.hint);
		api->raise_report_free(&rep);
		return EXIT_ERROR;
	}
	for (size_t i = 0; i < rep.nkernels; i++)
		raised += rep.kernels[i].raised != 0;
	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject(), *arr = cJSON_AddArrayToObject(doc, "kernels");
		cJSON_AddStringToObject(doc, "code_object", co);
		for (size_t i = 0; i < rep.nkernels; i++)
			cJSON_AddItemToArray(arr, kernel_json(&rep.kernels[i]));
		cJSON_AddNumberToObject(doc, "raised", (double)raised);
		cJSON_AddNumberToObject(doc, "refused", (double)(rep.nkernels - raised));
		output_json(doc);
	} else {
		struct strbuf ir = STRBUF_INIT;
		for (size_t i = 0; i < rep.nkernels; i++) {
			if (rep.kernels[i].raised)
				strbuf_addstr(&ir, rep.kernels[i].ir ? rep.kernels[i].ir : "");
			else
				print_refusal(co, &rep.kernels[i]);
		}
		if (out) {
			if (atomic_write_file(out, ir.buf ? ir.buf : "", ir.len, 0666,
			                      ATOMIC_REPLACE)) {
				rc = error_errno("cannot write '%s'", out);
			}
		} else if (ir.len) {
			fwrite(ir.buf, 1, ir.len, stdout);
		}
		strbuf_release(&ir);
	}
	if (raised != rep.nkernels && !rc) {
		if (!ctx->json)
			hint("`mirage raise %s --json` gives every kernel's result", co);
		rc = -1;
	}
	api->raise_report_free(&rep);
	return rc ? EXIT_ERROR : EXIT_OK;
}

static int emulate_exec(const struct cmd_ctx *ctx, struct cmd_args *args)
{
	const struct translate_api *api = args_bool(args, EMULATE_INIT) ? NULL : load_api(ctx);
	struct tr_emulate_result res;
	int code;

	if (args_bool(args, EMULATE_INIT)) {
		if (args_has(args, EMULATE_SCHEDULE))
			return usage_error("--schedule goes with a launch file, not with --init");
		return emulate_init(ctx, args->positional.v[0], args_str(args, EMULATE_KERNEL),
		                    args_str(args, EMULATE_OUTPUT));
	}
	if (args_has(args, EMULATE_KERNEL) || args_has(args, EMULATE_OUTPUT))
		return usage_error("--%s goes with --init CODE_OBJECT",
		                   args_has(args, EMULATE_KERNEL) ? "kernel" : "output");
	if (!api)
		return EXIT_ERROR;
	/* A long run on a terminal says how far it is, workgroup by workgroup. */
	struct count_meter meter;
	count_meter_start(&meter, "emulating", "workgroup", NULL);
	if (progress_wanted(ctx->json) && api->emulate_progress)
		api->emulate_progress(args->positional.v[0], args_str(args, EMULATE_SCHEDULE),
		                      count_meter_step, &meter, &res);
	else
		api->emulate(args->positional.v[0], args_str(args, EMULATE_SCHEDULE), &res);
	count_meter_end(&meter);
	code = res.exit_code;
	if (code) {
		error("%s", res.message ? res.message : "emulation failed");
		if (res.hint)
			hint("%s", res.hint);
		else if (code == 2)
			hint("the launch-file format is in docs/emulate.md");
	} else if (ctx->json) {
		cJSON *doc = cJSON_CreateObject(), *outs;
		cJSON_AddStringToObject(doc, "kernel", res.kernel);
		cJSON_AddNumberToObject(doc, "workgroups", (double)res.workgroups);
		cJSON_AddNumberToObject(doc, "waves", (double)res.waves);
		cJSON_AddNumberToObject(doc, "instructions_raised", (double)res.instructions);
		cJSON_AddNumberToObject(doc, "raise_ms", res.raise_ms);
		cJSON_AddNumberToObject(doc, "jit_ms", res.jit_ms);
		cJSON_AddNumberToObject(doc, "run_ms", res.run_ms);
		outs = cJSON_AddArrayToObject(doc, "outputs");
		for (size_t i = 0; i < res.noutputs; i++)
			cJSON_AddItemToArray(outs, cJSON_CreateString(res.outputs[i]));
		output_json(doc);
	} else {
		note("%s: %llu workgroups, %llu waves, %zu instructions raised", res.kernel,
		     (unsigned long long)res.workgroups, (unsigned long long)res.waves,
		     res.instructions);
		/* What the run leaves behind, so nobody has to look for it. */
		for (size_t i = 0; i < res.noutputs; i++)
			inform("wrote %s", res.outputs[i]);
	}
	api->emulate_result_free(&res);
	return code;
}

const struct cmd_entry cmd_raise_entry = {
    .name = "raise",
    .summary =
        "raise a gfx1250/gfx942/gfx950 code object's kernels to LLVM IR (or list the refusals)",
    .usage = "CODE_OBJECT",
    .opts = raise_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_FILE,
    .exec = raise_exec,
};

const struct cmd_entry cmd_emulate_entry = {
    .name = "emulate",
    .summary = "run one gfx1250/gfx942/gfx950 kernel on the CPU from a launch file, no GPU needed",
    .usage = "LAUNCH.json | --init CODE_OBJECT [--kernel K] [-o LAUNCH.json]",
    .opts = emulate_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_FILE,
    .exec = emulate_exec,
};
