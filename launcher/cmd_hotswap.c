/* `mirage hotswap install|list|remove`: manage the HotSwap trees mirage keeps under <data>/hotswap.
 */
#include "command.h"
#include "msg.h"
#include "output.h"

#include "checksum.h"
#include "hotswap_install.h"
#include "progress.h"

#include "hotswap_tree.h"
#include "human_size.h"
#include "printable.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

enum install_opt {
	INSTALL_SHA256,
	INSTALL_NAME,
	INSTALL_MAX_SIZE,
	INSTALL_TIMEOUT,
	INSTALL_NOPTS
};
static const struct opt_spec install_opts[INSTALL_NOPTS + 1] = {
    [INSTALL_SHA256] = {.name = "sha256",
                        .type = OPT_STRING,
                        .arg_name = "HEX",
                        .help = "refuse the archive unless its SHA-256 is HEX"},
    [INSTALL_NAME] = {.name = "name",
                      .type = OPT_STRING,
                      .arg_name = "NAME",
                      .help =
                          "install as NAME (default: the archive's top directory or file name)"},
    [INSTALL_MAX_SIZE] =
        {.name = FETCH_SIZE_FLAG,
         .type = OPT_STRING,
         .arg_name = "SIZE",
         .help = "refuse an archive, or its contents, bigger than SIZE (default " FETCH_STR(
             FETCH_DEFAULT_MAX_GIB) "G; K, M, G, T)"},
    [INSTALL_TIMEOUT] =
        {.name = FETCH_TIMEOUT_FLAG,
         .type = OPT_STRING,
         .arg_name = "SECONDS",
         .help = "give up a download that takes longer than SECONDS (default " FETCH_STR(
             DOWNLOAD_DEFAULT_TIMEOUT_S) ")"},
};

/* --max-size and --timeout: positive numbers, checked before anything is fetched. */
static int parse_limits(struct cmd_args *a, uint64_t *max_bytes, uint64_t *timeout_s)
{
	const char *size = args_str(a, INSTALL_MAX_SIZE);
	const char *secs = args_str(a, INSTALL_TIMEOUT);
	char *end = NULL;

	*max_bytes = 0;
	*timeout_s = 0;
	if (size && human_size_parse(size, max_bytes) < 0) {
		usage_error("invalid value '%.80s' for '--" FETCH_SIZE_FLAG
		            "': expected a positive size",
		            size);
		hint("a number of bytes, or one with K, M, G or T (1024-based): e.g. 8G, 500M");
		return -1;
	}
	if (secs) {
		errno = 0;
		*timeout_s = isdigit((unsigned char)*secs) ? strtoull(secs, &end, 10) : 0;
		if (!*timeout_s || *end || errno || *timeout_s > UINT64_MAX / 1000) {
			usage_error("invalid value '%.80s' for '--" FETCH_TIMEOUT_FLAG
			            "': expected a positive number of seconds",
			            secs);
			hint("e.g. --" FETCH_TIMEOUT_FLAG " 7200 for two hours");
			return -1;
		}
	}
	return 0;
}

static int hotswap_install_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *source = a->positional.v[0];
	const char *sha = args_str(a, INSTALL_SHA256);
	const char *name = args_str(a, INSTALL_NAME);
	char want[SHA256_HEX_LEN + 1];
	struct hotswap_installed inst;
	struct diag err = DIAG_INIT;
	uint64_t max_bytes, timeout_s;

	/* Everything the command line decides is checked before any byte is fetched. */
	if (download_kind(source) == DOWNLOAD_BAD_SCHEME) {
		char *shown = printable_text(source);
		usage_error("cannot install from '%.200s': unsupported URL scheme", shown);
		hint("use an http://, https:// or file:// URL, or a local archive path");
		free(shown);
		return EXIT_USAGE;
	}
	if (sha && sha256_parse_hex(sha, want) < 0) {
		usage_error("invalid value '%.80s' for '--sha256': expected 64 hex digits", sha);
		hint("e.g. the first word of `sha256sum FILE`");
		return EXIT_USAGE;
	}
	if (name && hotswap_name_check(name, &err) < 0)
		return report_diag(&err, EXIT_USAGE);
	if (parse_limits(a, &max_bytes, &timeout_s) < 0)
		return EXIT_USAGE;

	if (hotswap_install(&(struct hotswap_install_opts){.self_exe = ctx->self_exe,
	                                                   .source = source,
	                                                   .sha256 = sha ? want : NULL,
	                                                   .name = name,
	                                                   .progress = progress_wanted(ctx->json),
	                                                   .max_bytes = max_bytes,
	                                                   .timeout_s = timeout_s},
	                    &inst, &err) < 0)
		return report_diag(&err, EXIT_ERROR);

	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "name", inst.name);
		cJSON_AddStringToObject(doc, "root", inst.root);
		cJSON_AddStringToObject(doc, "flavour", hotswap_flavour_name(inst.flavour));
		cJSON_AddStringToObject(doc, "sha256", inst.sha256);
		output_json(doc);
	} else {
		print_text("installed HotSwap tree '%s' (%s) at '%s'\n", inst.name,
		           hotswap_flavour_name(inst.flavour), inst.root);
		print_text("sha256 %s\n", inst.sha256);
	}
	hotswap_installed_release(&inst);
	return EXIT_OK;
}

static int hotswap_list_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct hotswap_tree active = HOTSWAP_TREE_INIT;
	struct strvec names = STRVEC_INIT;
	char *dir = hotswap_trees_dir();
	cJSON *doc = NULL;
	int ret = EXIT_ERROR;

	(void)a;
	if (hotswap_installed_names(dir, &names) < 0) {
		error_errno("cannot list '%s'", dir);
		goto cleanup;
	}
	/* The tree `mirage run` would use, so the list can say which one is in use. */
	hotswap_discover(&(struct discover_opts){.self_exe = ctx->self_exe}, &active);
	if (ctx->json)
		doc = cJSON_CreateArray();
	else if (!names.nr)
		inform("no HotSwap trees installed in '%s' (`mirage hotswap install URL` adds one)",
		       dir);
	else
		print_text("%-24s %-9s %-8s %s\n", "NAME", "FLAVOUR", "COMPLETE", "ROOT");
	for (size_t i = 0; i < names.nr; i++) {
		struct hotswap_tree own = HOTSWAP_TREE_INIT;
		const struct hotswap_tree *t = &active;
		char *root = xstrfmt("%s/%s", dir, names.v[i]);
		char *canon = realpath(root, NULL);
		/* Discovery already checked the tree in use: only the others are checked here. */
		bool in_use =
		    active.found && active.root && !strcmp(active.root, canon ? canon : root);

		if (!in_use) {
			hotswap_check_root(root, &own);
			t = &own;
		}
		if (doc) {
			cJSON *o = cJSON_CreateObject();
			cJSON *missing = cJSON_CreateArray();
			cJSON_AddStringToObject(o, "name", names.v[i]);
			cJSON_AddStringToObject(o, "root", t->root);
			cJSON_AddStringToObject(o, "flavour", hotswap_flavour_name(t->flavour));
			cJSON_AddBoolToObject(o, "complete", t->complete);
			cJSON_AddBoolToObject(o, "in_use", in_use);
			for (size_t j = 0; j < t->nparts; j++)
				if (t->parts[j].required && t->parts[j].status != PART_OK)
					cJSON_AddItemToArray(missing,
					                     cJSON_CreateString(t->parts[j].name));
			cJSON_AddItemToObject(o, "problems", missing);
			cJSON_AddItemToArray(doc, o);
		} else {
			print_text("%-24s %-9s %-8s %s%s\n", names.v[i],
			           hotswap_flavour_name(t->flavour), t->complete ? "yes" : "no",
			           t->root, in_use ? "  (in use)" : "");
		}
		hotswap_tree_release(&own);
		free(canon);
		free(root);
	}
	if (doc) {
		output_json(doc);
		doc = NULL;
	}
	ret = EXIT_OK;
cleanup:
	cJSON_Delete(doc);
	hotswap_tree_release(&active);
	strvec_clear(&names);
	free(dir);
	return ret;
}

enum remove_opt {
	REMOVE_FORCE,
	REMOVE_NOPTS
};
static const struct opt_spec remove_opts[REMOVE_NOPTS + 1] = {
    [REMOVE_FORCE] = {.name = "force",
                      .short_name = 'f',
                      .type = OPT_BOOL,
                      .help = "remove without asking"},
};

/*
 * Takes the tree out of discovery's sight in one rename (to a dot name),
 * then deletes it: a half-deleted tree is never found by `mirage run`.
 */
static int remove_installed(const char *dir, const char *path)
{
	struct stat st;
	char *trash = xstrfmt("%s/.rm-XXXXXX", dir);
	int ret = -1;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		/* A symlink someone placed here: drop the link, never what it points at. */
		ret = unlink(path) < 0 ? error_errno("cannot remove '%s'", path) : 0;
		goto cleanup;
	}
	if (!mkdtemp(trash) || rename(path, trash) < 0) {
		ret = error_errno("cannot remove '%s'", path);
		rmdir(trash);
		goto cleanup;
	}
	ret = hotswap_remove_tree(trash) < 0
	          ? error_errno("removed the tree from use, but cannot delete '%s'", trash)
	          : 0;
cleanup:
	free(trash);
	return ret;
}

/* What `hotswap remove` did, removed or (the user said no) not: one line, or JSON under --json. */
static void report_removed(bool json, const char *name, const char *path, bool removed)
{
	if (json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "name", name);
		cJSON_AddStringToObject(doc, "root", path);
		cJSON_AddBoolToObject(doc, "removed", removed);
		output_json(doc);
	} else if (removed) {
		print_text("removed HotSwap tree '%s' ('%s')\n", name, path);
	} else {
		print_text("HotSwap tree '%s' not removed\n", name);
	}
}

static int hotswap_remove_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *name = a->positional.v[0];
	struct diag err = DIAG_INIT;
	struct stat st;
	char *dir = NULL, *path = NULL;
	int ret = EXIT_ERROR;

	/* The name rule also refuses '/', '..' and the installer's own dot directories. */
	if (hotswap_name_check(name, &err) < 0)
		return report_diag(&err, EXIT_USAGE);
	dir = hotswap_trees_dir();
	path = xstrfmt("%s/%s", dir, name);
	if (lstat(path, &st) < 0) {
		error("no HotSwap tree named '%s' is installed in '%s'", name, dir);
		hint("`mirage hotswap list` shows the installed trees");
		goto cleanup;
	}
	if (!args_bool(a, REMOVE_FORCE)) {
		char *q = xstrfmt("remove HotSwap tree '%s' ('%s')?", name, path);
		int answer = ask_yes_no(q);
		free(q);
		if (answer < 0) {
			error(
			    "cannot ask whether to remove HotSwap tree '%s': standard input ended "
			    "without an answer",
			    name);
			hint("pass -f to remove without asking");
			goto cleanup;
		}
		if (!answer) {
			report_removed(ctx->json, name, path, false);
			ret = EXIT_USAGE;
			goto cleanup;
		}
	}
	if (remove_installed(dir, path) < 0)
		goto cleanup;
	report_removed(ctx->json, name, path, true);
	ret = EXIT_OK;
cleanup:
	free(path);
	free(dir);
	return ret;
}

const struct cmd_entry cmd_hotswap_entry = {
    .name = "hotswap",
    .summary = "install, list and remove HotSwap trees",
    .flags = CMD_GROUP,
};

const struct cmd_entry cmd_hotswap_install_entry = {
    .name = "install",
    .parent = "hotswap",
    .summary = "install a HotSwap tree from an archive URL or file",
    .usage = "URL|FILE",
    .opts = install_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_URL_OR_FILE,
    .exec = hotswap_install_exec,
};

const struct cmd_entry cmd_hotswap_list_entry = {
    .name = "list",
    .parent = "hotswap",
    .summary = "list installed HotSwap trees and whether each is complete",
    .exec = hotswap_list_exec,
};

const struct cmd_entry cmd_hotswap_remove_entry = {
    .name = "remove",
    .parent = "hotswap",
    .summary = "delete an installed HotSwap tree (asks first unless -f)",
    .usage = "NAME",
    .opts = remove_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_TREE,
    .exec = hotswap_remove_exec,
};
