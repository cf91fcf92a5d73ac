/* hs_rewrite_result: what one call did to each kernel, outliving the call's object. */
#include "result.h"

#include <stdlib.h>
#include <string.h>

struct kernel_rec {
	char *name;
	uint64_t descriptor, entry_before, entry_after;
	uint64_t sgprs_before, sgprs_after, vgprs_before, vgprs_after;
	uint32_t passes;
	int translated; /* -1: not a translation */
	uint64_t refused_offset;
	char *refused_mnemonic, *refused_reason, *refused_reason_text, *refused_detail;
	char *translated_note;
};

struct hs_rewrite_result {
	struct kernel_rec *k;
	size_t n;
};

/* The first published hs_kernel_result. */
#define KERNEL_RESULT_V1_SIZE (offsetof(struct hs_kernel_result, vgprs_after) + sizeof(uint64_t))

/* A count before and after the plan raises it to need (0 before: unknown, never raised). */
static void counts(const struct hs_object *o, const struct cob_kernel *k, const char *key,
                   uint64_t need, uint64_t *before, uint64_t *after)
{
	*before = 0;
	if (!o->meta || k->meta < 0 || !hs_meta_get_uint(o->meta, k->meta, key, before))
		*before = 0;
	*after = *before && need > *before ? need : *before;
}

enum hs_status hs_result_build(const struct hs_object *o, const struct hs_plan *p,
                               const uint32_t *passes, struct hs_rewrite_result **out)
{
	struct hs_rewrite_result *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r || !(r->k = calloc(o->ks.n ? o->ks.n : 1, sizeof(*r->k)))) {
		free(r);
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	}
	for (size_t i = 0; i < o->ks.n; i++) {
		const struct cob_kernel *k = &o->ks.k[i];
		const struct hs_kernel_change *c = &p->kc[i];
		struct kernel_rec *kr = &r->k[r->n];

		kr->name = strdup(k->name);
		if (!kr->name) {
			hs_rewrite_result_free(r);
			return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
		}
		r->n++;
		kr->descriptor = k->kd_vaddr;
		kr->translated = -1;
		kr->passes = passes[i];
		kr->entry_before = k->entry;
		kr->entry_after = c->new_entry ? c->entry : k->entry;
		counts(o, k, ".sgpr_count", c->sgpr_need, &kr->sgprs_before, &kr->sgprs_after);
		counts(o, k, ".vgpr_count", c->vgpr_need, &kr->vgprs_before, &kr->vgprs_after);
	}
	*out = r;
	return HS_OK;
}

enum hs_status hs_result_new(size_t n, struct hs_rewrite_result **out)
{
	struct hs_rewrite_result *r = calloc(1, sizeof(*r));

	*out = NULL;
	if (!r || !(r->k = calloc(n ? n : 1, sizeof(*r->k)))) {
		free(r);
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	}
	r->n = n;
	*out = r;
	return HS_OK;
}

/* A copy of s, or NULL for NULL; *ok false when the copy failed. */
static char *dup_or_null(const char *s, bool *ok)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*ok = false;
	return d;
}

enum hs_status hs_result_set(struct hs_rewrite_result *r, size_t i,
                             const struct hs_kernel_result *v)
{
	struct kernel_rec *kr = &r->k[i];
	bool ok = true;

	*kr = (struct kernel_rec){
	    .name = dup_or_null(v->name ? v->name : "", &ok),
	    .descriptor = v->descriptor,
	    .entry_before = v->entry_before,
	    .entry_after = v->entry_after,
	    .sgprs_before = v->sgprs_before,
	    .sgprs_after = v->sgprs_after,
	    .vgprs_before = v->vgprs_before,
	    .vgprs_after = v->vgprs_after,
	    .passes = v->passes,
	    .translated = v->translated,
	    .refused_offset = v->refused_offset,
	    .refused_mnemonic = dup_or_null(v->refused_mnemonic, &ok),
	    .refused_reason = dup_or_null(v->refused_reason, &ok),
	    .refused_reason_text = dup_or_null(v->refused_reason_text, &ok),
	    .refused_detail = dup_or_null(v->refused_detail, &ok),
	    .translated_note = dup_or_null(v->translated_note, &ok),
	};
	return ok ? HS_OK : hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
}

HS_API size_t hs_rewrite_result_kernels(const struct hs_rewrite_result *res)
{
	return res ? res->n : 0;
}

HS_API enum hs_status hs_rewrite_result_kernel(const struct hs_rewrite_result *res, size_t i,
                                               struct hs_kernel_result *kr)
{
	struct hs_kernel_result v = {0};
	size_t n;

	hs_clear_error();
	if (!res || !kr || i >= res->n)
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
		                   "no kernel %zu in this result", i);
	if (kr->sz < KERNEL_RESULT_V1_SIZE)
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_BAD_ARGUMENT,
		                   "kernel result size %zu is smaller than the first version of "
		                   "struct hs_kernel_result (%zu)",
		                   kr->sz, (size_t)KERNEL_RESULT_V1_SIZE);
	v = (struct hs_kernel_result){
	    .name = res->k[i].name,
	    .descriptor = res->k[i].descriptor,
	    .passes = res->k[i].passes,
	    .entry_before = res->k[i].entry_before,
	    .entry_after = res->k[i].entry_after,
	    .sgprs_before = res->k[i].sgprs_before,
	    .sgprs_after = res->k[i].sgprs_after,
	    .vgprs_before = res->k[i].vgprs_before,
	    .vgprs_after = res->k[i].vgprs_after,
	    .translated = res->k[i].translated,
	    .refused_offset = res->k[i].refused_offset,
	    .refused_mnemonic = res->k[i].refused_mnemonic,
	    .refused_reason = res->k[i].refused_reason,
	    .refused_reason_text = res->k[i].refused_reason_text,
	    .refused_detail = res->k[i].refused_detail,
	    .translated_note = res->k[i].translated_note,
	};
	/* Only the fields both sides know; a newer caller's tail is theirs. */
	n = kr->sz < sizeof(v) ? kr->sz : sizeof(v);
	memcpy((char *)kr + sizeof(kr->sz), (const char *)&v + sizeof(v.sz), n - sizeof(v.sz));
	return HS_OK;
}

HS_API void hs_rewrite_result_free(struct hs_rewrite_result *res)
{
	if (!res)
		return;
	for (size_t i = 0; i < res->n; i++) {
		free(res->k[i].name);
		free(res->k[i].refused_mnemonic);
		free(res->k[i].refused_reason);
		free(res->k[i].refused_reason_text);
		free(res->k[i].refused_detail);
		free(res->k[i].translated_note);
	}
	free(res->k);
	free(res);
}
