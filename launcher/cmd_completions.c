/* `mirage completions bash|zsh|fish` prints a completion script; hidden `mirage __complete` feeds
 * it. */
#include "command.h"
#include "complete.h"
#include "msg.h"
#include "output.h"

#include "strbuf.h"
#include "strvec.h"

#include <stdio.h>
#include <string.h>

static int completions_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *name = a->positional.v[0];
	int shell = comp_shell_from_name(name);
	struct strbuf script = STRBUF_INIT;

	if (shell < 0) {
		struct strbuf names = STRBUF_INIT;
		for (size_t i = 0; comp_shell_names[i]; i++)
			strbuf_addf(&names, "%s%s", i ? ", " : "", comp_shell_names[i]);
		usage_error("unknown shell '%.48s'", name);
		hint("choose one of: %s", names.buf);
		strbuf_release(&names);
		return EXIT_USAGE;
	}
	comp_generate((enum comp_shell)shell, &script);
	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "shell", name);
		cJSON_AddStringToObject(doc, "script", script.buf);
		output_json(doc);
	} else {
		fwrite(script.buf, 1, script.len, stdout);
	}
	strbuf_release(&script);
	return EXIT_OK;
}

/*
 * Runs on every TAB, so it must stay cheap: it reads the profile directory
 * and the static gfx table, and never loads LLVM or scans GPUs.
 */
static int complete_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct strvec out = STRVEC_INIT;
	const char *which = a->positional.nr > 1 ? a->positional.v[1] : NULL;

	if (comp_candidates(a->positional.v[0], which, &out) < 0) {
		strvec_clear(&out);
		usage_error("unknown completion kind '%.48s%s%.48s'", a->positional.v[0],
		            which ? " " : "", which ? which : "");
		hint("kinds: profiles, emulators, shells, gfx [sources|targets]");
		return EXIT_USAGE;
	}
	if (ctx->json) {
		cJSON *doc = cJSON_CreateArray();
		for (size_t i = 0; i < out.nr; i++)
			cJSON_AddItemToArray(doc, cJSON_CreateString(out.v[i]));
		output_json(doc);
	} else {
		for (size_t i = 0; i < out.nr; i++)
			printf("%s\n", out.v[i]);
	}
	strvec_clear(&out);
	return EXIT_OK;
}

const struct cmd_entry cmd_completions_entry = {
    .name = "completions",
    .summary = "print a shell completion script (see the README to enable it)",
    .usage = "bash|zsh|fish",
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_SHELL,
    .exec = completions_exec,
};

const struct cmd_entry cmd_complete_entry = {
    .name = "__complete",
    .summary = "print completion candidates, one per line (used by the completion scripts)",
    .usage = "KIND [WHICH]",
    .min_args = 1,
    .max_args = 2,
    .arg_kind = ARG_WORD,
    .flags = CMD_HIDDEN,
    .exec = complete_exec,
};
