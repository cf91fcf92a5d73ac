/* The one walk over the records of a note section (note.h). */
#include "note.h"

#include <string.h>

/* A little-endian 32-bit field of a record's header. */
static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t cob_note_pad(uint64_t v, uint64_t align)
{
	return (v + align - 1) & ~(align - 1);
}

/*
 * The header and name padded together, as LLVM and binutils read it (gABI).  With 4 that is
 * the name padded to 4; with 8 the desc is 8-aligned in the record, which padding the name
 * alone to 8 is not.
 */
uint64_t cob_note_desc_offset(uint32_t namesz, uint64_t align)
{
	return cob_note_pad(12 + (uint64_t)namesz, align);
}

uint64_t cob_note_align(uint64_t sh_addralign)
{
	return sh_addralign == 8 ? 8 : 4;
}

void cob_note_iter_init(struct cob_note_iter *it, const void *base, uint64_t size, uint64_t align)
{
	it->base = base;
	it->size = size;
	it->pos = 0;
	it->align = align;
}

enum cob_note_step cob_note_next(struct cob_note_iter *it, struct cob_note *n)
{
	const uint8_t *r = it->base + it->pos;
	uint64_t desc_off, end;

	if (it->pos >= it->size)
		return COB_NOTE_END;
	n->off = it->pos;
	if (it->size - it->pos < 12)
		return COB_NOTE_TRUNCATED;
	n->namesz = rd32(r);
	n->descsz = rd32(r + 4);
	n->type = rd32(r + 8);
	desc_off = cob_note_desc_offset(n->namesz, it->align);
	n->size = desc_off + cob_note_pad(n->descsz, it->align);
	if (__builtin_add_overflow(it->pos, n->size, &end) || end > it->size)
		return COB_NOTE_OVERRUN;
	n->name = r + 12;
	n->desc = r + desc_off;
	it->pos += n->size;
	return COB_NOTE_RECORD;
}

bool cob_note_is_amdgpu(const struct cob_note *n, uint32_t type)
{
	return n->type == type && n->namesz == sizeof(COB_NOTE_OWNER_AMDGPU) &&
	       !memcmp(n->name, COB_NOTE_OWNER_AMDGPU, sizeof(COB_NOTE_OWNER_AMDGPU));
}
