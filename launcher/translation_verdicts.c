/* Each kernel's verdict of a translation (translated, or refused and why), for mirage rewrite
 * and mirage inspect --target. */
#include "translation_verdicts.h"

#include "output.h"

#include "refusal.h"

/* Whether the call took the translation route (its report or its failure says so). */
bool is_translation(const struct hs_rewrite_report *r)
{
	return (r->passes_run & HS_PASS_TRANSLATE) || r->reason == HS_REASON_TRANSLATION_REFUSED ||
	       r->reason == HS_REASON_NO_TRANSLATOR;
}

static struct refusal refusal_of(const struct hs_kernel_result *k)
{
	return (struct refusal){k->name,           k->refused_offset,      k->refused_mnemonic,
	                        k->refused_reason, k->refused_reason_text, k->refused_detail};
}

/* Each kernel's translation verdict, as --json gives it. */
cJSON *verdicts_json(const struct rewriter_dl *rw, const struct hs_rewrite_result *res)
{
	cJSON *arr = cJSON_CreateArray();

	for (size_t i = 0; res && i < rw->result_kernels(res); i++) {
		HS_OPTS(hs_kernel_result, k);
		cJSON *o;
		if (rw->result_kernel(res, i, &k) != HS_OK)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", k.name);
		cJSON_AddBoolToObject(o, "translated", k.translated == 1);
		if (k.translated == 1)
			cJSON_AddBoolToObject(o, "whole_wave", k.translated_note != NULL);
		if (k.translated == 1 && k.translated_note)
			cJSON_AddStringToObject(o, "note", k.translated_note);
		if (k.translated == 0) {
			struct refusal r = refusal_of(&k);
			refusal_json(o, &r);
		}
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

/* "  kernel 'k': translated [in ...]" or "  kernel 'k' is refused at ..." (refusal.h). */
void verdict_lines(const struct rewriter_dl *rw, const struct hs_rewrite_result *res,
                   bool refused_only, struct strbuf *out)
{
	for (size_t i = 0; res && i < rw->result_kernels(res); i++) {
		HS_OPTS(hs_kernel_result, k);
		if (rw->result_kernel(res, i, &k) != HS_OK || (refused_only && k.translated))
			continue;
		if (k.translated) {
			strbuf_addf(out, "%s  kernel '%s': translated", out->len ? "\n" : "",
			            k.name);
			if (k.translated_note)
				strbuf_addf(out, " in %s", k.translated_note);
		} else {
			char line[REFUSAL_MAX];
			struct refusal r = refusal_of(&k);
			refusal_format(line, sizeof(line), &r);
			strbuf_addf(out, "%s  %s", out->len ? "\n" : "", line);
		}
	}
}

char *refusal_text(const struct rewriter_dl *rw, const struct hs_rewrite_result *res)
{
	char *lines = NULL;

	for (size_t i = 0; res && i < rw->result_kernels(res); i++) {
		HS_OPTS(hs_kernel_result, k);
		if (rw->result_kernel(res, i, &k) != HS_OK || k.translated)
			continue;
		struct refusal r = refusal_of(&k);
		if (!refusal_lines_add(&lines, &r))
			break;
	}
	return lines;
}
