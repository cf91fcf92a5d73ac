/*
 * `mirage profile copy SRC DST` and `mirage profile rename OLD NEW`: a profile under another
 * name, with every key and [env] entry kept.  Both hold the store lock from the load to the
 * last write, so a concurrent edit of either profile is never lost; neither overwrites an
 * existing profile unless --force.
 */
#include "command.h"
#include "msg.h"
#include "output.h"

#include "profile.h"
#include "profile_json.h"
#include "profile_store.h"

#include <stdlib.h>
#include <string.h>

enum copy_opt {
	COPY_FORCE,
	COPY_NOPTS
};
static const struct opt_spec copy_opts[COPY_NOPTS + 1] = {
    [COPY_FORCE] = {.name = "force",
                    .short_name = 'f',
                    .type = OPT_BOOL,
                    .help = "replace a profile of the new name"},
};

/* The profile typed as from, stored again as to (replacing with force); under the lock. */
static int copy_locked(const char *from, const char *to, bool force, bool remove_from,
                       struct profile *p, struct diag *err)
{
	int ret = profile_load_typed(from, p, err);

	if (ret)
		return ret == PROFILE_BAD_NAME ? EXIT_USAGE : EXIT_ERROR;
	if (profile_name_check(to, err) < 0)
		return EXIT_USAGE;
	if (!strcmp(p->name, to)) {
		diag_set(err, "'%s' and '%s' are the same profile", from, to);
		return EXIT_USAGE;
	}
	free(p->name);
	p->name = xstrdup(to);
	if ((force ? profile_save(p, err) : profile_create(p, err)) < 0) {
		struct diag ignored = DIAG_INIT;
		if (!force && profile_exists(to, &ignored) == 0)
			diag_hint(err, "pass --force to replace it");
		diag_release(&ignored);
		return EXIT_ERROR;
	}
	if (remove_from && profile_delete_held(from, err) < 0) {
		diag_hint(err, "profile '%s' was written; delete '%s' by hand", to, from);
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

static int copy_or_rename(const struct cmd_ctx *ctx, struct cmd_args *a, bool rename)
{
	const char *from = a->positional.v[0], *to = a->positional.v[1];
	struct profile_lock lock = PROFILE_LOCK_INIT;
	struct diag err = DIAG_INIT;
	struct profile p;
	int ret;

	if (profile_lock_store(&lock, PROFILE_LOCK_WAIT_MS, &err) < 0)
		return report_diag(&err, EXIT_ERROR);
	/* p is initialised by copy_locked's load, whatever it returns. */
	ret = copy_locked(from, to, args_bool(a, COPY_FORCE), rename, &p, &err);
	profile_unlock_store(&lock);
	if (ret != EXIT_OK) {
		profile_release(&p);
		return report_diag(&err, ret);
	}
	if (ctx->json) {
		output_json(profile_to_json(&p));
	} else {
		char *path = profile_path(p.name);
		print_text("%s profile '%s' as '%s' (%s)\n", rename ? "renamed" : "copied", from,
		           p.name, path);
		free(path);
	}
	profile_release(&p);
	return EXIT_OK;
}

static int profile_copy_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	return copy_or_rename(ctx, a, false);
}

static int profile_rename_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	return copy_or_rename(ctx, a, true);
}

const struct cmd_entry cmd_profile_copy_entry = {
    .name = "copy",
    .parent = "profile",
    .summary = "copy a profile to a new name",
    .usage = "SRC DST",
    .opts = copy_opts,
    .min_args = 2,
    .max_args = 2,
    .arg_kind = ARG_PROFILE,
    .exec = profile_copy_exec,
};

const struct cmd_entry cmd_profile_rename_entry = {
    .name = "rename",
    .parent = "profile",
    .summary = "rename a profile",
    .usage = "OLD NEW",
    .opts = copy_opts,
    .min_args = 2,
    .max_args = 2,
    .arg_kind = ARG_PROFILE,
    .exec = profile_rename_exec,
};
