/* The one walk over the records of a note section: headers, padding and bounds. */
#include "hs_internal.h"

#include <string.h>

void hs_note_iter_init(struct hs_note_iter *it, const struct hs_elf *e, size_t sec)
{
	const GElf_Shdr *sh = &e->sec[sec].sh;

	it->base = e->buf + sh->sh_offset;
	it->size = sh->sh_size;
	it->pos = 0;
	/* A section aligned to 8 pads name and desc to 8, as LLVM reads it; any other to 4. */
	it->align = sh->sh_addralign == 8 ? 8 : 4;
}

enum hs_note_step hs_note_next(struct hs_note_iter *it, struct hs_note *n)
{
	const uint8_t *r = it->base + it->pos;
	uint64_t name_pad, desc_pad;

	if (it->pos >= it->size)
		return HS_NOTE_END;
	n->off = it->pos;
	if (it->size - it->pos < 12)
		return HS_NOTE_TRUNCATED;
	n->namesz = hs_rd32(r);
	n->descsz = hs_rd32(r + 4);
	n->type = hs_rd32(r + 8);
	name_pad = ((uint64_t)n->namesz + it->align - 1) & ~(it->align - 1);
	desc_pad = ((uint64_t)n->descsz + it->align - 1) & ~(it->align - 1);
	n->size = 12 + name_pad + desc_pad;
	if (!hs_in_bounds(it->pos, n->size, it->size))
		return HS_NOTE_OVERRUN;
	n->name = r + 12;
	n->desc = r + 12 + name_pad;
	it->pos += n->size;
	return HS_NOTE_RECORD;
}

bool hs_note_is_amdgpu(const struct hs_note *n, uint32_t type)
{
	return n->type == type && n->namesz == sizeof(HS_NOTE_OWNER) &&
	       !memcmp(n->name, HS_NOTE_OWNER, sizeof(HS_NOTE_OWNER));
}
