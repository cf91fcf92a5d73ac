/* A code object's metadata records found in its notes and read merged (meta_read.h). */
#include "meta_read.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "str_fmt.h"

/* The message into err, then rc (meta_read.h). */
#define FAIL(rc, ...) (str_fail(err, err_size, __VA_ARGS__), (rc))

/* One metadata record found in a note section. */
struct record {
	size_t sec;
	uint64_t rec_off, rec_size, desc_off;
	uint32_t desc_size;
};

/*
 * Collects the owner "AMDGPU" type 32 records of section sec into *r.  Until the first
 * one is found (strict), a malformed record makes a bad object; after it, a malformed
 * record ends that section's walk, as comgr's reader stops there.
 */
static int find_in_notes(const struct cob_elf *e, size_t sec, bool strict, struct record **r,
                         size_t *n, char *err, size_t err_size)
{
	const GElf_Shdr *sh = &e->sec[sec].sh;
	struct cob_note_iter it;
	struct cob_note note;
	enum cob_note_step step;

	cob_elf_notes(&it, e, sec);
	while ((step = cob_note_next(&it, &note)) == COB_NOTE_RECORD) {
		struct record *nr;
		if (!cob_note_is_amdgpu(&note, COB_NT_AMDGPU_METADATA))
			continue;
		nr = realloc(*r, (*n + 1) * sizeof(**r));
		if (!nr)
			return FAIL(-ENOMEM, "out of memory");
		*r = nr;
		(*r)[(*n)++] = (struct record){sec, sh->sh_offset + note.off, note.size,
		                               (uint64_t)(note.desc - e->buf), note.descsz};
		strict = false;
	}
	if (strict && step == COB_NOTE_TRUNCATED)
		return FAIL(-EINVAL,
		            "note section [%zu] '%s' has a "
		            "truncated record at offset %llu",
		            sec, e->sec[sec].name, (unsigned long long)note.off);
	if (strict && step == COB_NOTE_OVERRUN)
		return FAIL(-EINVAL,
		            "note section [%zu] '%s' has a record "
		            "at offset %llu running past its end",
		            sec, e->sec[sec].name, (unsigned long long)note.off);
	return 0;
}

/* Why codeobj could not read record r (cob_meta_add's verdict v). */
static int unreadable(const struct cob_elf *e, const struct record *r, enum cob_meta_verdict v,
                      char *err, size_t err_size)
{
	if (v == COB_META_NO_MEMORY)
		return FAIL(-ENOMEM, "out of memory");
	if (v == COB_META_NOT_MAP)
		return FAIL(-EINVAL, "AMDGPU metadata is not a msgpack map");
	if (v == COB_META_KERNELS_NOT_ARRAY)
		return FAIL(-EINVAL, "AMDGPU metadata 'amdhsa.kernels' is not an array");
	return FAIL(-EINVAL,
	            "AMDGPU metadata note in section [%zu] '%s' is "
	            "not one valid msgpack document",
	            r->sec, e->sec[r->sec].name);
}

/* Offers the records r[0..n) in order; where[i] for each record taken. */
static int offer(const struct cob_elf *e, const struct record *r, size_t n, struct cob_meta *m,
                 struct cob_meta_where *where, cob_meta_unread_fn unread, void *ctx, char *err,
                 size_t err_size)
{
	for (size_t i = 0; i < n; i++) {
		enum cob_meta_verdict v = cob_meta_add(m, e->buf + r[i].desc_off, r[i].desc_size);
		int rc = 0;
		if (v >= COB_META_NOT_DOCUMENT)
			rc = unreadable(e, &r[i], v, err, err_size);
		if (rc == -ENOMEM || (rc && i == 0))
			return rc;
		/* The first record is the metadata; a later one that cannot merge is left out. */
		if (rc && unread)
			unread(ctx, err);
		if (v != COB_META_TAKEN)
			continue;
		if (where)
			where[m->n_rec - 1] = (struct cob_meta_where){
			    r[i].sec, cob_note_align(e->sec[r[i].sec].sh.sh_addralign),
			    r[i].rec_off, r[i].rec_size};
	}
	return 0;
}

int cob_elf_meta_read(const struct cob_elf *e, struct cob_meta *m, struct cob_meta_where **where,
                      cob_meta_unread_fn unread, void *ctx, char *err, size_t err_size)
{
	struct record *r = NULL;
	struct cob_meta_where *w = NULL;
	size_t n = 0;
	int rc = 0;

	if (where)
		*where = NULL;
	for (size_t i = 1; i < e->shnum && !rc; i++) {
		if (e->sec[i].sh.sh_type != SHT_NOTE || !(e->sec[i].sh.sh_flags & SHF_ALLOC))
			continue;
		rc = find_in_notes(e, i, n == 0, &r, &n, err, err_size);
	}
	if (!rc && n && where && !(w = calloc(n, sizeof(*w))))
		rc = FAIL(-ENOMEM, "out of memory");
	if (!rc)
		rc = offer(e, r, n, m, w, unread, ctx, err, err_size);
	free(r);
	if (rc) {
		cob_meta_free(m);
		free(w);
		return rc;
	}
	if (where)
		*where = w;
	return 0;
}
