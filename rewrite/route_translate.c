/*
 * The translation route: a gfx1250 object for gfx942/gfx950.  The translator
 * (libmirage_translate.so) lowers every kernel and links one new object; this route then makes
 * that object honest about its launch contract with the rewriter's own machinery: a plan over
 * the translated object carries each kernel's .args, .kernarg_segment_size and
 * .kernarg_segment_align over from the source (HIP/CLR fill hidden arguments by walking .args,
 * and the raised code reads the source's kernarg bytes), and adds the provenance and
 * translation notes; the patch writer writes it.  No pass of the pass table runs here.
 * A kernel the translator refuses is an entry that traps in the object it returns (a partial
 * object: the program loads, and only a launch of that kernel stops), or, under
 * HS_REWRITE_ALL_KERNELS, fails the whole call.  See docs/rewriter.md, "The translation
 * route".
 */
#include "route.h"
#include "result.h"
#include "translator.h"
#include "writer.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfx_route.h"
#include "refusal.h"

/* The keys of the launch contract the source's metadata keeps (docs/rewriter.md). */
static const char *const carried_keys[] = {".args", ".kernarg_segment_size",
                                           ".kernarg_segment_align"};

bool hs_route_translates(const struct hs_isa *src, const struct hs_isa *dst)
{
	return gfx_route(src->gfx, dst->gfx) == GFX_ROUTE_TRANSLATE;
}

/* The translator's kernel i as a result row (a refusal with where and why). */
static struct hs_kernel_result verdict(const struct tr_kernel *k)
{
	return (struct hs_kernel_result){
	    .name = k->name,
	    .translated = k->raised ? 1 : 0,
	    .refused_offset = k->raised ? 0 : k->offset,
	    .refused_mnemonic = k->raised ? NULL : k->mnemonic,
	    .refused_reason = k->raised ? NULL : k->reason,
	    .refused_reason_text = k->raised ? NULL : k->reason_text,
	    .refused_detail = k->raised ? NULL : k->detail,
	    .translated_note = k->raised ? k->note : NULL,
	};
}

/* The refusal sentence (refusal.h) appended to buf, "; " between two. */
static void add_refusal(char *buf, size_t size, const struct tr_kernel *k)
{
	size_t len = strlen(buf);

	if (len >= size - 3)
		return;
	if (len) {
		memcpy(buf + len, "; ", 3);
		len += 2;
	}
	refusal_format(buf + len, size - len,
	               &(struct refusal){k->name, k->offset, k->mnemonic, k->reason, k->reason_text,
	                                 k->detail});
}

/* 'name' appended to buf, ", " between two; "..." once it is full. */
static void add_name(char *buf, size_t size, const char *name)
{
	size_t len = strlen(buf);

	if (len + strlen(name) + 8 > size) {
		if (len + 4 < size && (len < 3 || strcmp(buf + len - 3, "...")))
			memcpy(buf + len, "...", 4);
		return;
	}
	snprintf(buf + len, size - len, "%s'%s'", len ? ", " : "", name);
}

/* Every kernel's verdict into *result (may be NULL: not asked for). */
static enum hs_status verdicts(const struct tr_translation *t, struct hs_rewrite_result **result)
{
	enum hs_status st;

	if (!result)
		return HS_OK;
	st = hs_result_new(t->nkernels, result);
	for (size_t i = 0; i < t->nkernels && !st; i++) {
		struct hs_kernel_result v = verdict(&t->kernels[i]);
		st = hs_result_set(*result, i, &v);
	}
	if (st) {
		hs_rewrite_result_free(*result);
		*result = NULL;
	}
	return st;
}

/* The translated kernel named name, or NULL. */
static const struct cob_kernel *find_kernel(const struct hs_object *o, const char *name)
{
	for (size_t i = 0; i < o->ks.n; i++)
		if (!strcmp(o->ks.k[i].name, name))
			return &o->ks.k[i];
	return NULL;
}

/* Checks the translator's object against the source: target processor, every kernel there. */
static enum hs_status check_image(const struct hs_object *src, const struct hs_object *out,
                                  const struct hs_isa *dst)
{
	if (out->isa.gfx != dst->gfx)
		return hs_fail_why(HS_ERROR, HS_REASON_CANNOT_APPLY,
		                   "the translator returned a %s object, not %s",
		                   out->isa.gfx->name, dst->gfx->name);
	for (size_t i = 0; i < src->ks.n; i++) {
		const struct cob_kernel *k = find_kernel(out, src->ks.k[i].name);
		if (!k)
			return hs_fail_why(HS_ERROR, HS_REASON_CANNOT_APPLY,
			                   "the translated object has no kernel '%s'",
			                   src->ks.k[i].name);
		if (k->meta < 0)
			return hs_fail_why(HS_ERROR, HS_REASON_CANNOT_APPLY,
			                   "the translated kernel '%s' has no metadata", k->name);
	}
	return HS_OK;
}

/*
 * The plan over the translated object: the source's launch contract per kernel, the
 * descriptor's kernarg size to match it, the notes saying what made the object.
 */
static enum hs_status plan_carry(const struct hs_object *src, const struct hs_object *out,
                                 const struct hs_isa *dst, const char *build, struct hs_plan *p)
{
	char src_name[256], dst_name[256];
	enum hs_status st = HS_OK;

	for (size_t i = 0; i < src->ks.n && !st; i++) {
		const struct cob_kernel *sk = &src->ks.k[i];
		const struct cob_kernel *tk = find_kernel(out, sk->name);
		uint64_t size;
		uint8_t le[4];

		if (sk->meta < 0)
			continue; /* no source contract to carry: LLVM's stands */
		for (size_t j = 0; j < sizeof(carried_keys) / sizeof(carried_keys[0]) && !st; j++)
			st = hs_plan_meta_carry(
			    p, tk->meta, carried_keys[j],
			    hs_meta_get_value(src->meta, sk->meta, carried_keys[j]));
		/* The descriptor states the kernarg size the metadata does. */
		if (!st && hs_meta_get_uint(src->meta, sk->meta, ".kernarg_segment_size", &size) &&
		    size <= UINT32_MAX && tk->desc.kernarg_size != size) {
			hs_wr32(le, (uint32_t)size);
			st = hs_plan_patch(p, tk->kd_off + KD_AT(kernarg_size), le, sizeof(le));
		}
	}
	if (st)
		return st;
	p->transforms |= HS_XFORM_TRANSLATE;
	if (!hs_isa_format(&src->isa, src_name, sizeof(src_name)) ||
	    !hs_isa_format(dst, dst_name, sizeof(dst_name)))
		return hs_fail(HS_ERROR, "ISA name too long");
	return hs_translation_record(src_name, dst_name, build, &p->xlat_note, &p->xlat_note_size);
}

enum hs_status hs_route_translate(const struct hs_route_ctx *c, struct hs_written *w,
                                  struct hs_rewrite_report *r, struct hs_rewrite_result **result)
{
	const struct translate_api *api;
	struct tr_translation t = {0};
	struct hs_object out = {0};
	struct hs_plan plan = {0};
	char refused[4096] = "", names[400] = "", why[1024];
	size_t n_refused = 0;
	const char *build;
	enum hs_status st;

	memset(w, 0, sizeof(*w));
	api = hs_translator_get();
	if (!api) {
		snprintf(why, sizeof(why), "%s", hs_last_error());
		return hs_fail_why(HS_ERROR, HS_REASON_NO_TRANSLATOR,
		                   "cannot translate %s to %s: the translator is not available: %s",
		                   c->src->isa.gfx->name, c->dst->gfx->name, why);
	}
	/* Every source kernel needs its metadata entry (the carried keys come from it): say so
	 * before the translator spends its time. */
	for (size_t i = 0; i < c->src->ks.n; i++) {
		st = hs_meta_need_entry(c->src->meta, c->src->ks.k[i].name, c->src->ks.k[i].meta,
		                        "it cannot be translated");
		if (st)
			return st;
	}
	build = api->build_id ? api->build_id() : NULL;
	if (!build || !*build)
		build = "unknown";
	hs_log(HS_LOG_INFO, "translating %zu kernels %s -> %s (translator %s)", c->src->ks.n,
	       c->src->isa.gfx->name, c->dst->gfx->name, build);
	if (c->progress.fn && api->translate_object_progress)
		api->translate_object_progress(c->src->e.buf, c->src->e.size, c->dst->gfx->name,
		                               c->progress.fn, c->progress.ctx, &t);
	else
		api->translate_object(c->src->e.buf, c->src->e.size, c->dst->gfx->name, &t);
	r->passes_run |= HS_PASS_TRANSLATE;
	r->count[HS_COUNT_KERNELS] = r->kernels = (uint32_t)c->src->ks.n;
	for (size_t i = 0; i < t.nkernels; i++) {
		if (t.kernels[i].raised) {
			r->count[HS_COUNT_KERNELS_TRANSLATED]++;
			continue;
		}
		r->count[HS_COUNT_KERNELS_REFUSED]++;
		add_refusal(refused, sizeof(refused), &t.kernels[i]);
		n_refused++;
		add_name(names, sizeof(names), t.kernels[i].name);
	}
	/* All or nothing when asked, and always when nothing translated. */
	if (n_refused &&
	    ((c->flags & HS_REWRITE_ALL_KERNELS) || n_refused == t.nkernels || !t.image)) {
		st = verdicts(&t, result);
		if (!st)
			st = hs_fail_why(HS_ERROR, HS_REASON_TRANSLATION_REFUSED,
			                 "translation to %s refused %zu of %zu kernels: %s",
			                 c->dst->gfx->name, n_refused, t.nkernels, refused);
		goto cleanup;
	}
	if (t.error || !t.image || !t.image_size) {
		st = hs_fail_why(HS_ERROR, HS_REASON_TRANSLATION_REFUSED,
		                 "the translator cannot translate this object to %s: %s",
		                 c->dst->gfx->name, t.error ? t.error : "it returned no object");
		goto cleanup;
	}
	st = hs_object_load(&out, t.image, t.image_size);
	if (st) {
		snprintf(why, sizeof(why), "%s", hs_last_error());
		st = hs_fail_why(HS_ERROR, HS_REASON_CANNOT_APPLY,
		                 "the translator returned an object the rewriter cannot read: %s",
		                 why);
		goto cleanup;
	}
	st = check_image(c->src, &out, c->dst);
	if (!st)
		st = hs_plan_init(&plan, &out, HS_PLAN_STRICT);
	if (!st)
		st = plan_carry(c->src, &out, c->dst, build, &plan);
	if (!st)
		st = hs_patch_writer.write(&out, &plan, w);
	if (!st && result)
		st = verdicts(&t, result);
	if (st) {
		free(w->data);
		memset(w, 0, sizeof(*w));
		goto cleanup;
	}
	if (plan.n_meta)
		r->passes_run |= HS_PASS_METADATA;
	if (n_refused) {
		r->reason = HS_REASON_PARTIAL;
		snprintf(r->message, sizeof(r->message),
		         "partial: %zu of %zu kernels refused for %s, each an entry that traps: %s",
		         n_refused, t.nkernels, c->dst->gfx->name, names);
		hs_log(HS_LOG_INFO, "%s", r->message);
	}
	r->changed = true;
	r->pool_vaddr = w->pool_vaddr;
	r->pool_size = w->pool_size;
	r->bytes_grown = (int64_t)w->size - (int64_t)c->src->e.size;
	hs_log(HS_LOG_INFO, "translated %zu kernels to %s: %zu bytes", t.nkernels,
	       c->dst->gfx->name, w->size);
cleanup:
	hs_plan_free(&plan);
	hs_object_free(&out);
	api->translation_free(&t);
	return st;
}
