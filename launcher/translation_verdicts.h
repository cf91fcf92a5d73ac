/* Each kernel's verdict of a translation (translated, or refused and why), for mirage rewrite
 * and mirage inspect --target. */
#ifndef MIRAGE_TRANSLATION_VERDICTS_H
#define MIRAGE_TRANSLATION_VERDICTS_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "rewriter_dl.h"
#include "strbuf.h"

/* Whether the call took the translation route (its report or its failure says so). */
bool is_translation(const struct hs_rewrite_report *r);
/* Each kernel's verdict, as --json gives it: {name, translated, whole_wave, note | refusal}. */
cJSON *verdicts_json(const struct rewriter_dl *rw, const struct hs_rewrite_result *res);
/* "  kernel 'k': translated [in ...]" or "  kernel 'k' is refused at ..." lines into out. */
void verdict_lines(const struct rewriter_dl *rw, const struct hs_rewrite_result *res,
                   bool refused_only, struct strbuf *out);

/* The refused kernels' sentences, one a line (malloc'ed), or NULL when none: a partial
 * translation's cache entry keeps them (cache_disk.h). */
char *refusal_text(const struct rewriter_dl *rw, const struct hs_rewrite_result *res);

#endif
