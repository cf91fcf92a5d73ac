/*
 * `mirage cache stats|verify|prune|clear`: the translation cache the intercept reads and
 * writes (cache/cache_disk.h: one format, one set of trust rules), counted, checked, pruned
 * and emptied.  The root is --dir, else where `mirage run` puts it by default
 * (`mirage paths`).  A root that does not exist yet is an empty cache; one that breaks the
 * trust rules is refused, as the intercept bypasses it.
 */
#include "cache_cmd.h"
#include "msg.h"
#include "output.h"

#include "config_paths.h"
#include "human_size.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

enum {
	DIR_ONLY_DIR = CACHE_DIR,
	DIR_ONLY_NOPTS
};
static const struct opt_spec dir_opts[DIR_ONLY_NOPTS + 1] = {CACHE_DIR_OPT};

enum {
	VERIFY_DIR = CACHE_DIR,
	VERIFY_FIX,
	VERIFY_NOPTS
};
static const struct opt_spec verify_opts[VERIFY_NOPTS + 1] = {
    CACHE_DIR_OPT,
    [VERIFY_FIX] = {.name = "fix", .type = OPT_BOOL, .help = "remove the entries that fail"},
};

enum {
	PRUNE_DIR = CACHE_DIR,
	PRUNE_MAX_SIZE,
	PRUNE_OLDER_THAN,
	PRUNE_NOPTS
};
static const struct opt_spec prune_opts[PRUNE_NOPTS + 1] = {
    CACHE_DIR_OPT,
    [PRUNE_MAX_SIZE] = {.name = "max-size",
                        .type = OPT_STRING,
                        .arg_name = "SIZE",
                        .help = "remove the oldest entries until the rest fit in SIZE (4G, "
                                "500MiB)"},
    [PRUNE_OLDER_THAN] = {.name = "older-than",
                          .type = OPT_STRING,
                          .arg_name = "AGE",
                          .help = "remove the entries stored more than AGE ago (30d, 12h, 90m, "
                                  "600s)"},
};

char *cache_cmd_root(const struct cmd_args *a, int *rc)
{
	const char *dir = args_str(a, CACHE_DIR);
	char *root;

	if (dir && !*dir) {
		*rc = usage_error("--dir: an empty directory name");
		return NULL;
	}
	root = dir ? strdup(dir) : mirage_translation_cache_dir();
	if (!root)
		*rc = error(
		    "no translation cache: neither XDG_CACHE_HOME nor HOME is an absolute path");
	return root;
}

int cache_cmd_open(const char *root, bool create, struct hsi_disk *disk)
{
	char why[700];
	struct stat st;

	disk->fd = -1;
	if (!create && lstat(root, &st) < 0 && errno == ENOENT)
		return 0;
	if (hsi_disk_open(disk, root, why, sizeof(why)) < 0) {
		error("%s", why);
		hint("the intercept bypasses such a cache too; give it to yourself (chmod go-w, "
		     "chown) or use another with --dir");
		return -1;
	}
	return 1;
}

/* Every entry, in memory, oldest first. */
struct entries {
	struct hsi_disk_entry *e;
	size_t n, cap;
	unsigned skipped; /* shards left out (the trust rules) */
	char why[300];
};

static int collect(const struct hsi_disk_entry *e, void *ctx)
{
	struct entries *l = ctx;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		struct hsi_disk_entry *grown = realloc(l->e, cap * sizeof(*grown));
		if (!grown)
			return -1;
		l->e = grown;
		l->cap = cap;
	}
	l->e[l->n++] = *e;
	return 0;
}

static int by_age(const void *x, const void *y)
{
	const struct hsi_disk_entry *a = x, *b = y;
	return a->mtime < b->mtime ? -1 : a->mtime > b->mtime ? 1 : strcmp(a->key, b->key);
}

/* The entries of an open root: 0, or -1 said. */
static int list_entries(const struct hsi_disk *disk, struct entries *l)
{
	int rc = hsi_disk_each(disk, collect, l, &l->skipped, l->why, sizeof(l->why));
	if (rc < 0)
		return error("%s", l->why[0] ? l->why : "out of memory listing the cache");
	if (l->skipped)
		warning("%u shard(s) left out: %s", l->skipped, l->why);
	if (l->n)
		qsort(l->e, l->n, sizeof(*l->e), by_age);
	return 0;
}

/*
 * Opens the root and lists it; 1 with entries, 0 no cache yet, else the command's exit (the
 * failure said): -1 or EXIT_USAGE.
 */
static int load(const struct cmd_args *a, char **root, struct hsi_disk *disk, struct entries *l)
{
	int open, rc = -1;

	*root = cache_cmd_root(a, &rc);
	if (!*root)
		return rc;
	open = cache_cmd_open(*root, false, disk);
	if (open <= 0)
		return open;
	return list_entries(disk, l) < 0 ? -1 : 1;
}

static void release(char *root, struct hsi_disk *disk, struct entries *l)
{
	free(root);
	hsi_disk_close(disk);
	free(l->e);
}

/* ---- stats ---- */

struct per_target {
	const char *isa;
	size_t entries;
	uint64_t bytes;
};

static int cache_stats_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct hsi_disk disk = {-1};
	struct entries l = {0};
	struct per_target *t = NULL;
	size_t nt = 0;
	uint64_t total = 0;
	char *root, size[HUMAN_SIZE_LEN];
	int rc = load(a, &root, &disk, &l);

	if (rc != 0 && rc != 1) {
		release(root, &disk, &l);
		return rc;
	}
	t = calloc(l.n ? l.n : 1, sizeof(*t));
	if (!t) {
		release(root, &disk, &l);
		return error("out of memory");
	}
	for (size_t i = 0; i < l.n; i++) {
		const char *isa =
		    l.e[i].target_isa[0] ? l.e[i].target_isa : "(no readable sidecar)";
		size_t j = 0;
		while (j < nt && strcmp(t[j].isa, isa))
			j++;
		if (j == nt)
			t[nt++].isa = isa;
		t[j].entries++;
		t[j].bytes += l.e[i].size;
		total += l.e[i].size;
	}
	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject(), *by = NULL;
		cJSON_AddStringToObject(doc, "root", root);
		cJSON_AddBoolToObject(doc, "exists", rc > 0);
		cJSON_AddNumberToObject(doc, "entries", (double)l.n);
		cJSON_AddNumberToObject(doc, "bytes", (double)total);
		cJSON_AddNumberToObject(doc, "shards_left_out", l.skipped);
		by = cJSON_AddObjectToObject(doc, "by_target");
		for (size_t j = 0; j < nt; j++) {
			cJSON *o = cJSON_AddObjectToObject(by, t[j].isa);
			cJSON_AddNumberToObject(o, "entries", (double)t[j].entries);
			cJSON_AddNumberToObject(o, "bytes", (double)t[j].bytes);
		}
		output_json(doc);
	} else {
		print_text("cache:   %s%s\n", root, rc > 0 ? "" : " (not created yet)");
		print_text("entries: %zu, %s\n", l.n, human_size_format(total, size));
		for (size_t j = 0; j < nt; j++)
			print_text("  %s: %zu, %s\n", t[j].isa, t[j].entries,
			           human_size_format(t[j].bytes, size));
	}
	free(t);
	release(root, &disk, &l);
	return EXIT_OK;
}

/* ---- verify ---- */

static int cache_verify_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct hsi_disk disk = {-1};
	struct entries l = {0};
	cJSON *doc = NULL, *bad_list = NULL;
	size_t bad = 0, removed = 0;
	bool fix = args_bool(a, VERIFY_FIX);
	char *root;
	int rc = load(a, &root, &disk, &l);

	if (rc != 0 && rc != 1) {
		release(root, &disk, &l);
		return rc;
	}
	if (ctx->json) {
		doc = cJSON_CreateObject();
		bad_list = cJSON_CreateArray();
	}
	for (size_t i = 0; i < l.n; i++) {
		char why[700];
		bool gone;
		if (hsi_disk_verify(&disk, l.e[i].key, why, sizeof(why)) == 0)
			continue;
		bad++;
		gone = fix && hsi_disk_remove(&disk, l.e[i].key) == 0;
		removed += gone;
		if (doc) {
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "key", l.e[i].key);
			cJSON_AddStringToObject(o, "reason", why);
			cJSON_AddBoolToObject(o, "removed", gone);
			cJSON_AddItemToArray(bad_list, o);
		} else {
			print_text("bad: %.16s: %s%s\n", l.e[i].key, why, gone ? " (removed)" : "");
		}
	}
	if (doc) {
		cJSON_AddStringToObject(doc, "root", root);
		cJSON_AddNumberToObject(doc, "entries", (double)l.n);
		cJSON_AddNumberToObject(doc, "good", (double)(l.n - bad));
		cJSON_AddItemToObject(doc, "bad", bad_list);
		output_json(doc);
	} else {
		print_text("%zu entries: %zu good, %zu bad%s\n", l.n, l.n - bad, bad,
		           bad && !fix ? " (--fix removes them)" : "");
	}
	release(root, &disk, &l);
	/* What a check is for: a bad entry left in place is a failure. */
	return bad > removed ? error("%zu bad entr%s left in the cache", bad - removed,
	                             bad - removed == 1 ? "y" : "ies")
	                     : EXIT_OK;
}

/* ---- prune ---- */

/* "30d", "12h", "90m", "600s" or plain seconds: 0 and *out, or -1. */
static int parse_age(const char *s, time_t *out)
{
	char *end;
	unsigned long long v;
	unsigned long long unit = 1;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || errno || s[0] == '-')
		return -1;
	if (*end == 'd')
		unit = 86400;
	else if (*end == 'h')
		unit = 3600;
	else if (*end == 'm')
		unit = 60;
	else if (*end == 's' || !*end)
		unit = 1;
	else
		return -1;
	if (*end && end[1])
		return -1;
	if (v > (unsigned long long)100 * 365 * 86400 / unit)
		return -1;
	*out = (time_t)(v * unit);
	return 0;
}

static int cache_prune_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *max_s = args_str(a, PRUNE_MAX_SIZE), *age_s = args_str(a, PRUNE_OLDER_THAN);
	struct hsi_disk disk = {-1};
	struct entries l = {0};
	uint64_t max = 0, total = 0, freed = 0;
	time_t age = 0, now = time(NULL);
	size_t removed = 0, failed = 0;
	char *root = NULL, size[HUMAN_SIZE_LEN], size2[HUMAN_SIZE_LEN];
	int rc;

	if (!max_s && !age_s)
		return usage_error("cache prune: give --max-size SIZE, --older-than AGE, or both");
	if (max_s && human_size_parse(max_s, &max) < 0) {
		usage_error("--max-size: '%s' is not a size", max_s);
		hint("a number of bytes, or with K, M, G or T: 4G, 500MiB");
		return EXIT_USAGE;
	}
	if (age_s && parse_age(age_s, &age) < 0) {
		usage_error("--older-than: '%s' is not an age", age_s);
		hint("a number with d, h, m or s: 30d, 12h, 90m, 600s");
		return EXIT_USAGE;
	}
	rc = load(a, &root, &disk, &l);
	if (rc != 0 && rc != 1) {
		release(root, &disk, &l);
		return rc;
	}
	for (size_t i = 0; i < l.n; i++)
		total += l.e[i].size;
	/* Oldest first: by age, then until the rest fit. */
	for (size_t i = 0; i < l.n; i++) {
		bool old = age_s && now - l.e[i].mtime > age;
		bool over = max_s && total - freed > max;
		if (!old && !over)
			continue;
		if (hsi_disk_remove(&disk, l.e[i].key) < 0) {
			failed++;
			warning("cannot remove the entry %.16s: %s", l.e[i].key, strerror(errno));
			continue;
		}
		removed++;
		freed += l.e[i].size;
	}
	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "root", root);
		cJSON_AddNumberToObject(doc, "removed", (double)removed);
		cJSON_AddNumberToObject(doc, "bytes_freed", (double)freed);
		cJSON_AddNumberToObject(doc, "entries_left", (double)(l.n - removed));
		cJSON_AddNumberToObject(doc, "bytes_left", (double)(total - freed));
		output_json(doc);
	} else {
		print_text("removed %zu of %zu entries (%s); %s left\n", removed, l.n,
		           human_size_format(freed, size), human_size_format(total - freed, size2));
	}
	release(root, &disk, &l);
	return failed ? error("%zu entr%s could not be removed", failed, failed == 1 ? "y" : "ies")
	              : EXIT_OK;
}

/* ---- clear ---- */

static int cache_clear_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	struct hsi_disk disk = {-1};
	char why[700] = "";
	long removed = 0;
	int open, rc = -1;
	char *root = cache_cmd_root(a, &rc);

	if (!root)
		return rc;
	open = cache_cmd_open(root, false, &disk);
	if (open > 0 && (removed = hsi_disk_clear(&disk, why, sizeof(why))) < 0) {
		hsi_disk_close(&disk);
		free(root);
		return error("%s", why);
	}
	if (ctx->json) {
		cJSON *doc = cJSON_CreateObject();
		cJSON_AddStringToObject(doc, "root", root);
		cJSON_AddNumberToObject(doc, "files_removed", (double)(open > 0 ? removed : 0));
		output_json(doc);
	} else if (open >= 0) {
		print_text("removed %ld file%s from %s\n", removed, removed == 1 ? "" : "s", root);
	}
	hsi_disk_close(&disk);
	free(root);
	return open < 0 ? -1 : EXIT_OK;
}

const struct cmd_entry cmd_cache_entry = {
    .name = "cache",
    .summary = "count, check, prune and clear the translation cache",
    .flags = CMD_GROUP,
};

const struct cmd_entry cmd_cache_stats_entry = {
    .name = "stats",
    .parent = "cache",
    .summary = "entries and bytes of the translation cache, by target",
    .opts = dir_opts,
    .exec = cache_stats_exec,
};

const struct cmd_entry cmd_cache_verify_entry = {
    .name = "verify",
    .parent = "cache",
    .summary = "check every entry against its sidecar (exit 1 if one fails)",
    .opts = verify_opts,
    .exec = cache_verify_exec,
};

const struct cmd_entry cmd_cache_prune_entry = {
    .name = "prune",
    .parent = "cache",
    .summary = "remove entries by age or until the cache fits a size, oldest first",
    .opts = prune_opts,
    .exec = cache_prune_exec,
};

const struct cmd_entry cmd_cache_clear_entry = {
    .name = "clear",
    .parent = "cache",
    .summary = "remove every entry, lock and leftover of the translation cache",
    .opts = dir_opts,
    .exec = cache_clear_exec,
};
