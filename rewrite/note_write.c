/* The one writer of a note record's header, padded by codeobj's rule (note.h). */
#include "hs_internal.h"

#include <string.h>

uint64_t hs_note_record_size(uint32_t descsz, uint64_t align)
{
	return cob_note_desc_offset(sizeof(COB_NOTE_OWNER_AMDGPU), align) +
	       cob_note_pad(descsz, align);
}

size_t hs_note_put_header(uint8_t *r, uint32_t type, uint32_t descsz, uint64_t align)
{
	hs_wr32(r, sizeof(COB_NOTE_OWNER_AMDGPU));
	hs_wr32(r + 4, descsz);
	hs_wr32(r + 8, type);
	memcpy(r + 12, COB_NOTE_OWNER_AMDGPU, sizeof(COB_NOTE_OWNER_AMDGPU));
	return (size_t)cob_note_desc_offset(sizeof(COB_NOTE_OWNER_AMDGPU), align);
}
