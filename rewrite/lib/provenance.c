/* Provenance notes: what earlier rewrites did, read so pools never stack or mismatch. */
#include "hs_internal.h"

#include <stdlib.h>
#include <string.h>

enum hs_status hs_provenance_read(const struct hs_elf *e, struct hs_provenance **out, size_t *n)
{
	struct hs_provenance *p = NULL;
	size_t cnt = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 1; i < e->shnum; i++) {
		const GElf_Shdr *sh = &e->sec[i].sh;
		uint64_t pos = 0;

		if (sh->sh_type != SHT_NOTE || (sh->sh_flags & SHF_ALLOC))
			continue;
		while (pos + 12 <= sh->sh_size) {
			const uint8_t *r = e->buf + sh->sh_offset + pos;
			uint64_t namesz = hs_rd32(r), descsz = hs_rd32(r + 4);
			uint64_t total = 12 + ((namesz + 3) & ~3ull) + ((descsz + 3) & ~3ull);
			struct hs_provenance *np;
			const uint8_t *d;

			if (!hs_in_bounds(pos, total, sh->sh_size)) {
				free(p);
				return hs_fail(HS_INVALID_ARGUMENT,
				               "note section [%zu] '%s' has a "
				               "record running past its end",
				               i, e->sec[i].name);
			}
			if (hs_rd32(r + 8) != HS_NT_PROVENANCE || namesz != 7 ||
			    memcmp(r + 12, HS_NOTE_OWNER, 7)) {
				pos += total;
				continue;
			}
			d = r + 12 + 8;
			if (descsz != HS_PROV_DESC_SIZE || hs_rd32(d) != HS_PROVENANCE_VERSION) {
				free(p);
				return hs_fail(HS_INVALID_ARGUMENT,
				               "provenance note in section [%zu] "
				               "'%s' has an unknown format (version %u)",
				               i, e->sec[i].name, descsz >= 4 ? hs_rd32(d) : 0u);
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
			pos += total;
		}
	}
	*out = p;
	*n = cnt;
	return HS_OK;
}
