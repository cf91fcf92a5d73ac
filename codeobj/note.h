/*
 * The records of an ELF note section (libmirage_codeobj): the one walk every reader of a code
 * object's notes takes (the AMDGPU metadata, the rewriter's provenance and translation notes),
 * and the layout rule the rewriter's note writer shares with it.  Pure: no allocation.
 */
#ifndef MIRAGE_CODEOBJ_NOTE_H
#define MIRAGE_CODEOBJ_NOTE_H

#include <stdbool.h>
#include <stdint.h>

/* The owner of LLVM's AMDGPU notes and of the rewriter's; its namesz is 7, the NUL counted. */
#define COB_NOTE_OWNER_AMDGPU "AMDGPU"
/* NT_AMDGPU_METADATA: the code object's msgpack metadata (one record per linked input). */
#define COB_NT_AMDGPU_METADATA 32u

/* One record of a note section, as cob_note_next yields it. */
struct cob_note {
	uint64_t off;  /* of the record, from the section start */
	uint64_t size; /* the whole record: header, padded name, padded desc */
	uint32_t type;
	uint32_t namesz, descsz;
	const uint8_t *name; /* the owner, namesz bytes with its NUL */
	const uint8_t *desc;
};
struct cob_note_iter {
	const uint8_t *base; /* the section's bytes */
	uint64_t size, pos, align;
};
enum cob_note_step {
	COB_NOTE_END = 0,   /* no bytes left */
	COB_NOTE_RECORD,    /* *n is the next record, inside the section */
	COB_NOTE_TRUNCATED, /* fewer than 12 bytes left at n->off: no whole header */
	COB_NOTE_OVERRUN,   /* the record at n->off runs past the section end */
};

/*
 * How a note section pads its records, from its sh_addralign: to 8 when it is 8, else to 4.
 * The header and the name are padded together, then the desc (as LLVM and binutils read it).
 */
uint64_t cob_note_align(uint64_t sh_addralign);
/* Walks the records of the size bytes at base, padded to align (cob_note_align). */
void cob_note_iter_init(struct cob_note_iter *it, const void *base, uint64_t size, uint64_t align);
/* The next record.  A malformed one is reported, not skipped: the walk stays on it, and each
 * caller decides how tolerant to be. */
enum cob_note_step cob_note_next(struct cob_note_iter *it, struct cob_note *n);
/* True when the record is owned by "AMDGPU" (LLVM's notes and the rewriter's) and has type. */
bool cob_note_is_amdgpu(const struct cob_note *n, uint32_t type);

/* Where the desc of a record with a namesz-byte owner starts, padded to align. */
uint64_t cob_note_desc_offset(uint32_t namesz, uint64_t align);
/* v rounded up to align (4 or 8); v is at most 12 + a 32-bit field, so this cannot overflow. */
uint64_t cob_note_pad(uint64_t v, uint64_t align);

#endif
