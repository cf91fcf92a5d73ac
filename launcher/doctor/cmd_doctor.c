/* `mirage doctor [--profile NAME]`: checks everything a HotSwap run depends on, one line per check.
 */
#include "command.h"
#include "env_contract.h"
#include "msg.h"
#include "output.h"

#include "config_paths.h"
#include "gfx_table.h"
#include "hotswap_tree.h"
#include "kfd.h"
#include "profile.h"
#include "profile_store.h"
#include "profile_validate.h"
#include "run_command.h"
#include "selftest.h"
#include "target.h"
#include "xdg_dir.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The rows of the option table (at the end of the file). */
enum doctor_opt {
	DOCTOR_PROFILE,
	DOCTOR_NOPTS
};

extern char **environ;

enum check_status {
	CHECK_OK,
	CHECK_WARN,
	CHECK_FAIL,
};

struct doctor {
	bool json;
	bool colour;
	cJSON *checks; /* --json: the array of check objects */
	cJSON *last;   /* the check details attach to */
	int counts[3];
};

static const char *const status_text[] = {"ok", "warn", "FAIL"};
static const char *const status_json[] = {"ok", "warn", "fail"};

/* One check: a status, a one-line message, and for anything not ok the fix. */
MSG_PRINTF(5, 6)
static void check(struct doctor *d, enum check_status st, const char *name, const char *fix,
                  const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	d->counts[st]++;
	if (d->json) {
		d->last = cJSON_CreateObject();
		cJSON_AddStringToObject(d->last, "check", name);
		cJSON_AddStringToObject(d->last, "status", status_json[st]);
		cJSON_AddStringToObject(d->last, "message", msg.buf);
		if (fix && st != CHECK_OK)
			cJSON_AddStringToObject(d->last, "fix", fix);
		cJSON_AddItemToArray(d->checks, d->last);
	} else {
		const char *c = !d->colour         ? ""
		                : st == CHECK_OK   ? color_ok()
		                : st == CHECK_WARN ? color_warn()
		                                   : color_fail();
		/* The colour is ours; the message may quote a path or a name, so it is escaped. */
		printf("%s%-4s%s  ", c, status_text[st], d->colour ? color_reset() : "");
		print_text("%s\n", msg.buf);
		if (fix && st != CHECK_OK)
			print_text("      fix: %s\n", fix);
	}
	strbuf_release(&msg);
}

/* A detail line under the last check (a probed location, a GPU property). */
MSG_PRINTF(2, 3)
static void detail(struct doctor *d, const char *fmt, ...)
{
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (d->json) {
		cJSON *arr = cJSON_GetObjectItem(d->last, "details");
		if (!arr)
			arr = cJSON_AddArrayToObject(d->last, "details");
		cJSON_AddItemToArray(arr, cJSON_CreateString(msg.buf));
	} else {
		print_text("      %s\n", msg.buf);
	}
	strbuf_release(&msg);
}

/* ---- config and profiles ---- */

static void check_profile(struct doctor *d, const char *name, struct profile *p, bool *loaded)
{
	struct diag err = DIAG_INIT;
	char *id = xstrfmt("profile:%s", name);
	*loaded = !profile_load_typed(name, p, &err);
	if (!*loaded)
		profile_release(p);
	if (*loaded)
		check(d, CHECK_OK, id, NULL, "profile '%s' parses (emulator %s)", p->name,
		      p->values[PK_EMULATOR]);
	else
		check(d, CHECK_FAIL, id,
		      err.hint.len ? err.hint.buf
		                   : "fix the file, or delete it with `mirage profile delete`",
		      "profile '%s': %s", name, err.msg.buf);
	free(id);
	diag_release(&err);
}

/*
 * A relative XDG_*_HOME is ignored (xdg_dir.h has the rule), so the config, the installed
 * trees or the cache are not where its user thinks: say so, once per variable.
 */
static void check_xdg(struct doctor *d)
{
	static const struct {
		const char *var, *fallback; /* what the XDG rule puts in its place */
	} vars[] = {{"XDG_CONFIG_HOME", "~/.config"},
	            {"XDG_DATA_HOME", "~/.local/share"},
	            {"XDG_CACHE_HOME", "~/.cache"}};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i].var);
		char *id, *fix;
		if (!v || !*v || xdg_base_dir(vars[i].var))
			continue;
		id = xstrfmt("xdg:%s", vars[i].var);
		fix = xstrfmt("set %s to an absolute path, or unset it", vars[i].var);
		check(d, CHECK_WARN, id, fix,
		      "%s='%s' is not an absolute path, so mirage and HotSwap ignore it (the XDG "
		      "Base Directory rule) and use %s",
		      vars[i].var, v, vars[i].fallback);
		free(fix);
		free(id);
	}
}

/* Checks the config dir and loads each profile (or only `only`); returns the loaded ones. */
static size_t check_config(struct doctor *d, const char *only, struct profile **out)
{
	char *dir = mirage_config_dir();
	struct strvec names = STRVEC_INIT;
	struct diag err = DIAG_INIT;
	struct stat st;
	size_t n = 0;

	if (!stat(dir, &st) && !S_ISDIR(st.st_mode))
		check(d, CHECK_FAIL, "config",
		      "remove it, or point " MIRAGE_ENV_CONFIG " at a directory",
		      "config '%s' (from %s) is not a directory", dir, mirage_config_dir_source());
	else if (stat(dir, &st))
		check(d, CHECK_OK, "config", NULL, "config dir '%s' (from %s) does not exist yet",
		      dir, mirage_config_dir_source());
	else
		check(d, CHECK_OK, "config", NULL, "config dir '%s' (from %s)", dir,
		      mirage_config_dir_source());

	if (only)
		strvec_push(&names, only);
	else if (profile_list(&names, &err) < 0)
		check(d, CHECK_FAIL, "profiles", "check the directory's permissions", "%s",
		      err.msg.buf);
	else if (!names.nr)
		check(d, CHECK_OK, "profiles", NULL,
		      "no profiles yet (`mirage profile create NAME --emulator hotswap`)");

	*out = xcalloc(names.nr + 1, sizeof(**out));
	for (size_t i = 0; i < names.nr; i++) {
		bool loaded;
		check_profile(d, names.v[i], &(*out)[n], &loaded);
		if (loaded)
			n++;
	}
	strvec_clear(&names);
	diag_release(&err);
	free(dir);
	return n;
}

/* ---- discovery and the tree ---- */

static void check_discovery(struct doctor *d, const struct hotswap_tree *tree)
{
	if (tree->found) {
		check(d, CHECK_OK, "discovery", NULL, "HotSwap tree found at '%s' (through %s)",
		      tree->root, tree->found_by);
	} else {
		/* Discovery words the verdict, so doctor says what profile create and run say. */
		struct strbuf what = STRBUF_INIT, fix = STRBUF_INIT;
		hotswap_format_not_found_line(tree, &what, &fix);
		check(d, CHECK_FAIL, "discovery", fix.buf, "%s", what.buf);
		strbuf_release(&what);
		strbuf_release(&fix);
	}
	if (d->json) {
		/* A program reads fields, not the text view's columns. */
		for (size_t i = 0; i < tree->nprobes; i++)
			detail(d, "%s %s (%s)", tree->probes[i].exists ? "found" : "nothing",
			       tree->probes[i].path, tree->probes[i].reason);
		return;
	}
	struct strvec rows = STRVEC_INIT;
	probe_rows(tree, &rows);
	for (size_t i = 0; i < rows.nr; i++)
		detail(d, "%s %s", tree->probes[i].exists ? "found  " : "nothing", rows.v[i]);
	strvec_clear(&rows);
}

static const char *part_fix(enum hotswap_part_status st)
{
	switch (st) {
	case PART_MISSING:
		return "stage the full tree (cmake --build build) or reinstall it";
	case PART_NOT_ELF:
		return "replace it with the real library: this file is not an ELF shared object";
	case PART_WRONG_MACHINE:
		return "install a tree built for this machine";
	case PART_MISSING_SYMBOL:
		return "this is not the library HotSwap expects: rebuild or reinstall the tree";
	case PART_NOT_EXECUTABLE:
		return "chmod +x it, or reinstall the tree";
	case PART_OK:
		break;
	}
	return NULL;
}

static void check_tree(struct doctor *d, const struct hotswap_tree *tree)
{
	if (!tree->found)
		return;
	if (tree->complete)
		check(d, CHECK_OK, "tree", NULL, "%s tree, complete",
		      hotswap_flavour_name(tree->flavour));
	else
		check(d, CHECK_FAIL, "tree",
		      "stage or reinstall the complete tree, or point " HOTSWAP_ENV_HOME " at one",
		      "the tree is incomplete; it looks like %s",
		      tree->flavour == HOTSWAP_FLAVOUR_NONE ? "neither flavour (only the intercept)"
		      : tree->flavour == HOTSWAP_FLAVOUR_NATIVE ? "a native tree"
		                                                : "a reference tree");
	for (size_t i = 0; i < tree->nparts; i++) {
		const struct hotswap_part *p = &tree->parts[i];
		if (!p->required)
			continue;
		char *id = xstrfmt("part:%s", p->name);
		if (p->status == PART_OK)
			check(d, CHECK_OK, id, NULL,
			      "%s: ELF shared object for this machine, exports %s", p->name,
			      p->symbol);
		else
			check(d, CHECK_FAIL, id, part_fix(p->status), "%s: %s, %s ('%s')", p->name,
			      hotswap_part_status_name(p->status), p->detail, p->path);
		free(id);
	}
}

/* The same check `run` and `profile create` make: the tree's paths survive their variables. */
static void check_paths(struct doctor *d, const struct hotswap_tree *tree)
{
	struct diag err = DIAG_INIT;
	if (!tree->complete)
		return;
	if (contract_check_paths(tree, &err) < 0)
		check(d, CHECK_FAIL, "paths", err.hint.buf, "%s", err.msg.buf);
	else
		check(d, CHECK_OK, "paths", NULL,
		      "the tree's paths can go into " HOTSWAP_ENV_PRELOAD
		      ", " HOTSWAP_ENV_LIBRARY_PATH ", " HOTSWAP_ENV_PYTHONPATH
		      " and " HOTSWAP_ENV_TOOLS_LIB " unsplit");
	diag_release(&err);
}

/* How long `TOOL --version` may take before the tool is killed instead of hanging doctor. */
#define TOOL_VERSION_TIMEOUT_MS 10000

/* Runs `tool --version` and returns its first line that mentions a version. */
static int tool_version(const char *path, bool lld_driver, struct strbuf *out)
{
	/* Plain `lld` is a generic driver that refuses to run without a flavour. */
	char *const lld_argv[] = {(char *)path, "-flavor", "gnu", "--version", NULL};
	char *const tool_argv[] = {(char *)path, "--version", NULL};
	struct run_spec spec = {.path = path,
	                        .argv = lld_driver ? lld_argv : tool_argv,
	                        .stdin_null = true,
	                        .out = RUN_CAPTURE,
	                        .err = RUN_DISCARD,
	                        .timeout_ms = TOOL_VERSION_TIMEOUT_MS};
	struct run_result run;
	struct strvec lines = STRVEC_INIT;
	if (run_command(&spec, &run) < 0)
		return -1;
	int ok = WIFEXITED(run.status) && WEXITSTATUS(run.status) == 0 ? 0 : -1;
	strvec_split(&lines, run.output, "\n");
	for (size_t i = 0; i < lines.nr && !out->len; i++)
		if (strstr(lines.v[i], "version"))
			strbuf_addstr(out, lines.v[i] + strspn(lines.v[i], " \t"));
	if (!out->len && lines.nr)
		strbuf_addstr(out, lines.v[0]);
	strvec_clear(&lines);
	run_result_release(&run);
	return ok;
}

static void check_tools(struct doctor *d, const struct hotswap_tree *tree)
{
	if (!tree->found)
		return;
	for (size_t i = 0; i < tree->nparts; i++) {
		const struct hotswap_part *p = &tree->parts[i];
		if (p->required)
			continue; /* checked by check_tree() */
		char *id = xstrfmt("part:%s", p->name);
		bool python = p->id == HOTSWAP_PART_PY_RUNTIME;
		if (p->status != PART_OK) {
			check(d, CHECK_WARN, id,
			      python ? "stage " HOTSWAP_TREE_PY_DIR ", or python adapters stay off"
			             : "stage " HOTSWAP_TREE_TOOLS_DIR
			               ", which the cross-family translator runs",
			      "%s: %s ('%s')", p->name, hotswap_part_status_name(p->status),
			      p->path);
		} else if (python) {
			check(d, CHECK_OK, id, NULL, "python runtime: '%s'", p->path);
		} else {
			struct strbuf version = STRBUF_INIT;
			if (tool_version(p->path, p->id == HOTSWAP_PART_LLD, &version))
				check(d, CHECK_WARN, id,
				      "reinstall the tree's " HOTSWAP_TREE_TOOLS_DIR,
				      "%s: `%s --version` failed%s%s", p->name, p->path,
				      version.len ? ": " : "", version.buf);
			else
				check(d, CHECK_OK, id, NULL, "%s: %s", p->name, version.buf);
			strbuf_release(&version);
		}
		free(id);
	}
}

/* ---- GPUs and targets ---- */

static void check_gpus(struct doctor *d, const struct kfd_gpus *gpus)
{
	if (!gpus->kfd_present)
		check(d, CHECK_WARN, "gpus",
		      "load the amdgpu driver on a GPU host; a profile can name a target "
		      "or " HOTSWAP_ENV_ISA_OVERRIDE " can set one",
		      "no KFD topology at '%s': no AMD GPU is visible here", gpus->nodes_dir);
	else if (!gpus->nr)
		check(d, CHECK_WARN, "gpus", "check that the amdgpu driver bound to the GPU",
		      "KFD topology at '%s' lists no GPU", gpus->nodes_dir);
	else
		check(d, CHECK_OK, "gpus", NULL, "%zu GPU(s) in '%s'%s%s", gpus->nr,
		      gpus->nodes_dir, gpus->visible_var ? ", filtered by " : "",
		      gpus->visible_var ? gpus->visible_var : "");
	for (size_t i = 0; i < gpus->nr; i++) {
		const struct kfd_gpu *g = &gpus->gpu[i];
		const char *step = kfd_gpu_stepping(g);
		char *id = xstrfmt("gpu:%u", g->index);
		check(d, CHECK_OK, id, NULL,
		      "GPU %u: %s, ASIC revision %u%s%s%s (node %u, device 0x%04x, render minor "
		      "%u)%s",
		      g->index, g->gfx, g->asic_revision, step ? " (" : "", step ? step : "",
		      step ? ")" : "", g->node, g->device_id, g->drm_render_minor,
		      g->visible_rank < 0 ? ", hidden" : "");
		free(id);
	}
	for (size_t i = 0; i < gpus->warnings.nr; i++)
		check(d, CHECK_WARN, "gpus", "report a driver bug, or fix *_VISIBLE_DEVICES", "%s",
		      gpus->warnings.v[i]);
}

/* Adds the target to translating (once) when it is a translation target (gfx942, gfx950). */
static void note_translation(struct strvec *translating, const char *gfx)
{
	const struct gfx_info *g = gfx_by_name(gfx);

	if (g && g->retarget == GFX_RETARGET_CROSS && strvec_find(translating, gfx) < 0)
		strvec_push(translating, gfx);
}

static void check_target(struct doctor *d, const struct profile *p, const struct kfd_gpus *gpus,
                         struct strvec *translating)
{
	struct strbuf why = STRBUF_INIT, fix = STRBUF_INIT;
	struct target_choice c;
	struct target_request req = {
	    .profile_target = p ? p->values[PK_TARGET] : "auto",
	    .isa_override = getenv(HOTSWAP_ENV_ISA_OVERRIDE),
	    .source_target = p ? p->values[PK_SOURCE_TARGET] : profile_keys[PK_SOURCE_TARGET].def,
	};
	char *id = xstrfmt("target:%s", p ? p->name : "(default)");
	const char *who = p ? p->name : "a new profile";
	struct diag route = DIAG_INIT;

	if (p && profile_check_route(p, &route) < 0)
		/* A file edited by hand, or made before routes were checked: run would fail at
		 * load. */
		check(d, CHECK_FAIL, id, route.hint.buf, "%s", route.msg.buf);
	else if (p && !profile_is_hotswap(p))
		check(d, CHECK_OK, id, NULL, "profile '%s' uses the %s backend: no target needed",
		      p->name, p->values[PK_EMULATOR]);
	else if (!target_resolve(&req, gpus, &c, &why, &fix)) {
		check(d, CHECK_OK, id, NULL, "%s%s%s would target %s (from %s)",
		      p ? "profile '" : "", who, p ? "'" : "", c.gfx, c.origin_text);
		/* Only a real profile makes the tree's translator matter. */
		if (p)
			note_translation(translating, c.gfx);
	} else if (p)
		/* Only a profile that would actually run makes a missing GPU a failure. */
		check(d, CHECK_FAIL, id, fix.buf, "profile '%s': %s", p->name, why.buf);
	else
		check(d, CHECK_WARN, id, fix.buf, "a profile with target auto would fail: %s",
		      why.buf);
	free(id);
	diag_release(&route);
	strbuf_release(&why);
	strbuf_release(&fix);
}

/* ---- environment ---- */

static void check_env(struct doctor *d)
{
	int found = 0;
	const char *v;
	if ((v = getenv(HOTSWAP_ENV_PRELOAD)) && *v) {
		check(d, CHECK_WARN, "env:" HOTSWAP_ENV_PRELOAD,
		      "unset " HOTSWAP_ENV_PRELOAD
		      " unless the workload needs it; `mirage run` puts the HotSwap "
		      "libraries before it",
		      HOTSWAP_ENV_PRELOAD " is already set ('%s')", v);
		found++;
	}
	if ((v = getenv(HOTSWAP_ENV_TOOLS_LIB)) && *v) {
		check(d, CHECK_WARN, "env:" HOTSWAP_ENV_TOOLS_LIB,
		      "unset " HOTSWAP_ENV_TOOLS_LIB
		      ": another tools library may see code objects before "
		      "HotSwap",
		      HOTSWAP_ENV_TOOLS_LIB " is already set ('%s')", v);
		found++;
	}
	for (char **e = environ; *e; e++) {
		char *name = xstrndup(*e, strcspn(*e, "="));
		enum inherited_fate fate = contract_inherited_fate(name);
		if (fate == INHERITED_NOT_OURS) {
			free(name);
			continue;
		}
		char *id = xstrfmt("env:%s", name);
		/* `run` drops it, but a workload started without mirage still obeys it. */
		char *fix =
		    xstrfmt("unset %s; for one run use `mirage run --env %s=...`, for every "
		            "run the profile's [env]",
		            name, name);
		if (fate == INHERITED_INPUT)
			check(d, CHECK_OK, id, NULL, "%s is set: mirage uses it as an input", *e);
		else if (fate == INHERITED_PASSED)
			check(d, CHECK_OK, id, NULL, "%s is set: `mirage run` passes it on", *e);
		else
			check(d, CHECK_WARN, id, fix,
			      "stale %s in the shell: `mirage run` drops it (the profile decides), "
			      "HotSwap outside mirage obeys it",
			      *e);
		found += fate == INHERITED_DROPPED;
		free(name);
		free(id);
		free(fix);
	}
	if (!found)
		check(d, CHECK_OK, "env", NULL,
		      "no " HOTSWAP_ENV_PRELOAD ", " HOTSWAP_ENV_TOOLS_LIB
		      " or stale " HOTSWAP_ENV_PREFIX "* variables in the way");
}

/* ---- self-test ---- */

/* What the translation child needs (check_translate). */
struct translate_job {
	const struct hotswap_tree *tree;
	const char *target;
};

/* Writes the self-test's result byte, then its message, to fd. */
static void selftest_child(int fd, const void *tree)
{
	struct strbuf msg = STRBUF_INIT;
	signed char r = (signed char)hotswap_selftest(tree, &msg);
	if (write(fd, &r, 1) != 1 || write(fd, msg.buf, msg.len) < 0)
		_exit(1);
	_exit(0);
}

/*
 * The rewriter runs in a forked child: a crash in the library under test
 * becomes a FAIL line instead of taking doctor down with it.
 */
static void check_selftest(struct doctor *d, const struct hotswap_tree *tree)
{
	struct run_result run;
	signed char result = SELFTEST_FAIL;

	if (!tree->complete || tree->flavour != HOTSWAP_FLAVOUR_NATIVE) {
		check(d, CHECK_WARN, "self-test", "build or install a complete native tree",
		      "self-test skipped: %s",
		      !tree->complete
		          ? "no complete tree to test"
		          : "the reference flavour's COMGR rewriter is not tested here");
		return;
	}
	if (run_forked(selftest_child, tree, &run) < 0)
		check(d, CHECK_FAIL, "self-test", "retry", "self-test: %s: %s", run.failed,
		      strerror(errno));
	else if (WIFSIGNALED(run.status))
		check(d, CHECK_FAIL, "self-test", "report the crash: the rewriter is broken",
		      "self-test: the rewriter '%s/" HOTSWAP_REWRITE_LIB "' crashed (signal %d)",
		      tree->lib_dir, WTERMSIG(run.status));
	else if (!run.output_len)
		check(d, CHECK_FAIL, "self-test", "report it",
		      "self-test: no result from the child");
	else if ((result = run.output[0]) == SELFTEST_PASS)
		check(d, CHECK_OK, "self-test", NULL, "self-test: %s", run.output + 1);
	else
		check(d, CHECK_FAIL, "self-test",
		      "rebuild the tree (cmake --build build) or reinstall it: its rewriter does "
		      "not work",
		      "self-test: %s", run.output + 1);
	run_result_release(&run);
}

/* ---- translation ---- */

/* Writes the translation self-test's result byte, its fix byte, then its message, to fd. */
static void translate_child(int fd, const void *ctx)
{
	const struct translate_job *job = ctx;
	struct strbuf msg = STRBUF_INIT;
	enum translate_selftest_fix fix;
	signed char r = (signed char)hotswap_translate_selftest(job->tree, job->target, &msg, &fix);
	unsigned char f = (unsigned char)fix;
	if (write(fd, &r, 1) != 1 || write(fd, &f, 1) != 1 || write(fd, msg.buf, msg.len) < 0)
		_exit(1);
	_exit(0);
}

static const char *translate_fix_text(enum translate_selftest_fix fix)
{
	switch (fix) {
	case TRANSLATE_FIX_INSTALL:
		return "rebuild mirage (cmake --build build) or reinstall it, so that the tree has "
		       "a loadable " HOTSWAP_TRANSLATE_PATH
		       " of this build beside " HOTSWAP_REWRITE_LIB;
	case TRANSLATE_FIX_TRANSLATOR:
		return "this tree's translator cannot translate gfx1250 code yet: update mirage, "
		       "or "
		       "run gfx1250 workloads on a gfx1250";
	case TRANSLATE_FIX_REPORT:
		return "report it: the translator produced a wrong object";
	default:
		return "rebuild the tree (cmake --build build) or reinstall it";
	}
}

/*
 * Whether this tree can translate for target, which a profile would need: the
 * built-in gfx1250 kernel through the rewriter and its translator, in a forked child (a crash
 * in either is a FAIL line, not the doctor's end).  A tree that cannot translate is a warning,
 * as the other optional parts are: the same-ISA work and code built for the target still run.
 */
static void check_translate(struct doctor *d, const struct hotswap_tree *tree, const char *target)
{
	struct translate_job job = {.tree = tree, .target = target};
	struct run_result run;
	char *id = xstrfmt("translate:%s", target);

	if (run_forked(translate_child, &job, &run) < 0)
		check(d, CHECK_FAIL, id, "retry", "translate: %s: %s", run.failed, strerror(errno));
	else if (WIFSIGNALED(run.status))
		check(d, CHECK_FAIL, id,
		      "report the crash: the rewriter or the translator is broken",
		      "cannot translate for %s: the rewriter or '%s/" HOTSWAP_TRANSLATE_LIB
		      "' crashed (signal %d)",
		      target, tree->lib_dir ? tree->lib_dir : "?", WTERMSIG(run.status));
	else if (run.output_len < 2)
		check(d, CHECK_FAIL, id, "report it", "translate: no result from the child");
	else if (run.output[0] == SELFTEST_PASS)
		check(d, CHECK_OK, id, NULL, "%s", run.output + 2);
	else if (run.output[0] == SELFTEST_SKIP)
		check(d, CHECK_WARN, id, "build or install a complete native tree",
		      "translation for %s not checked: %s", target, run.output + 2);
	else
		check(d, CHECK_WARN, id,
		      translate_fix_text((enum translate_selftest_fix)(unsigned char)run.output[1]),
		      "%s; gfx1250 code objects will not load on %s (the intercept refuses them, "
		      "naming why)",
		      run.output + 2, target);
	free(id);
	run_result_release(&run);
}

static int doctor_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct doctor d = {.json = ctx->json};
	struct hotswap_tree tree = HOTSWAP_TREE_INIT;
	struct kfd_gpus gpus = KFD_GPUS_INIT;
	struct profile *profiles = NULL;
	struct strvec translating = STRVEC_INIT;
	const char *only = args_str(a, DOCTOR_PROFILE);
	size_t n;

	d.colour = msg_color_on(STDOUT_FILENO);
	if (d.json)
		d.checks = cJSON_CreateArray();

	check_xdg(&d);
	n = check_config(&d, only, &profiles);
	hotswap_discover(&(struct discover_opts){.self_exe = ctx->self_exe}, &tree);
	check_discovery(&d, &tree);
	check_tree(&d, &tree);
	check_paths(&d, &tree);
	check_tools(&d, &tree);
	kfd_scan(NULL, &gpus);
	check_gpus(&d, &gpus);
	for (size_t i = 0; i < n; i++)
		check_target(&d, &profiles[i], &gpus, &translating);
	if (!n && !only)
		check_target(&d, NULL, &gpus, &translating);
	check_env(&d);
	check_selftest(&d, &tree);
	for (size_t i = 0; i < translating.nr; i++)
		check_translate(&d, &tree, translating.v[i]);
	strvec_clear(&translating);

	if (d.json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddBoolToObject(doc, "ok", !d.counts[CHECK_FAIL]);
		cJSON *counts = cJSON_AddObjectToObject(doc, "counts");
		for (int i = 0; i < 3; i++)
			cJSON_AddNumberToObject(counts, status_json[i], d.counts[i]);
		cJSON_AddItemToObject(doc, "checks", d.checks);
		output_json(doc);
	} else {
		printf("\n%d ok, %d warn, %d FAIL\n", d.counts[CHECK_OK], d.counts[CHECK_WARN],
		       d.counts[CHECK_FAIL]);
	}
	for (size_t i = 0; i < n; i++)
		profile_release(&profiles[i]);
	free(profiles);
	kfd_gpus_release(&gpus);
	hotswap_tree_release(&tree);
	return d.counts[CHECK_FAIL] ? EXIT_ERROR : EXIT_OK;
}

static const struct opt_spec doctor_opts[DOCTOR_NOPTS + 1] = {
    [DOCTOR_PROFILE] = {.name = "profile",
                        .type = OPT_PROFILE,
                        .arg_name = "NAME",
                        .help = "check only this profile (default: every profile)"},
};

const struct cmd_entry cmd_doctor_entry = {
    .name = "doctor",
    .summary = "check the config, the HotSwap tree, GPUs, targets and environment",
    .opts = doctor_opts,
    .exec = doctor_exec,
};
