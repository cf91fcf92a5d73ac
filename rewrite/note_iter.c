/* The one walk over the records of a note section, and the one writer of a record header. */
#include "hs_internal.h"

#include <string.h>

/* v rounded up to align (4 or 8); v is at most 12 + a 32-bit field, so this cannot overflow. */
static uint64_t pad(uint64_t v, uint64_t align)
{
	return (v + align - 1) & ~(align - 1);
}

/*
 * Where the desc starts: the header and name padded together, as LLVM and
 * binutils read it (gABI).  With 4 that is the name padded to 4; with 8 the
 * desc is 8-aligned in the record, which padding the name alone to 8 is not.
 */
static uint64_t desc_offset(uint32_t namesz, uint64_t align)
{
	return pad(12 + (uint64_t)namesz, align);
}

uint64_t hs_note_align(const GElf_Shdr *sh)
{
	return sh->sh_addralign == 8 ? 8 : 4;
}

void hs_note_iter_init(struct hs_note_iter *it, const struct hs_elf *e, size_t sec)
{
	const GElf_Shdr *sh = &e->sec[sec].sh;

	it->base = e->buf + sh->sh_offset;
	it->size = sh->sh_size;
	it->pos = 0;
	it->align = hs_note_align(sh);
}

enum hs_note_step hs_note_next(struct hs_note_iter *it, struct hs_note *n)
{
	const uint8_t *r = it->base + it->pos;
	uint64_t desc_off;

	if (it->pos >= it->size)
		return HS_NOTE_END;
	n->off = it->pos;
	if (it->size - it->pos < 12)
		return HS_NOTE_TRUNCATED;
	n->namesz = hs_rd32(r);
	n->descsz = hs_rd32(r + 4);
	n->type = hs_rd32(r + 8);
	desc_off = desc_offset(n->namesz, it->align);
	n->size = desc_off + pad(n->descsz, it->align);
	if (!hs_in_bounds(it->pos, n->size, it->size))
		return HS_NOTE_OVERRUN;
	n->name = r + 12;
	n->desc = r + desc_off;
	it->pos += n->size;
	return HS_NOTE_RECORD;
}

bool hs_note_is_amdgpu(const struct hs_note *n, uint32_t type)
{
	return n->type == type && n->namesz == sizeof(HS_NOTE_OWNER) &&
	       !memcmp(n->name, HS_NOTE_OWNER, sizeof(HS_NOTE_OWNER));
}

uint64_t hs_note_record_size(uint32_t descsz, uint64_t align)
{
	return desc_offset(sizeof(HS_NOTE_OWNER), align) + pad(descsz, align);
}

size_t hs_note_put_header(uint8_t *r, uint32_t type, uint32_t descsz, uint64_t align)
{
	hs_wr32(r, sizeof(HS_NOTE_OWNER));
	hs_wr32(r + 4, descsz);
	hs_wr32(r + 8, type);
	memcpy(r + 12, HS_NOTE_OWNER, sizeof(HS_NOTE_OWNER));
	return (size_t)desc_offset(sizeof(HS_NOTE_OWNER), align);
}
