/* Profiles as JSON: the exchange format (export, import, --json). */
#ifndef MIRAGE_PROFILE_JSON_H
#define MIRAGE_PROFILE_JSON_H

#include "profile.h"

#include <cjson/cJSON.h>

/* Returns a new cJSON object for p; the caller frees it with cJSON_Delete(). */
cJSON *profile_to_json(const struct profile *p);
/*
 * Fills p (profile_init()'ed) from a JSON document in our shape or in the
 * reference mirage's shape.  origin names the input in messages ("x.json",
 * "<stdin>").  Unknown top-level keys are refused.
 */
int profile_from_json(struct profile *p, const char *text, const char *origin, struct diag *err);

#endif
