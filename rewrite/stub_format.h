/*
 * The gfx12.5 entry stub and the compiler's entry prologue as bytes: how a stub is
 * encoded, recognised without a decoder, and where it jumps.  A leaf (bytes only), shared
 * by the entry pass, stub recognition and inspect; later passes that jump through an SGPR
 * pair (long jumps into the pool) reuse the same shape.
 */
#ifndef HS_STUB_FORMAT_H
#define HS_STUB_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hs_attr.h"

#define HS_STUB_SIZE 256u
/* gfx12.5: s0..s105 are numbered SGPRs, then vcc_lo/vcc_hi; 108 in all. */
#define HS_SGPR_NUMBERED 106u
#define HS_SGPR_TOTAL    108u
/* SGPR 106 is vcc_lo: a stub scratch pair based there is vcc. */
#define SGPR_VCC 106u

/* True when p[0..len) begins with the compiler's entry prologue (VMEM prefix + v_nop). */
HS_INTERNAL bool hs_entry_has_prologue(const uint8_t *p, size_t len);
/* The stub at stub_vaddr: the prologue, then a PC-relative jump to entry through pair. */
HS_INTERNAL void hs_stub_encode(uint8_t stub[HS_STUB_SIZE], uint64_t stub_vaddr, uint64_t entry,
                                unsigned pair);
/* The raw prefilter: true when bytes could be one of our stubs; *pair gets its scratch pair. */
HS_INTERNAL bool hs_stub_raw_match(const uint8_t *bytes, size_t len, unsigned *pair);
/* Where the stub at vaddr jumps (its two literals added to its PC); needs a raw match. */
HS_INTERNAL uint64_t hs_stub_target(const uint8_t *bytes, uint64_t vaddr);

#endif
