/* Provenance notes: what earlier rewrites did, read so pools never stack or mismatch. */
#include "hs_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum hs_status hs_provenance_read(const struct cob_elf *e, struct hs_provenance **out, size_t *n)
{
	struct hs_provenance *p = NULL;
	size_t cnt = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 1; i < e->shnum; i++) {
		const GElf_Shdr *sh = &e->sec[i].sh;
		struct cob_note_iter it;
		struct cob_note note;
		enum cob_note_step step;

		if (sh->sh_type != SHT_NOTE || (sh->sh_flags & SHF_ALLOC))
			continue;
		cob_elf_notes(&it, e, i);
		/* A cut-short header ends the section quietly; an overrun is an error. */
		while ((step = cob_note_next(&it, &note)) == COB_NOTE_RECORD) {
			struct hs_provenance *np;
			const uint8_t *d = note.desc;

			if (!cob_note_is_amdgpu(&note, HS_NT_PROVENANCE))
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
		if (step == COB_NOTE_OVERRUN) {
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

/* Copies the NUL-terminated string at d[*pos..end) into buf; false when it runs past end. */
static bool take_string(const uint8_t *d, size_t end, size_t *pos, char *buf, size_t size)
{
	const uint8_t *nul = *pos < end ? memchr(d + *pos, 0, end - *pos) : NULL;
	size_t len;

	if (!nul)
		return false;
	len = (size_t)(nul - (d + *pos));
	snprintf(buf, size, "%.*s", (int)len, (const char *)d + *pos);
	*pos += len + 1;
	return true;
}

enum hs_status hs_translation_read(const struct cob_elf *e, struct hs_translation_prov *t,
                                   bool *found)
{
	*found = false;
	memset(t, 0, sizeof(*t));
	for (size_t i = 1; i < e->shnum; i++) {
		const GElf_Shdr *sh = &e->sec[i].sh;
		struct cob_note_iter it;
		struct cob_note note;

		if (sh->sh_type != SHT_NOTE || (sh->sh_flags & SHF_ALLOC))
			continue;
		cob_elf_notes(&it, e, i);
		while (cob_note_next(&it, &note) == COB_NOTE_RECORD) {
			size_t pos = 4;
			if (!cob_note_is_amdgpu(&note, HS_NT_TRANSLATION))
				continue;
			if (note.descsz < 4 || hs_rd32(note.desc) != HS_TRANSLATION_VERSION ||
			    !take_string(note.desc, note.descsz, &pos, t->source,
			                 sizeof(t->source)) ||
			    !take_string(note.desc, note.descsz, &pos, t->target,
			                 sizeof(t->target)) ||
			    !take_string(note.desc, note.descsz, &pos, t->build, sizeof(t->build)))
				return hs_fail(
				    HS_INVALID_ARGUMENT,
				    "translation note in section [%zu] '%s' has an unknown "
				    "format",
				    i, e->sec[i].name);
			*found = true;
			return HS_OK;
		}
	}
	return HS_OK;
}

enum hs_status hs_translation_record(const char *source, const char *target, const char *build,
                                     uint8_t **rec, size_t *size)
{
	size_t ls = strlen(source) + 1, lt = strlen(target) + 1, lb = strlen(build) + 1;
	size_t descsz = 4 + ls + lt + lb, total;
	uint8_t *r, *d;

	if (descsz > UINT32_MAX / 2)
		return hs_fail(HS_OUT_OF_RESOURCES, "the translation note would be too large");
	total = (size_t)hs_note_record_size((uint32_t)descsz, 4);
	r = calloc(1, total);
	if (!r)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	d = r + hs_note_put_header(r, HS_NT_TRANSLATION, (uint32_t)descsz, 4);
	hs_wr32(d, HS_TRANSLATION_VERSION);
	memcpy(d + 4, source, ls);
	memcpy(d + 4 + ls, target, lt);
	memcpy(d + 4 + ls + lt, build, lb);
	*rec = r;
	*size = total;
	return HS_OK;
}
