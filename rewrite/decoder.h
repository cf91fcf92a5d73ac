/*
 * The LLVM MC decoder's lifecycle: libhotswap_mc loaded on first use, one decoder per
 * rewrite or inspect call, created lazily (decoders are single-threaded).  A leaf over
 * mc_loader.c; stub recognition, inspect's disassembly and later instruction passes use it.
 */
#ifndef HS_DECODER_H
#define HS_DECODER_H

#include "hotswap/rewrite.h"
#include "hs_attr.h"

struct hs_mc_api;
struct hs_mc_disasm;

/* Loads libhotswap_mc.so next to this library once; NULL (with error set) if unavailable. */
HS_INTERNAL const struct hs_mc_api *hs_mc_get(void);

struct hs_decoder {
	const char *cpu;
	const struct hs_mc_api *api;
	struct hs_mc_disasm *dis;
};
/* Loads libhotswap_mc and creates d's decoder for d->cpu on first use (HS_ERROR, message set). */
HS_INTERNAL enum hs_status hs_decoder_get(struct hs_decoder *d);
HS_INTERNAL void hs_decoder_release(struct hs_decoder *d);

#endif
