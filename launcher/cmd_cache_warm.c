/*
 * `mirage cache warm PATH... --target T`: fills the translation cache before a job, so its
 * ranks start from hits.  Every gfx1250 code object found under the paths (code objects,
 * offload bundles, HIP programs and libraries with a .hip_fatbin, directories walked without
 * following links) is translated for T by the tree's rewriter and stored under the key the
 * intercept computes for it: the same route table (intercept/decide), the same key
 * (cache/cache_key.h), the same store and lock (cache/cache_disk.h).  --shard I/N takes the
 * objects whose input SHA-256 falls in part I of N, so N array tasks together do each object
 * once; --jobs N translates N objects at once, sharing the CPUs among their translations'
 * threads (HSA_HOTSWAP_JOBS, docs/translate.md).  --profile P takes the target, the strictness and
 * the cache directory from the profile, as `mirage run --profile P` hands them to the
 * intercept (an option given as well wins).  Bad paths and unreadable files are named and
 * skipped, and make the exit 1 at the end.
 */
#include "cache_cmd.h"
#include "msg.h"
#include "output.h"
#include "profile_store.h"
#include "progress.h"
#include "rewriter_input.h"
#include "translation_verdicts.h"

#include "bundle.h"
#include "cache_key.h"
#include "decide.h"
#include "elf_isa.h"
#include "gfx_table.h"
#include "hotswap_contract.h"
#include "read_whole.h"
#include "strbuf.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
	WARM_DIR = CACHE_DIR,
	WARM_TARGET,
	WARM_STRICT,
	WARM_ALL_KERNELS,
	WARM_JOBS,
	WARM_SHARD,
	WARM_PROFILE,
	WARM_NOPTS
};
static const struct opt_spec warm_opts[WARM_NOPTS + 1] = {
    CACHE_DIR_OPT,
    [WARM_TARGET] = {.name = "target",
                     .short_name = 't',
                     .type = OPT_STRING,
                     .arg_name = "ISA",
                     .help = "the GPU the job will run on: gfx942 or gfx950"},
    [WARM_STRICT] = {.name = "strict",
                     .type = OPT_BOOL,
                     .flags = OPT_NEGATABLE,
                     .help = "key the entries as a strict profile's workloads look them up",
                     .def = "true"},
    [WARM_ALL_KERNELS] = {.name = "all-kernels",
                          .type = OPT_BOOL,
                          .flags = OPT_NEGATABLE,
                          .help = "key the entries as a profile with all_kernels (a translation "
                                  "with a refused kernel is refused whole) looks them up"},
    [WARM_JOBS] = {.name = "jobs",
                   .short_name = 'j',
                   .type = OPT_STRING,
                   .arg_name = "N",
                   .help = "translate N objects at once (each on its share of the CPUs)",
                   .def = "1"},
    [WARM_SHARD] = {.name = "shard",
                    .type = OPT_STRING,
                    .arg_name = "I/N",
                    .help = "only part I of N (0 <= I < N), for one task of a job array"},
    [WARM_PROFILE] = {.name = "profile",
                      .short_name = 'p',
                      .type = OPT_PROFILE,
                      .help = "the target, strictness and cache directory `mirage run` gives the "
                              "profile's workloads"},
};

/* What a profile decides for the cache: its target, strictness and cache directory. */
struct warm_settings {
	const char *target; /* NULL: none given */
	bool strict;
	bool all_kernels;
	char *root; /* the cache root (malloc'ed) */
};

/*
 * The settings from --profile (when given), then the options given as well; 0, or the exit
 * code (said).
 */
static int warm_settings(const struct cmd_args *a, struct profile *p, struct warm_settings *ws)
{
	const char *name = args_str(a, WARM_PROFILE);
	struct diag err = DIAG_INIT;
	int code, rc;

	ws->target = args_str(a, WARM_TARGET);
	ws->strict = args_bool(a, WARM_STRICT);
	ws->all_kernels = args_bool(a, WARM_ALL_KERNELS);
	if (name) {
		profile_release(p); /* the load initialises it again */
		if ((code = profile_load_typed(name, p, &err)))
			return report_diag(&err,
			                   code == PROFILE_BAD_NAME ? EXIT_USAGE : EXIT_ERROR);
		if (!profile_is_hotswap(p))
			return usage_error("--profile: '%s' is not a HotSwap profile (its emulator "
			                   "is %s): no translation cache to warm",
			                   p->name, profile_get(p, PK_EMULATOR));
		if (!ws->target && !strcmp(profile_get(p, PK_TARGET), "auto")) {
			usage_error(
			    "--profile: '%s' has target auto, chosen from the GPU a job runs on; "
			    "say which with --target",
			    p->name);
			hint("mirage cache warm --profile %s --target gfx942 PATH...", p->name);
			return EXIT_USAGE;
		}
		if (!ws->target)
			ws->target = profile_get(p, PK_TARGET);
		if (!args_has(a, WARM_STRICT))
			ws->strict = profile_get_bool(p, PK_STRICT);
		if (!args_has(a, WARM_ALL_KERNELS))
			ws->all_kernels = profile_get_bool(p, PK_ALL_KERNELS);
		if (!args_has(a, CACHE_DIR) && *profile_get(p, PK_CACHE_DIR)) {
			if (!(ws->root = strdup(profile_get(p, PK_CACHE_DIR))))
				return error("out of memory");
			return 0;
		}
	}
	if (!(ws->root = cache_cmd_root(a, &rc)))
		return rc;
	return 0;
}

/* A file of code objects is small; past this it is not one (or is a planted sparse file). */
#define WARM_FILE_MAX (UINT64_C(1) << 30)

/* One code object to translate: where it came from and its bytes (inside a file's). */
struct unit {
	char *origin;
	const uint8_t *data;
	size_t size;
	/* Filled by the worker. */
	const char *status; /* translated | cached | refused | other-shard | skipped */
	char why[800];
	char key[HSI_SHA_HEX];
	uint32_t kernels;
};

struct warm {
	const struct cmd_ctx *ctx;
	struct rewriter_dl rw;
	struct hsi_disk disk;
	struct hsi_config cfg;
	const char *target;
	unsigned shard, shards;
	struct unit *u;
	size_t n, cap;
	void **files; /* every file's bytes, freed at the end */
	size_t nfiles;
	unsigned bad; /* paths named and skipped */
	atomic_size_t next;
	/* The terminal's status line (progress_wanted): how many are done, redrawn in place. */
	bool progress;
	pthread_mutex_t progress_lock;
	size_t done;
	struct timespec drawn;
};

static int add_unit(struct warm *w, const char *origin, const uint8_t *data, size_t size)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 64;
		struct unit *grown = realloc(w->u, cap * sizeof(*grown));
		if (!grown)
			return -1;
		w->u = grown;
		w->cap = cap;
	}
	w->u[w->n] = (struct unit){.origin = strdup(origin), .data = data, .size = size};
	if (!w->u[w->n].origin)
		return -1;
	w->n++;
	return 0;
}

/* Keeps a decompressed bundle's bytes (its entries point into them) to the end; 0 or -1. */
static int keep(struct warm *w, struct cob_bundle *b)
{
	void **grown;

	if (!b->owned)
		return 0;
	grown = realloc(w->files, (w->nfiles + 1) * sizeof(*w->files));
	if (!grown)
		return -1;
	w->files = grown;
	w->files[w->nfiles++] = b->owned;
	b->owned = NULL;
	return 0;
}

/* The amdgcn entries of one bundle, unless it has one for the target (left alone). */
static void add_bundle(struct warm *w, const char *path, const struct cob_bundle *b, size_t nb)
{
	size_t tlen = strlen(w->target);
	char origin[4400];

	for (size_t i = 0; i < b->n; i++)
		if (cob_entry_is_amdgcn(&b->e[i]) && !strncmp(b->e[i].target, w->target, tlen) &&
		    (!b->e[i].target[tlen] || b->e[i].target[tlen] == ':')) {
			note("%s: bundle %zu has an entry for %s, left alone as the HIP hooks "
			     "leave it",
			     path, nb, w->target);
			return;
		}
	for (size_t i = 0; i < b->n; i++) {
		if (!cob_entry_is_amdgcn(&b->e[i]) || !b->e[i].size)
			continue;
		snprintf(origin, sizeof(origin), "%s (bundle %zu, %s)", path, nb, b->e[i].id);
		if (add_unit(w, origin, b->e[i].data, b->e[i].size) < 0)
			w->bad++;
	}
}

/*
 * The code objects of one file's bytes.  named: the user named the file itself, so a file
 * that holds none is said (in a directory it is only passed over).
 */
static void add_file(struct warm *w, const char *path, uint8_t *bytes, size_t size, bool named)
{
	struct cob_bundle b = COB_BUNDLE_INIT;
	const uint8_t *sec;
	size_t sec_size, off = 0, nb = 0;
	char *err = NULL;
	int rc;

	if (cob_elf_is_amdgpu(bytes, size)) {
		if (add_unit(w, path, bytes, size) < 0)
			w->bad++;
		return;
	}
	if (cob_is_bundle(bytes, size)) {
		if (cob_bundle_read(bytes, size, &b, &err) < 0) {
			warning("%s: skipped: %s", path, err ? err : "out of memory");
			w->bad++;
		} else {
			if (keep(w, &b) < 0)
				w->bad++;
			else
				add_bundle(w, path, &b, 0);
		}
		free(err);
		cob_bundle_free(&b);
		return;
	}
	rc = size >= SELFMAG && !memcmp(bytes, ELFMAG, SELFMAG)
	         ? cob_find_hip_fatbin(bytes, size, &sec, &sec_size, &err)
	         : 0;
	if (rc < 0) {
		warning("%s: skipped: %s", path, err ? err : "out of memory");
		free(err);
		w->bad++;
		return;
	}
	if (rc == 0) {
		if (named)
			warning(
			    "%s: skipped: not a code object, an offload bundle or a HIP program",
			    path);
		return;
	}
	for (;;) {
		rc = cob_fatbin_next(sec, sec_size, &off, &b, &err);
		if (rc <= 0)
			break;
		if (keep(w, &b) < 0)
			w->bad++;
		else
			add_bundle(w, path, &b, nb);
		nb++;
		cob_bundle_free(&b);
	}
	if (rc < 0) {
		warning("%s: the rest of its .hip_fatbin skipped: %s", path,
		        err ? err : "out of memory");
		w->bad++;
	}
	free(err);
}

/* Reads one regular file (never blocking on a FIFO, at most WARM_FILE_MAX): kept to the end. */
static void read_file(struct warm *w, int at, const char *name, const char *path, bool named)
{
	/* Inside a directory the walk's stat did not follow a link; neither does the open. */
	int fd = openat(at, name,
	                O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (named ? 0 : O_NOFOLLOW));
	void **grown;
	size_t size;
	void *bytes;

	if (fd < 0) {
		warning("%s: skipped: %s", path, strerror(errno));
		w->bad++;
		return;
	}
	bytes = read_whole_fd_max(fd, WARM_FILE_MAX, &size);
	close(fd);
	if (!bytes) {
		warning("%s: skipped: %s", path,
		        errno == EINVAL  ? "not a regular file"
		        : errno == EFBIG ? "larger than 1 GiB"
		                         : strerror(errno));
		w->bad++;
		return;
	}
	grown = realloc(w->files, (w->nfiles + 1) * sizeof(*w->files));
	if (!grown) {
		free(bytes);
		w->bad++;
		return;
	}
	w->files = grown;
	w->files[w->nfiles++] = bytes;
	add_file(w, path, bytes, size, named);
}

/* A path the user gave: a file, or a directory walked without following links. */
static void walk(struct warm *w, int at, const char *name, const char *path, bool named)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	int fd;

	/* A named path may be a link; inside a directory, links are never followed. */
	if (fstatat(at, name, &st, named ? 0 : AT_SYMLINK_NOFOLLOW) < 0) {
		warning("%s: skipped: %s", path, strerror(errno));
		w->bad++;
		return;
	}
	if (S_ISREG(st.st_mode)) {
		read_file(w, at, name, path, named);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (named) {
			warning("%s: skipped: not a regular file or a directory", path);
			w->bad++;
		}
		return;
	}
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (named ? 0 : O_NOFOLLOW));
	if (fd < 0 || !(d = fdopendir(fd))) {
		warning("%s: skipped: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		w->bad++;
		return;
	}
	while ((de = readdir(d))) {
		struct strbuf sub = STRBUF_INIT;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_addf(&sub, "%s/%s", path, de->d_name);
		walk(w, dirfd(d), de->d_name, sub.buf, false);
		strbuf_release(&sub);
	}
	closedir(d);
}

/* The part of the work an input falls in: its SHA-256, not its path or its order. */
static unsigned shard_of(const char *in_hex, unsigned shards)
{
	return (unsigned)(strtoull((char[9]){in_hex[0], in_hex[1], in_hex[2], in_hex[3], in_hex[4],
	                                     in_hex[5], in_hex[6], in_hex[7], 0},
	                           NULL, 16) %
	                  shards);
}

static void translate_unit(struct warm *w, struct unit *u)
{
	struct hsi_agent_facts agent = {0};
	struct hsi_object_facts obj;
	struct hsi_decision d;
	struct hsi_cache_key k;
	struct hsi_blob blob;
	char why[512];
	unsigned waited;
	int lock_fd = -1;

	if (w->rw.code_object_isa(u->data, u->size, obj.isa, sizeof(obj.isa), obj.proc,
	                          sizeof(obj.proc)) != HS_OK) {
		u->status = "skipped";
		snprintf(u->why, sizeof(u->why), "no readable ISA: %s", w->rw.last_error());
		return;
	}
	snprintf(agent.gfx, sizeof(agent.gfx), "%s", w->target);
	hsi_decide(&w->cfg, &agent, &obj, &d);
	if (!d.translate) {
		u->status = "skipped";
		snprintf(u->why, sizeof(u->why), "%s code: %s", obj.proc, d.why);
		return;
	}
	const char *src_key = d.source_isa ? d.source_isa : obj.isa;
	const char *tgt_key = d.target_isa ? d.target_isa : src_key;
	if (hsi_cache_key(u->data, u->size, src_key, tgt_key, d.flags, w->rw.build_identity(), &k) <
	    0) {
		u->status = "refused";
		snprintf(u->why, sizeof(u->why), "cannot hash it");
		return;
	}
	memcpy(u->key, k.key_hex, sizeof(u->key));
	if (w->shards > 1 && shard_of(k.in_hex, w->shards) != w->shard) {
		u->status = "other-shard";
		return;
	}
	if (hsi_disk_lookup(&w->disk, k.key_hex, w->rw.version(), &blob, why, sizeof(why)) ==
	        HSI_DISK_HIT ||
	    hsi_disk_lock(&w->disk, k.key_hex, w->rw.version(), hsi_disk_lock_timeout_ms(),
	                  &lock_fd, &blob, &waited, why, sizeof(why)) == HSI_DISK_SERVED) {
		u->status = "cached";
		u->kernels = blob.kernels;
		free((void *)blob.data);
		free((void *)blob.refused);
		return;
	}
	struct hs_rewrite_result *verdicts = NULL;
	HS_OPTS(hs_rewrite_opts, opts, .flags = d.flags,
	        .result = w->rw.result_kernels ? &verdicts : NULL);
	struct hs_rewrite_report report = {.sz = sizeof(report)};
	struct hs_rewrite_output out = {0};
	enum hs_status st =
	    w->rw.rewrite(u->data, u->size, d.source_isa, d.target_isa, &opts, &out, &report);
	char *refused = st == HS_OK && report.reason == HS_REASON_PARTIAL
	                    ? refusal_text(&w->rw, verdicts)
	                    : NULL;
	if (verdicts)
		w->rw.result_free(verdicts);
	if (st != HS_OK) {
		const char *m = report.message[0] ? report.message : w->rw.last_error();
		u->status = "refused";
		snprintf(u->why, sizeof(u->why), "%s (%s)", m && *m ? m : "no reason given",
		         w->rw.status_str(st));
		hsi_disk_unlock(lock_fd);
		return;
	}
	struct hsi_blob made = {out.data, out.size, report.kernels, refused};
	struct hsi_disk_meta meta = {
	    .input_sha256 = k.in_hex,
	    .input_size = u->size,
	    .source_isa = src_key,
	    .target_isa = tgt_key,
	    .flags = d.flags,
	    .rewriter_version = w->rw.version(),
	    .rewriter_build = w->rw.build_identity(),
	    .kernels = report.kernels,
	    .refused = refused,
	};
	if (hsi_disk_store(&w->disk, k.key_hex, &made, &meta, why, sizeof(why)) < 0) {
		u->status = "refused";
		snprintf(u->why, sizeof(u->why), "translated, but not stored: %s", why);
	} else {
		/* Stored either way; a partial one says which kernels trap (the report's note). */
		u->status = refused ? "partial" : "translated";
		if (refused)
			snprintf(u->why, sizeof(u->why), "%s", report.message);
		u->kernels = report.kernels;
	}
	hsi_disk_unlock(lock_fd);
	w->rw.output_release(&out);
	free(refused);
}

/* "mirage: warm: 3 of 40 code objects (1 translated)" on stderr, at most every 200 ms. */
static void draw_progress(struct warm *w, bool last)
{
	struct timespec now;
	size_t translated = 0;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!last &&
	    (now.tv_sec - w->drawn.tv_sec) * 1000 + (now.tv_nsec - w->drawn.tv_nsec) / 1000000 <
	        200)
		return;
	w->drawn = now;
	for (size_t i = 0; i < w->n; i++)
		translated += w->u[i].status && !strcmp(w->u[i].status, "translated");
	fprintf(stderr, "\rmirage: warm: %zu of %zu code objects (%zu translated)%s", w->done, w->n,
	        translated, last ? "\n" : "");
	fflush(stderr);
}

static void *worker(void *arg)
{
	struct warm *w = arg;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n) {
		translate_unit(w, &w->u[i]);
		if (w->progress) {
			pthread_mutex_lock(&w->progress_lock);
			w->done++;
			draw_progress(w, false);
			pthread_mutex_unlock(&w->progress_lock);
		}
	}
	return NULL;
}

/* "I/N": 0 <= I < N; 0 or -1. */
static int parse_shard(const char *s, unsigned *i, unsigned *n)
{
	char tail;
	return sscanf(s, "%u/%u%c", i, n, &tail) == 2 && *n >= 1 && *i < *n && s[0] != '-' ? 0 : -1;
}

/* N objects at once: each translation gets its share of the CPUs this process may use as its
 * threads (HSA_HOTSWAP_JOBS, read by the translator), unless the user set that. */
static void share_cpus(unsigned objects)
{
	cpu_set_t set;
	char v[16];
	int cpus;

	if (objects < 2 || getenv(HOTSWAP_ENV_JOBS) || sched_getaffinity(0, sizeof(set), &set))
		return;
	cpus = CPU_COUNT(&set);
	snprintf(v, sizeof(v), "%u", cpus > (int)objects ? (unsigned)cpus / objects : 1u);
	setenv(HOTSWAP_ENV_JOBS, v, 1);
}

static int parse_jobs(const char *s, unsigned *jobs)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || end == s || s[0] == '-' || v < 1 || v > 256)
		return -1;
	*jobs = (unsigned)v;
	return 0;
}

static void report(struct warm *w)
{
	static const char *const kinds[] = {"translated", "partial", "cached",
	                                    "refused",    "skipped", "other-shard"};
	enum {
		NKINDS = sizeof(kinds) / sizeof(kinds[0])
	};
	size_t count[NKINDS] = {0};

	for (size_t i = 0; i < w->n; i++)
		for (size_t k = 0; k < NKINDS; k++)
			if (w->u[i].status && !strcmp(w->u[i].status, kinds[k]))
				count[k]++;
	if (w->ctx->json) {
		cJSON *doc = cJSON_CreateObject(), *arr = cJSON_CreateArray();
		cJSON_AddStringToObject(doc, "target", w->target);
		for (size_t i = 0; i < w->n; i++) {
			const struct unit *u = &w->u[i];
			cJSON *o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "origin", u->origin);
			cJSON_AddStringToObject(o, "status", u->status ? u->status : "skipped");
			if (u->key[0])
				cJSON_AddStringToObject(o, "key", u->key);
			if (u->why[0])
				cJSON_AddStringToObject(o, "reason", u->why);
			if (u->kernels)
				cJSON_AddNumberToObject(o, "kernels", u->kernels);
			cJSON_AddItemToArray(arr, o);
		}
		cJSON_AddItemToObject(doc, "objects", arr);
		for (size_t k = 0; k < NKINDS; k++)
			cJSON_AddNumberToObject(doc, kinds[k], (double)count[k]);
		cJSON_AddNumberToObject(doc, "paths_skipped", w->bad);
		output_json(doc);
		return;
	}
	for (size_t i = 0; i < w->n; i++) {
		const struct unit *u = &w->u[i];
		if (!u->status || !strcmp(u->status, "other-shard"))
			continue;
		if (u->why[0])
			print_text("%-10s %s: %s\n", u->status, u->origin, u->why);
		else
			print_text("%-10s %s (%u kernels)\n", u->status, u->origin, u->kernels);
	}
	print_text(
	    "warm: %zu code objects for %s: %zu translated, %zu partially (refused kernels trap), "
	    "%zu already cached, %zu refused, %zu skipped, %zu in other shards; %u paths skipped\n",
	    w->n, w->target, count[0], count[1], count[2], count[3], count[4], count[5], w->bad);
}

static int cache_warm_exec(const struct cmd_ctx *ctx, struct cmd_args *a)
{
	const char *shard = args_str(a, WARM_SHARD);
	struct warm_settings ws = {0};
	struct profile p;
	const struct gfx_info *g;
	struct warm w = {.ctx = ctx,
	                 .disk = {-1},
	                 .shards = 1,
	                 .progress = progress_wanted(ctx->json),
	                 .progress_lock = PTHREAD_MUTEX_INITIALIZER};
	unsigned jobs = 1;
	pthread_t threads[256];
	char *root = NULL;
	int ret = -1;

	profile_init(&p, "");
	if (shard && parse_shard(shard, &w.shard, &w.shards) < 0) {
		ret = usage_error("--shard: '%s' is not I/N with 0 <= I < N", shard);
		goto early;
	}
	if (args_str(a, WARM_JOBS) && parse_jobs(args_str(a, WARM_JOBS), &jobs) < 0) {
		ret = usage_error("--jobs: '%s' is not a number from 1 to 256",
		                  args_str(a, WARM_JOBS));
		goto early;
	}
	if ((ret = warm_settings(a, &p, &ws)))
		goto early;
	root = ws.root;
	ret = -1;
	g = ws.target ? gfx_by_name(ws.target) : NULL;
	if (!ws.target) {
		ret =
		    usage_error("cache warm: --target ISA (gfx942 or gfx950) or --profile NAME is "
		                "required");
		goto early;
	}
	if (!g || g->retarget != GFX_RETARGET_CROSS) {
		ret = usage_error("%s: '%s' is not a translation target (gfx942 or gfx950)",
		                  args_str(a, WARM_TARGET) ? "--target" : "the profile's target",
		                  ws.target);
		goto early;
	}
	w.target = g->name;
	/* The decision a workload under `mirage run --profile P` (target T) makes. */
	w.cfg.strict = ws.strict;
	w.cfg.all_kernels = ws.all_kernels;
	w.cfg.stepping = HSI_STEP_UNKNOWN;
	snprintf(w.cfg.isa_override, sizeof(w.cfg.isa_override), "%s", g->name);
	if (load_rewriter(ctx, &w.rw) < 0)
		goto early;
	if (!w.rw.code_object_isa || !w.rw.build_identity) {
		error("the tree's rewriter (%s) is too old to key a cache entry", w.rw.path);
		goto out;
	}
	if (cache_cmd_open(root, true, &w.disk) < 0)
		goto out;
	for (size_t i = 0; i < a->positional.nr; i++)
		walk(&w, AT_FDCWD, a->positional.v[i], a->positional.v[i], true);
	if (jobs > w.n)
		jobs = w.n ? (unsigned)w.n : 1;
	share_cpus(jobs);
	for (unsigned t = 1; t < jobs; t++)
		if (pthread_create(&threads[t], NULL, worker, &w)) {
			jobs = t;
			break;
		}
	worker(&w);
	for (unsigned t = 1; t < jobs; t++)
		pthread_join(threads[t], NULL);
	if (w.progress && w.n)
		draw_progress(&w, true);
	report(&w);
	ret = w.bad ? error("%u path%s skipped (named above)", w.bad, w.bad == 1 ? "" : "s")
	            : EXIT_OK;
out:
	for (size_t i = 0; i < w.n; i++)
		free(w.u[i].origin);
	free(w.u);
	for (size_t i = 0; i < w.nfiles; i++)
		free(w.files[i]);
	free(w.files);
	hsi_disk_close(&w.disk);
	rewriter_dl_close(&w.rw);
early:
	free(root);
	profile_release(&p);
	return ret;
}

const struct cmd_entry cmd_cache_warm_entry = {
    .name = "warm",
    .parent = "cache",
    .summary = "translate every gfx1250 code object under PATHs into the cache, before a job",
    .usage = "PATH...",
    .opts = warm_opts,
    .min_args = 1,
    .max_args = -1,
    .arg_kind = ARG_FILE,
    .exec = cache_warm_exec,
};
