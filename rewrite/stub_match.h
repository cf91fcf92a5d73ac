/* Recognises our own entry stubs through the decoder (raw prefilter first, then the shape). */
#ifndef HS_STUB_MATCH_H
#define HS_STUB_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decoder.h"

/*
 * True when bytes[0..len) at vaddr is exactly one of our stubs; *target gets
 * the decoded jump target.  Runs the raw prefilter first and only then the
 * MC decoder (loading libhotswap_mc on first use) for the shape check.
 */
HS_INTERNAL enum hs_status hs_stub_match(struct hs_decoder *d, const uint8_t *bytes, size_t len,
                                         uint64_t vaddr, bool *is_stub, uint64_t *target);

#endif
