/* The translator proper behind translate_api's translate_object (docs/translate.md). */
#ifndef MIRAGE_AMDGCN_TRANSLATE_H
#define MIRAGE_AMDGCN_TRANSLATE_H

#include "mirage/raise.h"
#include "mirage_translate.h"

#include <stddef.h>

/*
 * Translates the gfx1250 code object (size bytes at code, not kept) for target ("gfx942",
 * "gfx950"): out as struct tr_translation documents.  Returns 0 when every kernel has a
 * result (translated or refused), -1 with out->error when the object cannot be read, lowered
 * or linked.  The caller frees out (translation_free) either way.
 */
int amdgcn_translate(const void *code, size_t size, const char *target, tr_progress_fn progress,
                     void *progress_ctx, struct tr_translation *out);

/* Fills t as refused for w (offset, mnemonic, reason and its text, detail). */
void tr_kernel_refuse(struct tr_kernel *t, const struct raise_refusal *w);
/* Frees what t holds (its strings), not t. */
void tr_kernel_free(struct tr_kernel *t);

#endif
