/* One rewrite call and the passes that run over it (rewrite.c drives them). */
#ifndef HS_PASS_H
#define HS_PASS_H

#include "decoder.h"
#include "object.h"

struct hs_ctx {
	uint64_t flags;
	struct hs_object o; /* the input, loaded once */
	struct hs_isa src, dst;
	uint64_t pool_vaddr, pool_off;
	uint16_t pool_shndx;
	uint8_t *stubs; /* n_stubs * 256 */
	size_t n_stubs;
	struct hs_symadd *syms;
	size_t n_syms;
	struct hs_decoder dec;      /* created only if a stub must be recognised */
	struct hs_rewrite_report r; /* filled as passes run; copied out on success */
};

/* The entry-trampoline pass: classifies every kernel and plans its stub (no output yet). */
HS_INTERNAL enum hs_status hs_pass_entry(struct hs_ctx *c);
/* The stub-symbol pass: plans <kernel>.stub for every stub that has none (best effort). */
HS_INTERNAL enum hs_status hs_pass_stubsyms(struct hs_ctx *c);

#endif
