/* `mirage profile create|list|show|edit|delete|export|import`: the profile store from the shell. */
#include "command.h"
#include "msg.h"
#include "output.h"

#include "atomic_file.h"
#include "config_paths.h"
#include "suggest.h"
#include "profile_file.h"
#include "profile_json.h"
#include "profile_store.h"
#include "profile_validate.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Loads a profile named on the command line (case folded), printing any failure. */
static int load_named(const char *typed, struct profile *p)
{
	struct diag err = DIAG_INIT;
	int ret = profile_load_typed(typed, p, &err);
	return ret ? report_diag(&err, ret == PROFILE_BAD_NAME ? EXIT_USAGE : EXIT_ERROR) : 0;
}

/*
 * `profile create`'s flags: one per key, expanded from the key table's rows (PROFILE_KEY_ROWS),
 * at the key's index, then --env.  What a key's type makes of its flag: the option type, its
 * flags and the placeholder in help.
 */
#define CREATE_TYPE_PKEY_TEXT           OPT_STRING
#define CREATE_TYPE_PKEY_BOOL           OPT_BOOL
#define CREATE_TYPE_PKEY_ENUM           OPT_ENUM
#define CREATE_TYPE_PKEY_SOURCE_TARGET  OPT_GFX_SOURCE
#define CREATE_TYPE_PKEY_TARGET         OPT_GFX_TARGET
#define CREATE_TYPE_PKEY_PATH           OPT_DIR
#define CREATE_FLAGS_PKEY_TEXT          0
#define CREATE_FLAGS_PKEY_BOOL          OPT_NEGATABLE
#define CREATE_FLAGS_PKEY_ENUM          0
#define CREATE_FLAGS_PKEY_SOURCE_TARGET 0
#define CREATE_FLAGS_PKEY_TARGET        OPT_AUTO
#define CREATE_FLAGS_PKEY_PATH          0
#define CREATE_ARG_PKEY_TEXT            "TEXT"
#define CREATE_ARG_PKEY_BOOL            NULL
#define CREATE_ARG_PKEY_ENUM            NULL
#define CREATE_ARG_PKEY_SOURCE_TARGET   "GFX[:WAVE]"
#define CREATE_ARG_PKEY_TARGET          "auto|GFX"
#define CREATE_ARG_PKEY_PATH            NULL

/* The rows of create_opts: the keys (enum profile_key_id), then these. */
enum create_opt {
	CREATE_ENV = PK_COUNT,
	CREATE_NOPTS,
};

#define CREATE_KEY_OPT(key_id, key_section, key_name, key_flag, key_type, key_choices, key_def,    \
                       key_help)                                                                   \
	[key_id] = {.name = key_flag,                                                              \
	            .type = CREATE_TYPE_##key_type,                                                \
	            .arg_name = CREATE_ARG_##key_type,                                             \
	            .choices = key_choices,                                                        \
	            .flags = CREATE_FLAGS_##key_type,                                              \
	            .help = key_help,                                                              \
	            .def = key_def},
static const struct opt_spec create_opts[CREATE_NOPTS + 1] = {
    [CREATE_ENV] = {.name = "env",
                    .type = OPT_STRING,
                    .arg_name = "K=V",
                    .flags = OPT_REPEAT,
                    .help = "extra variable for the workload"},
    PROFILE_KEY_ROWS(CREATE_KEY_OPT)};
#undef CREATE_KEY_OPT

/* Applies every key flag that was given to p, in table order. */
static int apply_key_flags(const struct cmd_args *a, struct profile *p, struct diag *err)
{
	const struct strvec *env = args_list(a, CREATE_ENV);
	for (size_t i = 0; i < PK_COUNT; i++) {
		const struct profile_key *k = &profile_keys[i];
		const char *value;
		if (!args_has(a, i))
			continue;
		value =
		    k->type == PKEY_BOOL ? (args_bool(a, i) ? "true" : "false") : args_str(a, i);
		if (profile_set(p, k, value, err) < 0)
			return -1;
	}
	for (size_t i = 0; i < env->nr; i++)
		if (profile_set_env_assignment(p, env->v[i], err) < 0)
			return -1;
	return 0;
}

static int print_created(const struct cmd_ctx *ctx, const struct profile *p, const char *verb)
{
	if (ctx->json) {
		cJSON *doc = profile_to_json(p);
		output_json(doc);
	} else {
		char *path = profile_path(p->name);
		print_text("%s profile '%s' (%s)\n", verb, p->name, path);
		free(path);
	}
	return EXIT_OK;
}

static int profile_create_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct profile p;
	struct diag err = DIAG_INIT;
	const char *name = a->positional.v[0];
	int ret;

	profile_init(&p, name);
	if (profile_name_check(name, &err) < 0 || apply_key_flags(a, &p, &err) < 0 ||
	    profile_check_route(&p, &err) < 0) {
		profile_release(&p);
		return report_diag(&err, EXIT_USAGE);
	}
	if (profile_validate_backend(&p, ctx->self_exe, &err) < 0 || profile_create(&p, &err) < 0) {
		profile_release(&p);
		return report_diag(&err, EXIT_ERROR);
	}
	ret = print_created(ctx, &p, "created");
	profile_release(&p);
	return ret;
}

enum list_opt {
	LIST_LONG,
	LIST_NOPTS
};
static const struct opt_spec list_opts[LIST_NOPTS + 1] = {
    [LIST_LONG] = {.name = "long",
                   .short_name = 'l',
                   .type = OPT_BOOL,
                   .help = "show emulator, target and description"},
};

static int profile_list_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct strvec names = STRVEC_INIT;
	struct diag err = DIAG_INIT;
	bool lng = args_bool(a, LIST_LONG);
	cJSON *doc = ctx->json ? cJSON_CreateArray() : NULL;

	if (profile_list(&names, &err) < 0) {
		cJSON_Delete(doc);
		return report_diag(&err, EXIT_ERROR);
	}
	if (!names.nr && !ctx->json) {
		char *dir = mirage_profiles_dir();
		inform("no profiles in '%s'", dir);
		free(dir);
	}
	if (lng && !ctx->json && names.nr)
		print_text("%-24s %-8s %-8s %s\n", "NAME", "EMULATOR", "TARGET", "DESCRIPTION");
	for (size_t i = 0; i < names.nr; i++) {
		struct profile p;
		struct diag perr = DIAG_INIT;
		int bad =
		    lng ? profile_load(names.v[i], &p, &perr) : (profile_init(&p, names.v[i]), 0);
		if (ctx->json && !lng) {
			cJSON_AddItemToArray(doc, cJSON_CreateString(names.v[i]));
		} else if (ctx->json) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "name", names.v[i]);
			if (bad) {
				cJSON_AddStringToObject(o, "unreadable", perr.msg.buf);
			} else {
				cJSON_AddStringToObject(o, "emulator",
				                        profile_get(&p, PK_EMULATOR));
				cJSON_AddStringToObject(o, "target", profile_get(&p, PK_TARGET));
				cJSON_AddStringToObject(o, "description",
				                        profile_get(&p, PK_DESCRIPTION));
			}
			cJSON_AddItemToArray(doc, o);
		} else if (!lng) {
			print_text("%s\n", names.v[i]);
		} else if (bad) {
			print_text("%-24s (unreadable: %s)\n", names.v[i], perr.msg.buf);
		} else {
			struct strbuf line = STRBUF_INIT;
			strbuf_addf(&line, "%-24s %-8s %-8s %s", names.v[i],
			            profile_get(&p, PK_EMULATOR),
			            profile_is_hotswap(&p) ? profile_get(&p, PK_TARGET) : "-",
			            profile_get(&p, PK_DESCRIPTION));
			strbuf_rtrim(&line); /* no padding after the last column */
			print_text("%s\n", line.buf);
			strbuf_release(&line);
		}
		profile_release(&p);
		diag_release(&perr);
	}
	if (doc)
		output_json(doc);
	strvec_clear(&names);
	return EXIT_OK;
}

static int profile_show_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct profile p;
	int ret = load_named(a->positional.v[0], &p);
	if (ret) {
		profile_release(&p);
		return ret;
	}
	if (ctx->json) {
		output_json(profile_to_json(&p));
	} else {
		char *path = profile_path(p.name);
		print_text("profile %s  (%s)\n", p.name, path);
		for (size_t i = 0; i < PK_COUNT; i++) {
			const struct profile_key *k = &profile_keys[i];
			if (!strcmp(k->section, "hotswap") && !profile_is_hotswap(&p))
				continue;
			/* An empty value shows as "", so that the line does not end in "=   ". */
			print_text("  %-18s = %s%s\n", k->name, *p.values[i] ? p.values[i] : "\"\"",
			           strcmp(p.values[i], k->def) ? "" : "  (default)");
		}
		for (size_t i = 0; i < p.env.nr; i++)
			print_text("  env %s\n", p.env.v[i]);
		free(path);
	}
	profile_release(&p);
	return EXIT_OK;
}

enum edit_opt {
	EDIT_SET,
	EDIT_UNSET,
	EDIT_NOPTS
};
static const struct opt_spec edit_opts[EDIT_NOPTS + 1] = {
    [EDIT_SET] = {.name = "set",
                  .type = OPT_STRING,
                  .arg_name = "KEY=VALUE",
                  .flags = OPT_REPEAT,
                  .values = OV_PROFILE_KEYS,
                  .help = "set a key (as in the INI file) or env.NAME"},
    [EDIT_UNSET] = {.name = "unset",
                    .type = OPT_STRING,
                    .arg_name = "KEY",
                    .flags = OPT_REPEAT,
                    .help = "reset a key to its default, or remove env.NAME"},
};

static int edit_one(struct profile *p, const char *assignment, bool unset, struct diag *err)
{
	const char *eq = strchr(assignment, '=');
	char *key = unset
	                ? xstrdup(assignment)
	                : xstrndup(assignment, eq ? (size_t)(eq - assignment) : strlen(assignment));
	const struct profile_key *k;
	int ret = 0;

	if (!unset && !eq) {
		ret = diag_set(err, "--set '%.48s': expected KEY=VALUE", assignment);
	} else if (!strncmp(key, "env.", 4)) {
		if (unset) {
			if (profile_unset_env(p, key + 4) < 0)
				ret = diag_set(
				    err, "--unset '%.48s': the profile has no such variable", key);
		} else {
			ret = profile_set_env(p, key + 4, eq + 1, err);
		}
	} else if (!(k = profile_key_find(key))) {
		struct strbuf keys = STRBUF_INIT;
		for (size_t i = 0; i < PK_COUNT; i++)
			strbuf_addf(&keys, "%s, ", profile_keys[i].name);
		struct suggestion s = SUGGESTION_INIT;
		for (size_t i = 0; i < PK_COUNT; i++)
			suggest_add(&s, key, profile_keys[i].name);
		ret = diag_set(err, "unknown key '%.48s'", key);
		if (suggest_best(&s))
			diag_hint(err, "did you mean '%s'? keys: %senv.NAME", suggest_best(&s),
			          keys.buf);
		else
			diag_hint(err, "keys: %senv.NAME", keys.buf);
		strbuf_release(&keys);
	} else {
		ret = profile_set(p, k, unset ? k->def : eq + 1, err);
	}
	free(key);
	return ret;
}

/* Load, change, save: the caller holds the store lock, so no other edit comes in between. */
static int edit_locked(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct profile p;
	struct diag err = DIAG_INIT;
	const struct strvec *sets = args_list(a, EDIT_SET), *unsets = args_list(a, EDIT_UNSET);
	int ret = load_named(a->positional.v[0], &p);
	if (ret) {
		profile_release(&p);
		return ret;
	}
	for (size_t i = 0; i < unsets->nr; i++)
		if (edit_one(&p, unsets->v[i], true, &err) < 0)
			goto bad;
	for (size_t i = 0; i < sets->nr; i++)
		if (edit_one(&p, sets->v[i], false, &err) < 0)
			goto bad;
	if (profile_check_route(&p, &err) < 0)
		goto bad;
	if (profile_validate_backend(&p, ctx->self_exe, &err) < 0 || profile_save(&p, &err) < 0) {
		profile_release(&p);
		return report_diag(&err, EXIT_ERROR);
	}
	ret = print_created(ctx, &p, "updated");
	profile_release(&p);
	return ret;
bad:
	profile_release(&p);
	return report_diag(&err, EXIT_USAGE);
}

static int profile_edit_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct profile_lock lock = PROFILE_LOCK_INIT;
	struct diag err = DIAG_INIT;
	int ret;

	if (!args_list(a, EDIT_SET)->nr && !args_list(a, EDIT_UNSET)->nr) {
		usage_error("'profile edit' needs at least one --set or --unset");
		hint("e.g. mirage profile edit %s --set target=gfx942", a->positional.v[0]);
		return EXIT_USAGE;
	}
	if (profile_lock_store(&lock, PROFILE_LOCK_WAIT_MS, &err) < 0)
		return report_diag(&err, EXIT_ERROR);
	ret = edit_locked(ctx, a);
	profile_unlock_store(&lock);
	return ret;
}

enum delete_opt {
	DELETE_FORCE,
	DELETE_NOPTS
};
static const struct opt_spec delete_opts[DELETE_NOPTS + 1] = {
    [DELETE_FORCE] = {.name = "force",
                      .short_name = 'f',
                      .type = OPT_BOOL,
                      .help = "delete without asking"},
};

/* One name of `profile delete`: asked about (unless -f) and deleted; its result into out. */
static int delete_one(const struct cmd_ctx *ctx, const struct cmd_args *a, const char *typed,
                      cJSON *out)
{
	struct diag err = DIAG_INIT;
	/* Only the name and the file: a profile whose file is broken may still be deleted. */
	char *name = profile_lookup_name(typed, &err);
	bool deleted = false;
	int ret = EXIT_OK;

	if (!name)
		return report_diag(&err, EXIT_USAGE);
	if (!args_bool(a, DELETE_FORCE)) {
		struct strbuf q = STRBUF_INIT;
		int answer;
		/* Never ask about a profile that is not there (with -f, profile_delete() says so).
		 */
		if (profile_exists(name, &err) < 0) {
			free(name);
			return report_diag(&err, EXIT_ERROR);
		}
		strbuf_addf(&q, "delete profile '%s'?", name);
		answer = ask_yes_no(q.buf);
		strbuf_release(&q);
		if (answer < 0) {
			error("cannot ask whether to delete profile '%s': standard input ended "
			      "without an answer",
			      name);
			hint("pass -f to delete without asking");
			free(name);
			return EXIT_ERROR;
		}
		if (!answer)
			ret = EXIT_USAGE;
	}
	if (ret == EXIT_OK) {
		if (profile_delete(name, &err) < 0) {
			free(name);
			return report_diag(&err, EXIT_ERROR);
		}
		deleted = true;
	}
	if (out) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "name", name);
		cJSON_AddBoolToObject(doc, "deleted", deleted);
		cJSON_AddItemToArray(out, doc);
	} else {
		print_text(deleted ? "deleted profile '%s'\n" : "profile '%s' not deleted\n", name);
	}
	free(name);
	return ret;
}

/*
 * Each name in turn, as rm does: a failure is said and the rest still go; the exit code is
 * the first failure's.  --json: one object for one name, an array for several.
 */
static int profile_delete_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	cJSON *out = ctx->json ? cJSON_CreateArray() : NULL;
	int ret = EXIT_OK;

	for (size_t i = 0; i < a->positional.nr; i++) {
		int r = delete_one(ctx, a, a->positional.v[i], out);
		if (!ret)
			ret = r;
	}
	if (out && a->positional.nr == 1 && cJSON_GetArraySize(out) == 1)
		output_json(cJSON_DetachItemFromArray(out, 0));
	else if (out && cJSON_GetArraySize(out))
		output_json(cJSON_Duplicate(out, 1));
	cJSON_Delete(out);
	return ret;
}

enum export_opt {
	EXPORT_OUTPUT,
	EXPORT_NOPTS
};
static const struct opt_spec export_opts[EXPORT_NOPTS + 1] = {
    [EXPORT_OUTPUT] = {.name = "output",
                       .short_name = 'o',
                       .type = OPT_PATH,
                       .help = "write to FILE instead of standard output"},
};

static int profile_export_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct profile p;
	const char *out = args_str(a, EXPORT_OUTPUT);
	int ret = load_named(a->positional.v[0], &p);
	char *text;

	if (ret) {
		profile_release(&p);
		return ret;
	}
	{
		cJSON *doc = profile_to_json(&p);
		text = cJSON_Print(doc);
		cJSON_Delete(doc);
	}
	if (!out || !strcmp(out, "-")) {
		printf("%s\n", text);
	} else {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s\n", text);
		if (atomic_write_file(out, sb.buf, sb.len, 0666, ATOMIC_REPLACE) < 0)
			ret = error_errno("cannot write '%s'", out);
		else if (!ctx->json)
			inform("exported profile '%s' to '%s'", p.name, out);
		strbuf_release(&sb);
	}
	free(text);
	profile_release(&p);
	return exit_code(ret);
}

enum import_opt {
	IMPORT_NAME,
	IMPORT_FORCE,
	IMPORT_NOPTS
};
static const struct opt_spec import_opts[IMPORT_NOPTS + 1] = {
    [IMPORT_NAME] = {.name = "name",
                     .type = OPT_STRING,
                     .arg_name = "NAME",
                     .help = "store it under NAME instead of the document's name"},
    [IMPORT_FORCE] = {.name = "force",
                      .short_name = 'f',
                      .type = OPT_BOOL,
                      .help = "replace a profile of that name"},
};

/* Writes an imported profile: a new one, or with --force one that replaces (under the lock). */
static int store_imported(const struct profile *p, bool force, struct diag *err)
{
	struct profile_lock lock = PROFILE_LOCK_INIT;
	int ret;

	if (!force) {
		struct diag ignored = DIAG_INIT;
		ret = profile_create(p, err);
		if (ret < 0 && profile_exists(p->name, &ignored) == 0)
			diag_hint(err,
			          "pass --force to replace it, or --name to import it as another");
		diag_release(&ignored);
		return ret;
	}
	if (profile_lock_store(&lock, PROFILE_LOCK_WAIT_MS, err) < 0)
		return -1;
	ret = profile_save(p, err);
	profile_unlock_store(&lock);
	return ret;
}

static int profile_import_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *file = a->positional.v[0];
	bool from_stdin = !strcmp(file, "-");
	const char *origin = from_stdin ? "<stdin>" : file;
	struct strbuf text = STRBUF_INIT;
	struct diag err = DIAG_INIT;
	struct profile p;
	int ret;

	if ((from_stdin ? profile_read_stream(0, origin, &text, &err)
	                : profile_read_file(file, NULL, &text, &err)) < 0) {
		if (!from_stdin && (errno == EINVAL || errno == EISDIR)) /* FIFO, device, dir */
			diag_hint(&err, "import reads a regular file, or standard input with '-'");
		strbuf_release(&text);
		return report_diag(&err, EXIT_ERROR);
	}
	profile_init(&p, "");
	/* What the document says is a value like create's flags: refused with 2, as there. */
	if (profile_from_json(&p, text.buf, text.len, origin, &err) < 0) {
		ret = EXIT_USAGE;
	} else {
		if (args_str(a, IMPORT_NAME)) {
			free(p.name);
			p.name = xstrdup(args_str(a, IMPORT_NAME));
		}
		if (profile_name_check(p.name, &err) < 0 || profile_check_route(&p, &err) < 0)
			ret = EXIT_USAGE;
		else if (profile_validate_backend(&p, ctx->self_exe, &err) < 0 ||
		         store_imported(&p, args_bool(a, IMPORT_FORCE), &err) < 0)
			ret = EXIT_ERROR;
		else
			ret = EXIT_OK;
	}
	if (ret != EXIT_OK) {
		profile_release(&p);
		strbuf_release(&text);
		return report_diag(&err, ret);
	}
	ret = print_created(ctx, &p, "imported");
	profile_release(&p);
	strbuf_release(&text);
	return ret;
}

const struct cmd_entry cmd_profile_entry = {
    .name = "profile",
    .summary = "create, list, show, edit, copy, rename, delete, export and import profiles",
    .flags = CMD_GROUP,
};

const struct cmd_entry cmd_profile_create_entry = {
    .name = "create",
    .parent = "profile",
    .summary = "create a profile (every HotSwap knob is a flag)",
    .usage = "NAME",
    .opts = create_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_WORD,
    .exec = profile_create_exec,
};

const struct cmd_entry cmd_profile_list_entry = {
    .name = "list",
    .parent = "profile",
    .summary = "list profiles",
    .opts = list_opts,
    .exec = profile_list_exec,
};

const struct cmd_entry cmd_profile_show_entry = {
    .name = "show",
    .parent = "profile",
    .summary = "show a profile's settings",
    .usage = "NAME",
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_PROFILE,
    .exec = profile_show_exec,
};

const struct cmd_entry cmd_profile_edit_entry = {
    .name = "edit",
    .parent = "profile",
    .summary = "change keys of a profile",
    .usage = "NAME",
    .opts = edit_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_PROFILE,
    .exec = profile_edit_exec,
};

const struct cmd_entry cmd_profile_delete_entry = {
    .name = "delete",
    .parent = "profile",
    .summary = "delete profiles (asks first about each unless -f)",
    .usage = "NAME...",
    .opts = delete_opts,
    .min_args = 1,
    .max_args = -1,
    .arg_kind = ARG_PROFILE,
    .exec = profile_delete_exec,
};

const struct cmd_entry cmd_profile_export_entry = {
    .name = "export",
    .parent = "profile",
    .summary = "print a profile as JSON",
    .usage = "NAME",
    .opts = export_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_PROFILE,
    .exec = profile_export_exec,
};

const struct cmd_entry cmd_profile_import_entry = {
    .name = "import",
    .parent = "profile",
    .summary = "create a profile from JSON (ours or the reference mirage's)",
    .usage = "FILE|-",
    .opts = import_opts,
    .min_args = 1,
    .max_args = 1,
    .arg_kind = ARG_FILE,
    .exec = profile_import_exec,
};
