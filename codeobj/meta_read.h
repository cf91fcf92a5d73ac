/*
 * A code object's AMDGPU metadata read from its notes (libmirage_codeobj): every
 * NT_AMDGPU_METADATA record of its allocated note sections, in section and record order,
 * offered to the merge (meta_merge.h), so the rewriter and the translator's reader see the
 * same merged metadata, and refuse the same malformed notes with the same words.
 */
#ifndef MIRAGE_CODEOBJ_META_READ_H
#define MIRAGE_CODEOBJ_META_READ_H

#include <stddef.h>
#include <stdint.h>

#include "elf_view.h"
#include "meta_merge.h"

/* Where a record of the metadata lies in the file (the rewriter re-encodes records). */
struct cob_meta_where {
	size_t sec;                 /* the note section holding it */
	uint64_t align;             /* how that section pads records (cob_note_align) */
	uint64_t rec_off, rec_size; /* file range of the whole record */
};

/* Told why a later record is left out unread (one that is no metadata document, not one that
 * only does not merge): the rewriter logs it. */
typedef void (*cob_meta_unread_fn)(void *ctx, const char *why);

/*
 * Reads e's metadata into m (COB_META_INIT); where, when not NULL, gets one entry per record m
 * took (malloc'ed).  A note section whose walk fails before the first metadata record is a bad
 * object; after it, a malformed record ends that section's walk, as comgr's reader stops there.
 * 0, with m->n_rec 0 when the object has no metadata note; -EINVAL with the reason in err (a
 * malformed note section before the first record, a first record that is no metadata
 * document); -ENOMEM.  On failure m and *where are empty.
 */
int cob_elf_meta_read(const struct cob_elf *e, struct cob_meta *m, struct cob_meta_where **where,
                      cob_meta_unread_fn unread, void *ctx, char *err, size_t err_size);

#endif
