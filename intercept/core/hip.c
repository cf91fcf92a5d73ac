/*
 * The HIP side of the core (docs/hip.md): the shim's __hipRegisterFatBinary,
 * hipModuleLoadData(Ex) and hipModuleLoad ask here what the runtime is to get instead.
 * The target is HSA_HOTSWAP_ISA_OVERRIDE's processor (the HIP device the program will
 * meet).  A fat binary with an entry for that processor is left alone; one with only
 * gfx1250 code gets that entry translated, through the loader path's cache (same key, so
 * neither path translates the same bytes twice), and added to a new bundle registered in a
 * new wrapper; a bare gfx1250 image is replaced by its translation.  Bad input and
 * refusals are said once per object and the original is passed on: the runtime then gives
 * its own error, never a crash here.
 */
#include "hip.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hotswap/rewrite.h>

#include "bundle.h"
#include "elf_isa.h"
#include "gfx_route.h"
#include "hooks.h"
#include "log.h"
#include "prefault.h"
#include "read_whole.h"
#include "readable.h"
#include "rewrite_load.h"

/* clang's __hip_fatbin_wrapper, in .hipFatBinSegment. */
struct fatbin_wrapper {
	uint32_t magic;
	uint32_t version;
	const void *binary;
	const void *unused;
};
#define FATBIN_WRAPPER_MAGIC   0x48495046u /* "HIPF" */
#define FATBIN_WRAPPER_VERSION 1u

/*
 * Every bundle (and wrapper) handed to the runtime, kept for the process's life and reachable
 * from here: the runtime holds pointers into them until exit, as it does into clang's.
 */
struct kept {
	struct kept *next;
	struct fatbin_wrapper wrapper;
};
static _Atomic(struct kept *) kept_list;

/* A wrapper around bundle (malloc'ed, now owned here for good); NULL when out of memory. */
static const struct fatbin_wrapper *keep(const void *bundle)
{
	struct kept *k = malloc(sizeof(*k));

	if (!k)
		return NULL;
	k->wrapper =
	    (struct fatbin_wrapper){FATBIN_WRAPPER_MAGIC, FATBIN_WRAPPER_VERSION, bundle, NULL};
	k->next = atomic_load(&kept_list);
	while (!atomic_compare_exchange_weak(&kept_list, &k->next, k))
		;
	return &k->wrapper;
}

/* The target's processor: "gfx942" of "gfx942:sramecc+:xnack-". */
static void target_processor(char *out, size_t size)
{
	snprintf(out, size, "%.*s", (int)strcspn(hsi_cfg.isa_override, ":"), hsi_cfg.isa_override);
}

/* What the loader path's decision says for one code object on the target. */
static int decide_for_target(const void *bytes, size_t size, struct hsi_object_facts *obj,
                             struct hsi_decision *d, char *why, size_t why_size)
{
	struct hsi_agent_facts agent = {0};

	if (cob_code_object_isa(bytes, size, obj->isa, sizeof(obj->isa), obj->proc,
	                        sizeof(obj->proc), why, why_size) < 0)
		return -1;
	target_processor(agent.gfx, sizeof(agent.gfx));
	hsi_decide(&hsi_cfg, &agent, obj, d);
	return 0;
}

static void warn_no_route(const char *uri, const char *proc, const char *target)
{
	char routes[160];
	gfx_routes_text(proc, routes, sizeof(routes));
	hsi_warn("%s: no route runs %s code on %s (it runs on %s); passing it on untouched, and "
	         "the HIP runtime will answer hipErrorNoBinaryForGpu",
	         uri, proc, target, routes);
}

/* Translates one code object for the target: 0 with *out (cache-owned), or -1 (said). */
static int translate_object(const void *bytes, size_t size, const struct hsi_object_facts *obj,
                            const struct hsi_decision *d, const char *uri,
                            const struct hsi_disk_place *place, struct hsi_blob *out)
{
	char err[600];
	enum hsi_rewrite_result r;

	hsi_info("%s (%s): translating %s -> %s for the HIP runtime", uri, obj->proc, d->src_name,
	         d->tgt_name);
	r = hsi_rewrite_load(bytes, size, obj, d, uri, place, out, err, sizeof(err));
	if (r == HSI_REWRITTEN)
		return 0;
	if (r == HSI_REWRITE_FAILED)
		hsi_warn(
		    "translation of %s failed: %s; passing it on untouched, and the HIP runtime "
		    "will answer hipErrorNoBinaryForGpu",
		    uri, err);
	else
		hsi_info("translation of %s failed: %s (remembered, not retried)", uri, err);
	return -1;
}

/*
 * The new bundle's memory, planned before the cache is read so that a disk hit's bytes land
 * in their entry's place (hsi_disk_place) rather than in a buffer of their own copied after:
 * every fresh page is a fault, and in a VM a fault costs microseconds.
 */
struct bundle_room {
	const struct cob_bundle *b;
	struct cob_layout layout; /* with the translation's id not known yet */
	uint8_t *buf;             /* malloc'ed once reserved, else NULL */
};

/* b's entries and then the translation (id NULL: not known yet); NULL when out of memory. */
static struct cob_out_entry *entries_with(const struct cob_bundle *b, const char *id,
                                          const void *data, size_t size)
{
	struct cob_out_entry *e = calloc(b->n + 1, sizeof(*e));

	if (!e)
		return NULL;
	for (size_t i = 0; i < b->n; i++)
		e[i] = (struct cob_out_entry){b->e[i].id, b->e[i].data, b->e[i].size};
	e[b->n] = (struct cob_out_entry){id, data, size};
	return e;
}

/* hsi_disk_place's reserve: where the translation goes in the new bundle. */
static void *reserve_room(void *ctx, size_t size)
{
	struct bundle_room *r = ctx;
	struct cob_out_entry *e;
	char *err = NULL;

	if (r->buf || !(e = entries_with(r->b, NULL, NULL, size)))
		return NULL; /* one reservation; anything else gets a buffer of its own */
	if (cob_bundle_layout(e, r->b->n + 1, 0, &r->layout, &err) == 0 &&
	    (r->buf = malloc(r->layout.total)))
		prefault_write(r->buf, r->layout.total);
	free(err);
	free(e);
	return r->buf ? r->buf + r->layout.last : NULL;
}

/* Did the translation land in the room?  Then the room is the cache's for good. */
static bool in_room(const struct bundle_room *r, const struct hsi_blob *translated)
{
	return r->buf && translated->data == r->buf + r->layout.last;
}

/*
 * The new bundle: every entry of b kept, in order, and the translation of its gfx1250
 * entry last, written around the translation when it landed in the room.  0 with *out
 * (malloc'ed, never freed), or -1 with err.
 */
static int write_bundle(const struct cob_bundle *b, const struct hsi_blob *translated,
                        struct bundle_room *room, struct hsi_blob *out, char *err, size_t err_size)
{
	char isa[256], proc[64], id[300], why_isa[256];
	struct cob_out_entry *e;
	struct cob_layout l;
	uint8_t *bytes;
	size_t size;
	char *why = NULL;

	/* The entry's target id is the translation's own ISA, so both of the runtime's gates
	 * (the id, then the ELF's e_flags) agree. */
	if (cob_code_object_isa(translated->data, translated->size, isa, sizeof(isa), proc,
	                        sizeof(proc), why_isa, sizeof(why_isa)) < 0) {
		snprintf(err, err_size, "the translation has no readable ISA: %s", why_isa);
		return -1;
	}
	snprintf(id, sizeof(id), "hipv4-%s", isa);
	if (!(e = entries_with(b, id, translated->data, translated->size))) {
		snprintf(err, err_size, "out of memory");
		return -1;
	}
	if (in_room(room, translated) &&
	    cob_bundle_layout(e, b->n + 1, room->layout.first, &l, &why) == 0 &&
	    l.last == room->layout.last && l.total <= room->layout.total) {
		cob_bundle_fill(e, b->n + 1, &l, room->buf);
		free(e);
		*out =
		    (struct hsi_blob){room->buf, l.size, translated->kernels, translated->refused};
		return 0;
	}
	free(why);
	why = NULL;
	if (cob_bundle_write(e, b->n + 1, &bytes, &size, &why) < 0) {
		snprintf(err, err_size, "%s", why ? why : "out of memory");
		free(why);
		free(e);
		return -1;
	}
	free(e);
	*out = (struct hsi_blob){bytes, size, translated->kernels, translated->refused};
	return 0;
}

/*
 * A bundle (uncompressed or CCOB) at data, at most avail bytes readable: a wrapper around a
 * new bundle with the translated entry added (both kept for the process's life), or NULL to
 * pass the original on.
 */
static const struct fatbin_wrapper *translate_bundle(const void *data, size_t avail,
                                                     const char *uri)
{
	struct cob_bundle b = COB_BUNDLE_INIT;
	char target[64], *err = NULL, cerr[600];
	const struct cob_entry *source = NULL;
	struct hsi_object_facts obj, source_obj;
	struct hsi_decision d, source_d;
	const char *no_route_proc = NULL;
	struct hsi_blob translated, out;
	const struct fatbin_wrapper *result = NULL;
	struct bundle_room room = {&b, {0}, NULL};

	if (cob_bundle_read(data, avail, &b, &err) < 0) {
		hsi_warn("%s: not a readable offload bundle: %s; passing it on untouched", uri,
		         err ? err : "out of memory");
		free(err);
		return NULL;
	}
	target_processor(target, sizeof(target));
	for (size_t i = 0; i < b.n; i++) {
		const struct cob_entry *e = &b.e[i];
		if (!cob_entry_is_amdgcn(e))
			continue;
		/* The device's xnack/sramecc are not known here: any entry for its processor
		 * may be the one the runtime takes, and native code is never replaced. */
		if (!strncmp(e->target, target, strlen(target)) &&
		    (e->target[strlen(target)] == '\0' || e->target[strlen(target)] == ':')) {
			hsi_info("%s: has an entry for %s (%s); passing it on untouched", uri,
			         target, e->id);
			goto done;
		}
		if (source || decide_for_target(e->data, e->size, &obj, &d, cerr, sizeof(cerr)) < 0)
			continue;
		if (d.translate) {
			source = e;
			source_obj = obj;
			source_d = d;
		} else if (d.refuse && !no_route_proc) {
			no_route_proc = e->target;
		}
	}
	if (!source) {
		if (no_route_proc)
			warn_no_route(uri, no_route_proc, target);
		else
			hsi_info("%s: no entry to translate for %s; passing it on untouched", uri,
			         target);
		goto done;
	}
	if (translate_object(source->data, source->size, &source_obj, &source_d, uri,
	                     &(struct hsi_disk_place){reserve_room, &room}, &translated) < 0) {
		free(room.buf); /* what a failed load read there is in no cache */
		goto done;
	}
	/* A room the translation did not land in is nobody's: an in-memory hit, a miss, a
	 * rejected entry. */
	if (!in_room(&room, &translated)) {
		free(room.buf);
		room.buf = NULL;
	}
	/* A new bundle per registration: the runtime keeps it for the process's life, as it
	 * keeps clang's, and a content key would cost a hash of the whole bundle each time. */
	if (write_bundle(&b, &translated, &room, &out, cerr, sizeof(cerr)) < 0) {
		hsi_warn("%s: cannot write the bundle with the translation: %s; passing it on "
		         "untouched",
		         uri, cerr);
		goto done;
	}
	if (!(result = keep(out.data))) {
		if (out.data != room.buf) /* the room holds the cache's copy: it stays */
			free((void *)out.data);
		hsi_warn("%s: out of memory keeping the new bundle; passing it on untouched", uri);
		goto done;
	}
	hsi_info("%s: registering a bundle with a %s entry added (%zu bytes)", uri, target,
	         out.size);
done:
	cob_bundle_free(&b);
	return result;
}

/* "the fat binary of /path/prog" for messages: the object the wrapper lies in. */
static void fatbin_uri(const void *wrapper, char *out, size_t size)
{
	Dl_info info;
	if (dladdr(wrapper, &info) && info.dli_fname && *info.dli_fname)
		snprintf(out, size, "the HIP fat binary of %s", info.dli_fname);
	else
		snprintf(out, size, "the HIP fat binary at %p", wrapper);
}

const void *hsi_hip_fatbin(const void *wrapper)
{
	const struct fatbin_wrapper *w = wrapper, *ours;
	char uri[4200];
	size_t avail;

	hsi_core_setup();
	if (hsi_cfg.disable)
		return wrapper;
	if (!wrapper) {
		hsi_warn("__hipRegisterFatBinary was given a null wrapper; passing it on");
		return wrapper;
	}
	fatbin_uri(wrapper, uri, sizeof(uri));
	if (hsi_readable_extent(wrapper) < sizeof(*w)) {
		hsi_warn("%s: the wrapper is not readable memory; passing it on untouched", uri);
		return wrapper;
	}
	if (w->magic != FATBIN_WRAPPER_MAGIC || w->version != FATBIN_WRAPPER_VERSION) {
		hsi_warn("%s: the wrapper has magic 0x%08x version %u (want 0x%08x version %u); "
		         "passing it on untouched",
		         uri, w->magic, w->version, FATBIN_WRAPPER_MAGIC, FATBIN_WRAPPER_VERSION);
		return wrapper;
	}
	avail = hsi_readable_extent(w->binary);
	if (!avail) {
		hsi_warn(
		    "%s: the wrapper points at %p, which is not readable memory; passing it on "
		    "untouched",
		    uri, w->binary);
		return wrapper;
	}
	ours = translate_bundle(w->binary, avail, uri);
	return ours ? (const void *)ours : wrapper;
}

/* An image of hipModuleLoadData*: a bare code object or a bundle.  NULL: load it as is. */
static const void *translate_image(const void *image, size_t avail, const char *uri)
{
	struct hsi_object_facts obj;
	struct hsi_decision d;
	const struct fatbin_wrapper *ours;
	struct hsi_blob out;
	char target[64], why[256];
	size_t size;

	if (cob_is_bundle(image, avail))
		return (ours = translate_bundle(image, avail, uri)) ? ours->binary : NULL;
	size = cob_elf_extent(image);
	if (!size || size > avail || !hsi_maybe_gfx125x(image, size))
		return NULL; /* not gfx12.5 code: the runtime judges it */
	if (decide_for_target(image, size, &obj, &d, why, sizeof(why)) < 0) {
		hsi_info("%s: cannot read its ISA (%s); passing it on untouched", uri, why);
		return NULL;
	}
	target_processor(target, sizeof(target));
	if (d.refuse)
		warn_no_route(uri, obj.proc, target);
	if (!d.translate)
		return NULL;
	return translate_object(image, size, &obj, &d, uri, NULL, &out) < 0 ? NULL : out.data;
}

const void *hsi_hip_image(const void *image)
{
	const void *out;
	char uri[64];
	size_t avail;

	hsi_core_setup();
	if (hsi_cfg.disable || !image)
		return image;
	snprintf(uri, sizeof(uri), "the hipModuleLoadData image at %p", image);
	if (!(avail = hsi_readable_extent(image))) {
		hsi_warn("%s: not readable memory; passing it on untouched", uri);
		return image;
	}
	out = translate_image(image, avail, uri);
	return out ? out : image;
}

/* A code object file is small; anything past this is not one (or is a planted sparse file). */
#define HIP_FILE_MAX (UINT64_C(1) << 30)

const void *hsi_hip_file(const char *path)
{
	const void *out;
	size_t size;
	void *bytes;
	int fd;

	hsi_core_setup();
	if (hsi_cfg.disable || !path)
		return NULL;
	/* O_NONBLOCK: a FIFO planted in a code object's place must not hang the open. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL; /* the runtime's hipModuleLoad says why */
	bytes = read_whole_fd_max(fd, HIP_FILE_MAX, &size);
	close(fd);
	if (!bytes) {
		hsi_info("%s: not read (%s); the HIP runtime loads it", path, strerror(errno));
		return NULL;
	}
	out = translate_image(bytes, size, path);
	/* A translation lives in the cache; the file's own bytes are not needed after this. */
	free(bytes);
	return out;
}
