/* `mirage emulators [-l]`: the backends a profile can name, whether each is installed and usable
 * here. */
#include "command.h"
#include "msg.h"
#include "output.h"

#include "hotswap_tree.h"
#include "kfd.h"
#include "profile.h"
#include "profile_validate.h"
#include "target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The rows of the option table (at the end of the file). */
enum emulators_opt {
	EMULATORS_LONG,
	EMULATORS_NOPTS
};

struct backend_status {
	const char *name;
	struct strbuf description;
	bool is_default;
	bool installed;
	bool supported;
	struct strbuf reason; /* why supported or not */
};

/*
 * Whether hotswap works here: its tree is complete.  A GPU decides only what `--target auto`
 * picks; with none, a profile that names its target still runs, and rewrite, raise and
 * emulate work offline, so "no GPU" is said in the reason, not as "not supported".
 */
static void hotswap_support(struct backend_status *b, const struct hotswap_tree *tree,
                            const char *source)
{
	struct kfd_gpus gpus = KFD_GPUS_INIT;
	struct target_choice choice;
	struct strbuf why_not = STRBUF_INIT;
	struct target_request req = {
	    .profile_target = "auto",
	    .isa_override = getenv(HOTSWAP_ENV_ISA_OVERRIDE),
	    .source_target = profile_keys[PK_SOURCE_TARGET].def,
	};

	b->supported = tree->complete;
	if (!b->supported) {
		strbuf_addstr(&b->reason, tree->found ? "the HotSwap tree is incomplete"
		                                      : "no HotSwap tree found");
		strbuf_addstr(&b->reason, ": `mirage emulators -l` and `mirage doctor` say more");
		return;
	}
	kfd_scan(NULL, &gpus);
	if (!target_resolve(&req, &gpus, &choice, &why_not, NULL)) {
		strbuf_addf(&b->reason, "target %s from %s", choice.gfx, choice.origin_text);
	} else {
		strbuf_addstr(&b->reason, "for a profile that names its target: ");
		target_supported_list(source, &b->reason);
		strbuf_addf(&b->reason,
		            "; rewrite and emulate offline; --target auto finds none: %s",
		            why_not.buf);
	}
	strbuf_release(&why_not);
	kfd_gpus_release(&gpus);
}

static void add_runtime_json(cJSON *o, const struct hotswap_tree *tree)
{
	cJSON *rt = cJSON_AddObjectToObject(o, "runtime");
	if (tree->found) {
		cJSON_AddStringToObject(rt, "state", tree->complete ? "found" : "incomplete");
		cJSON_AddStringToObject(rt, "path", tree->root);
		cJSON_AddStringToObject(rt, "found_by", tree->found_by);
		cJSON_AddStringToObject(rt, "flavour", hotswap_flavour_name(tree->flavour));
		cJSON *parts = cJSON_AddArrayToObject(rt, "parts");
		for (size_t i = 0; i < tree->nparts; i++) {
			cJSON *p = cJSON_CreateObject();
			cJSON_AddStringToObject(p, "name", tree->parts[i].name);
			cJSON_AddStringToObject(p, "path", tree->parts[i].path);
			cJSON_AddStringToObject(p, "status",
			                        hotswap_part_status_name(tree->parts[i].status));
			cJSON_AddBoolToObject(p, "required", tree->parts[i].required);
			if (tree->parts[i].detail)
				cJSON_AddStringToObject(p, "detail", tree->parts[i].detail);
			cJSON_AddItemToArray(parts, p);
		}
		return;
	}
	cJSON_AddStringToObject(rt, "state", "missing");
	cJSON_AddStringToObject(rt, "lib_name", HOTSWAP_INTERCEPT_LIB);
	struct strbuf what = STRBUF_INIT, fix = STRBUF_INIT;
	hotswap_format_not_found_line(tree, &what, &fix);
	cJSON_AddStringToObject(rt, "problem", what.buf);
	cJSON_AddStringToObject(rt, "fix", fix.buf);
	strbuf_release(&what);
	strbuf_release(&fix);
	cJSON *searched = cJSON_AddArrayToObject(rt, "searched");
	for (size_t i = 0; i < tree->nprobes; i++) {
		cJSON *p = cJSON_CreateObject();
		cJSON_AddStringToObject(p, "path", tree->probes[i].path);
		cJSON_AddStringToObject(p, "reason", tree->probes[i].reason);
		cJSON_AddItemToArray(searched, p);
	}
	cJSON *env = cJSON_AddArrayToObject(rt, "env");
	cJSON *e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "name", HOTSWAP_ENV_HOME);
	cJSON_AddStringToObject(e, "expects", "root");
	cJSON_AddItemToArray(env, e);
}

static void print_long_runtime(const struct hotswap_tree *tree)
{
	if (tree->found) {
		print_text("  runtime:   %s (%s flavour, found through %s)\n", tree->root,
		           hotswap_flavour_name(tree->flavour), tree->found_by);
		for (size_t i = 0; i < tree->nparts; i++) {
			const struct hotswap_part *p = &tree->parts[i];
			if (p->status == PART_OK)
				continue;
			print_text("  %-10s %s: %s%s%s\n",
			           p->required ? "broken:" : "warning:", p->name,
			           hotswap_part_status_name(p->status), p->detail ? ", " : "",
			           p->detail ? p->detail : "");
		}
		return;
	}
	print_text("  runtime:   not found (%s)\n", HOTSWAP_INTERCEPT_LIB);
	struct strvec rows = STRVEC_INIT;
	probe_rows(tree, &rows);
	for (size_t i = 0; i < rows.nr; i++)
		print_text("  %-10s %s\n", i ? "" : "searched:", rows.v[i]);
	strvec_clear(&rows);
	if (tree->pinned) {
		/* HOTSWAP_HOME alone decided: say what it lacks, as doctor and run do. */
		struct strbuf what = STRBUF_INIT, fix = STRBUF_INIT;
		hotswap_format_not_found_line(tree, &what, &fix);
		print_text("  problem:   %s\n  fix:       %s\n", what.buf, fix.buf);
		strbuf_release(&what);
		strbuf_release(&fix);
		return;
	}
	print_text("  set:       " HOTSWAP_ENV_HOME "=<tree root, with " HOTSWAP_TREE_LIB_DIR
	           "/%s under it>\n",
	           HOTSWAP_INTERCEPT_LIB);
}

static int emulators_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
	bool lng = args_bool(a, EMULATORS_LONG);
	const char *def = profile_keys[PK_EMULATOR].def;
	struct backend_status b[] = {{.name = "hotswap"}, {.name = "native"}};
	const size_t n = sizeof(b) / sizeof(b[0]);
	char source[32];

	hotswap_discover(&(struct discover_opts){.self_exe = ctx->self_exe}, &tree);
	for (size_t i = 0; i < n; i++) {
		strbuf_init(&b[i].reason, 0);
		strbuf_init(&b[i].description, 0);
		b[i].is_default = !strcmp(b[i].name, def);
	}
	/* The target list comes from the gfx table, so the text cannot drift from what runs. */
	target_source_gfx(profile_keys[PK_SOURCE_TARGET].def, source, sizeof(source));
	strbuf_addf(&b[0].description, "load-time ISA rewriter: runs %s code on ", source);
	target_supported_list(source, &b[0].description);
	strbuf_addstr(&b[1].description,
	              "no rewrite: runs the workload as built, for A/B comparisons");
	b[0].installed = tree.complete;
	hotswap_support(&b[0], &tree, source);
	b[1].installed = true;
	b[1].supported = true;
	strbuf_addstr(&b[1].reason, "runs on any host");

	if (ctx->json) {
		cJSON *doc = cJSON_CreateArray();
		for (size_t i = 0; i < n; i++) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "name", b[i].name);
			cJSON_AddStringToObject(o, "description", b[i].description.buf);
			cJSON_AddBoolToObject(o, "default", b[i].is_default);
			cJSON_AddBoolToObject(o, "installed", b[i].installed);
			cJSON *s = cJSON_AddObjectToObject(o, "support");
			cJSON_AddBoolToObject(s, "supported", b[i].supported);
			cJSON_AddStringToObject(s, "reason", b[i].reason.buf);
			if (i == 0)
				add_runtime_json(o, &tree);
			else
				cJSON_AddStringToObject(cJSON_AddObjectToObject(o, "runtime"),
				                        "state", "unknown");
			cJSON_AddItemToArray(doc, o);
		}
		output_json(doc);
	} else if (!lng) {
		print_text("%-13s %-10s %-10s %s\n", "NAME", "INSTALLED", "SUPPORTED",
		           "DESCRIPTION");
		for (size_t i = 0; i < n; i++) {
			char name[32];
			snprintf(name, sizeof(name), "%s%s", b[i].name, b[i].is_default ? "*" : "");
			print_text("%-13s %-10s %-10s %s\n", name, b[i].installed ? "yes" : "no",
			           b[i].supported ? "yes" : "no", b[i].description.buf);
		}
		print_text("\n* = default emulator for new profiles\n");
	} else {
		for (size_t i = 0; i < n; i++) {
			print_text("%s%s\n  %s\n", b[i].name, b[i].is_default ? " (default)" : "",
			           b[i].description.buf);
			print_text("  installed: %s\n", b[i].installed ? "yes" : "no");
			if (i == 0)
				print_long_runtime(&tree);
			print_text("  supported: %s (%s)\n\n", b[i].supported ? "yes" : "no",
			           b[i].reason.buf);
		}
	}
	for (size_t i = 0; i < n; i++) {
		strbuf_release(&b[i].reason);
		strbuf_release(&b[i].description);
	}
	hotswap_tree_release(&tree);
	return EXIT_OK;
}

static const struct opt_spec emulators_opts[EMULATORS_NOPTS + 1] = {
    [EMULATORS_LONG] = {.name = "long",
                        .short_name = 'l',
                        .type = OPT_BOOL,
                        .help = "show where each runtime is, or every place mirage looked"},
};

const struct cmd_entry cmd_emulators_entry = {
    .name = "emulators",
    .summary = "list the backends a profile can use and whether they work here",
    .opts = emulators_opts,
    .exec = emulators_exec,
};
