/* Profiles as JSON: the exchange format (export, import, --json). */
#ifndef MIRAGE_PROFILE_JSON_H
#define MIRAGE_PROFILE_JSON_H

#include "profile.h"

#include <cjson/cJSON.h>

/* Returns a new cJSON object for p; the caller frees it with cJSON_Delete(). */
cJSON *profile_to_json(const struct profile *p);
/*
 * Fills p (profile_init()'ed) from a JSON document text[0..len) in our shape or
 * in the reference mirage's shape.  origin names the input in messages
 * ("x.json", "<stdin>").  Unknown top-level keys, text that is not UTF-8, NUL
 * bytes (also as \u0000) and duplicate env names are refused.
 */
int profile_from_json(struct profile *p, const char *text, size_t len, const char *origin,
                      struct diag *err);

#endif
