/* Provenance notes: what earlier rewrites did, read so pools never stack or mismatch. */
#include "hs_internal.h"

#include <stdlib.h>

enum hs_status hs_provenance_read(const struct hs_elf *e, struct hs_provenance **out, size_t *n)
{
	struct hs_provenance *p = NULL;
	size_t cnt = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 1; i < e->shnum; i++) {
		const GElf_Shdr *sh = &e->sec[i].sh;
		struct hs_note_iter it;
		struct hs_note note;
		enum hs_note_step step;

		if (sh->sh_type != SHT_NOTE || (sh->sh_flags & SHF_ALLOC))
			continue;
		hs_note_iter_init(&it, e, i);
		/* A cut-short header ends the section quietly; an overrun is an error. */
		while ((step = hs_note_next(&it, &note)) == HS_NOTE_RECORD) {
			struct hs_provenance *np;
			const uint8_t *d = note.desc;

			if (!hs_note_is_amdgpu(&note, HS_NT_PROVENANCE))
				continue;
			if (note.descsz != HS_PROV_DESC_SIZE ||
			    hs_rd32(d) != HS_PROVENANCE_VERSION) {
				free(p);
				return hs_fail(HS_INVALID_ARGUMENT,
				               "provenance note in section [%zu] "
				               "'%s' has an unknown format (version %u)",
				               i, e->sec[i].name,
				               note.descsz >= 4 ? hs_rd32(d) : 0u);
			}
			np = realloc(p, (cnt + 1) * sizeof(*p));
			if (!np) {
				free(p);
				return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
			}
			p = np;
			p[cnt++] = (struct hs_provenance){
			    .version = hs_rd32(d),
			    .transforms = hs_rd32(d + 4),
			    .state = hs_rd32(d + 8),
			    .pool_vaddr = hs_rd64(d + 16),
			    .pool_size = hs_rd64(d + 24),
			};
		}
		if (step == HS_NOTE_OVERRUN) {
			free(p);
			return hs_fail(HS_INVALID_ARGUMENT,
			               "note section [%zu] '%s' has a "
			               "record running past its end",
			               i, e->sec[i].name);
		}
	}
	*out = p;
	*n = cnt;
	return HS_OK;
}

const char *hs_state_name(uint32_t state)
{
	return state == HS_STATE_A0        ? "A0"
	       : state == HS_STATE_B0      ? "B0"
	       : state == HS_STATE_NEUTRAL ? "neutral"
	                                   : "unknown";
}
