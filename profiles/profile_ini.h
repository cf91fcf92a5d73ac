/* Profiles as INI text: parsed with inih, written by mirage. */
#ifndef MIRAGE_PROFILE_INI_H
#define MIRAGE_PROFILE_INI_H

#include "profile.h"

/*
 * Parses text[0..len) (from the file `path`, used only in messages) into p,
 * which must be profile_init()'ed.  expect_name, if not NULL, must equal the
 * [profile] name.  Errors read "<path>:<line>: key 'x': ..."; text that is not
 * UTF-8 or holds a NUL byte is refused, as are duplicate keys in any section.
 */
int profile_parse_ini(struct profile *p, const char *text, size_t len, const char *path,
                      const char *expect_name, struct diag *err);
/* Appends the INI form of p to out. */
void profile_format_ini(const struct profile *p, struct strbuf *out);

#endif
