/* Cache key, cache tiers and the call into libhotswap_rewrite for one load. */
#include "rewrite_load.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hotswap/rewrite.h>

#include "cache_disk.h"
#include "cache_key.h"
#include "hotswap_contract.h"
#include "log.h"
#include "refusal.h"
#include "rewriter.h"
#include "sha.h"
#include "truthy.h"

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static bool cache_debug;
static char *disk_root;             /* NULL: disk tier off */
static struct hsi_disk disk = {-1}; /* the verified root; fd -1 when bypassed */
static char disk_why[640];          /* why the root is bypassed */
static unsigned lock_timeout_ms;    /* HSA_HOTSWAP_CACHE_LOCK_TIMEOUT */

static void read_env(void)
{
	cache_debug = env_flag(HOTSWAP_ENV_CACHE_DEBUG);
	disk_root = hsi_disk_root();
	lock_timeout_ms = hsi_disk_lock_timeout_ms();
	/* Once per process: every entry is then reached relative to the verified root. */
	if (disk_root && hsi_disk_open(&disk, disk_root, disk_why, sizeof(disk_why)) < 0)
		hsi_info("translation cache not used: %s", disk_why);
}

struct job {
	const void *in;
	size_t in_size;
	const struct hsi_object_facts *obj;
	const struct hsi_decision *d;
	const char *uri;
	const struct hsi_disk_place *place;
	const char *src_key, *tgt_key;
	char key_hex[HSI_SHA_HEX];
	char in_hex[HSI_SHA_HEX];
	const char *status; /* set by the producer: disabled | miss | hit | invalid | bypassed */
	char why[640];      /* why an entry was invalid or the cache bypassed ("" when not) */
};

/*
 * One warning per kernel the translator refused, naming it and why: the load is refused (or,
 * for a partial translation, loaded with that kernel trapping), and the line is what the user
 * reads instead of the runtime's bare "incompatible ISA".  Returns the refusal sentences, one
 * a line, for the cache entry (malloc'ed; NULL when none or out of memory).
 */
static char *warn_refusals(const struct job *j, const struct hsi_rewriter *rw,
                           const struct hs_rewrite_result *res)
{
	char *lines = NULL;

	for (size_t i = 0; i < rw->result_kernels(res); i++) {
		HS_OPTS(hs_kernel_result, k);
		char line[REFUSAL_MAX];
		const char *added;
		if (rw->result_kernel(res, i, &k) != HS_OK || k.translated)
			continue;
		const struct refusal r = {
		    k.name,           k.refused_offset,      k.refused_mnemonic,
		    k.refused_reason, k.refused_reason_text, k.refused_detail};
		added = refusal_lines_add(&lines, &r);
		if (!added)
			refusal_format(line, sizeof(line), &r);
		hsi_warn("%s: for %s, %s", j->uri, j->d->tgt_name, added ? added : line);
	}
	return lines;
}

/* What a partial translation's load says, once, after its refusals. */
static void warn_partial(const struct job *j, uint32_t refused, uint32_t kernels)
{
	hsi_warn("%s: loading the %s translation with %" PRIu32 " of %" PRIu32
	         " kernels refused, each an entry that traps: a launch of one stops the program "
	         "(" HOTSWAP_ENV_ALL_KERNELS "=1 refuses the whole object instead)",
	         j->uri, j->d->tgt_name, refused, kernels);
}

static int rewrite_now(struct job *j, struct hsi_blob *out, char *err, size_t err_size)
{
	struct hs_rewrite_result *res_kernels = NULL;
	HS_OPTS(hs_rewrite_opts, opts, .flags = j->d->flags,
	        .result = j->d->translate ? &res_kernels : NULL);
	struct hs_rewrite_report report = {.sz = sizeof(report)};
	struct hs_rewrite_output res = {0};
	const struct hsi_rewriter *rw = hsi_rewriter(err, err_size);
	enum hs_status st;
	char *refused;

	if (!rw)
		return HSI_PRODUCE_REJECTED; /* the same answer every time: remembered */
	st = rw->rewrite(j->in, j->in_size, j->d->source_isa, j->d->target_isa, &opts, &res,
	                 &report);
	refused = warn_refusals(j, rw, res_kernels);
	rw->result_free(res_kernels);
	if (st != HS_OK || report.reason != HS_REASON_PARTIAL) {
		free(refused);
		refused = NULL;
	} else {
		warn_partial(j, report.count[HS_COUNT_KERNELS_REFUSED], report.kernels);
	}
	if (st != HS_OK) {
		const char *why = report.message[0] ? report.message : rw->last_error();
		snprintf(err, err_size, "%s (%s)", why && *why ? why : "no reason given",
		         rw->status_str(st));
		/* Only running out of memory may go better next time; the rest is the input's. */
		return st == HS_OUT_OF_RESOURCES ? HSI_PRODUCE_FAILED : HSI_PRODUCE_REJECTED;
	}
	if (j->d->translate)
		hsi_info("translated %s (%s -> %s): %" PRIu32 " kernels", j->uri, j->d->src_name,
		         j->d->tgt_name, report.count[HS_COUNT_KERNELS_TRANSLATED]);
	else
		hsi_info("rewrote %s (%s -> %s): %" PRIu32 " kernels, %" PRIu32 " stubbed, %" PRIu32
		         " patches applied%s%s",
		         j->uri, j->d->src_name, j->d->tgt_name, report.kernels,
		         report.kernels_stubbed, report.patches_applied,
		         report.message[0] ? "; " : "", report.message);
	out->data = res.data;
	out->size = res.size;
	out->kernels = report.kernels;
	out->refused = refused;
	return HSI_PRODUCED;
}

/* A partial translation from the disk: its refusals, as the process that made it said them. */
static void warn_stored_refusals(const struct job *j, const struct hsi_blob *b)
{
	uint32_t n = 0;

	if (!b->refused)
		return;
	for (const char *p = b->refused; *p;) {
		size_t len = strcspn(p, "\n");
		hsi_warn("%s: for %s, %.*s", j->uri, j->d->tgt_name, (int)len, p);
		n++;
		p += len + (p[len] == '\n');
	}
	warn_partial(j, n, b->kernels);
}

/* One more clause of why the line says what it says ("; " between clauses). */
static void append_why(struct job *j, const char *clause)
{
	size_t n = strlen(j->why);
	snprintf(j->why + n, sizeof(j->why) - n, "%s%s", n ? "; " : "", clause);
}

/*
 * The single-flight producer: disk tier first, then (under the key's lock, so that one
 * process of a job translates) the rewriter.
 */
static int produce(void *ctx, struct hsi_blob *out, char *err, size_t err_size)
{
	struct job *j = ctx;
	struct hsi_disk_meta meta;
	char store_why[512], lock_why[512];
	unsigned waited_ms;
	int rc, lock_fd = -1;

	if (!disk_root) {
		j->status = "disabled";
		return rewrite_now(j, out, err, err_size);
	}
	if (disk.fd < 0) {
		j->status = "bypassed";
		snprintf(j->why, sizeof(j->why), "%s", disk_why);
		return rewrite_now(j, out, err, err_size);
	}
	switch (hsi_disk_lookup_into(&disk, j->key_hex, hsi_rewriter_version(), j->place, out,
	                             j->why, sizeof(j->why))) {
	case HSI_DISK_HIT:
		j->status = "hit";
		warn_stored_refusals(j, out);
		return HSI_PRODUCED;
	case HSI_DISK_INVALID:
		j->status = "invalid";
		break;
	case HSI_DISK_MISS:
		j->status = "miss";
		break;
	case HSI_DISK_BYPASSED:
		j->status = "bypassed";
		return rewrite_now(j, out, err, err_size);
	}
	/* Another process may be translating the same bytes: wait for its entry (cache_disk.h). */
	switch (hsi_disk_lock(&disk, j->key_hex, hsi_rewriter_version(), lock_timeout_ms, &lock_fd,
	                      out, &waited_ms, lock_why, sizeof(lock_why))) {
	case HSI_DISK_SERVED:
		j->status = "hit";
		warn_stored_refusals(j, out);
		if (waited_ms)
			snprintf(j->why, sizeof(j->why),
			         "waited %u ms for another process's translation", waited_ms);
		return HSI_PRODUCED;
	case HSI_DISK_NO_LOCK:
		append_why(j, lock_why);
		break;
	case HSI_DISK_LOCKED:
		if (waited_ms)
			append_why(j, "the process it waited for stored nothing");
		break;
	}
	rc = rewrite_now(j, out, err, err_size);
	if (rc != HSI_PRODUCED) {
		hsi_disk_unlock(lock_fd);
		return rc;
	}
	meta = (struct hsi_disk_meta){
	    .input_sha256 = j->in_hex,
	    .input_size = j->in_size,
	    .source_isa = j->src_key,
	    .target_isa = j->tgt_key,
	    .flags = j->d->flags,
	    .rewriter_version = hsi_rewriter_version(),
	    .rewriter_build = hsi_build_identity(),
	    .kernels = out->kernels,
	    .refused = out->refused,
	};
	if (hsi_disk_store(&disk, j->key_hex, out, &meta, store_why, sizeof(store_why)) < 0) {
		/* A read-only or full cache costs speed, never the load. */
		hsi_info("cannot store a cache entry under '%s': %s", disk_root, store_why);
		if (!strcmp(j->status, "miss")) { /* an invalid entry's line keeps saying why */
			j->status = "bypassed";
			snprintf(j->why, sizeof(j->why), "%s", store_why);
		}
	}
	/* After the store: a waiter that gets the lock finds the entry. */
	hsi_disk_unlock(lock_fd);
	return HSI_PRODUCED;
}

static int make_key(struct job *j, uint8_t key[HSI_KEY_LEN])
{
	struct hsi_cache_key k;

	/* Not hsi_rewriter_version(): a rebuilt rewriter must not be served its predecessor's
	 * output. */
	if (hsi_cache_key(j->in, j->in_size, j->src_key, j->tgt_key, j->d->flags,
	                  hsi_build_identity(), &k) < 0)
		return -1;
	memcpy(key, k.key, HSI_KEY_LEN);
	memcpy(j->in_hex, k.in_hex, sizeof(j->in_hex));
	memcpy(j->key_hex, k.key_hex, sizeof(j->key_hex));
	return 0;
}

/*
 * The HSA_HOTSWAP_CACHE_DEBUG line (rewrite_load.h lists the status words): status, ISA pair,
 * kernels and input sha8 first (what parsers read), then "(reason)" when an entry was
 * rejected, the cache bypassed or the rewrite failed.  out is NULL when it failed; a failure
 * this thread did not produce (a remembered one, or another thread's flight) is "failed".
 * stderr_line escapes the reason, which quotes the object (kernel names).
 */
static void debug_line(const struct job *j, const struct hsi_blob *out, const char *err)
{
	const char *status = j->status;
	char reason[1024];

	if (out)
		snprintf(reason, sizeof(reason), "%s", j->why);
	else if (!status)
		snprintf(reason, sizeof(reason), "rewrite failed earlier in this process: %s", err);
	else
		snprintf(reason, sizeof(reason), "%s%srewrite failed: %s", j->why,
		         j->why[0] ? "; " : "", err);
	if (!status)
		status = "failed";
	hsi_raw("hotswap_cache: %s (%s -> %s) kernels=%" PRIu32 " %.8s%s%s%s", status,
	        j->d->src_name, j->d->tgt_name, out ? out->kernels : 0, j->in_hex,
	        reason[0] ? " (" : "", reason, reason[0] ? ")" : "");
}

enum hsi_rewrite_result hsi_rewrite_load(const void *in, size_t in_size,
                                         const struct hsi_object_facts *obj,
                                         const struct hsi_decision *d, const char *uri,
                                         const struct hsi_disk_place *place, struct hsi_blob *out,
                                         char *err, size_t err_size)
{
	struct job j = {
	    .in = in, .in_size = in_size, .obj = obj, .d = d, .uri = uri, .place = place};
	uint8_t key[HSI_KEY_LEN];
	enum hsi_cache_outcome oc;

	pthread_once(&env_once, read_env);
	j.src_key = d->source_isa ? d->source_isa : obj->isa;
	j.tgt_key = d->target_isa ? d->target_isa : j.src_key;
	if (make_key(&j, key) < 0) {
		snprintf(err, err_size, "cannot hash the code object");
		return HSI_REWRITE_FAILED;
	}
	oc = hsi_cache_get(key, produce, &j, out, err, err_size);
	if (oc == HSI_CACHE_HIT)
		j.status = "hit";
	if (oc != HSI_CACHE_FAILED && !strcmp(j.status, "hit"))
		hsi_info("%s: rewritten object served from the cache (%" PRIu32 " kernels)", uri,
		         out->kernels);
	if (cache_debug)
		debug_line(&j, oc == HSI_CACHE_FAILED ? NULL : out, err);
	if (oc != HSI_CACHE_FAILED)
		return HSI_REWRITTEN;
	return j.status ? HSI_REWRITE_FAILED : HSI_REWRITE_FAILED_BEFORE;
}
