/* hs_object_load: one validated, immutable view of a code object for every reader. */
#include "object.h"

#include <stdlib.h>
#include <string.h>

/* The first metadata kernel no descriptor joined (-1: none), so callers can refuse it. */
static enum hs_status find_unjoined(struct hs_object *o)
{
	size_t n_meta = hs_meta_kernel_count(o->meta);
	bool *joined = calloc(n_meta ? n_meta : 1, sizeof(*joined));

	if (!joined)
		return hs_fail(HS_OUT_OF_RESOURCES, "out of memory");
	for (size_t i = 0; i < o->ks.n; i++)
		if (o->ks.k[i].meta >= 0)
			joined[o->ks.k[i].meta] = true;
	o->meta_unjoined = -1;
	for (size_t m = 0; m < n_meta && o->meta_unjoined < 0; m++)
		if (!joined[m])
			o->meta_unjoined = (int)m;
	free(joined);
	return HS_OK;
}

enum hs_status hs_object_load(struct hs_object *o, const void *in, size_t size)
{
	enum hs_status st;

	memset(o, 0, sizeof(*o));
	o->meta_unjoined = -1;
	st = hs_elf_open(&o->e, in, size);
	if (st)
		return st;
	st = hs_isa_read_elf((uint32_t)o->e.eh.e_flags, o->e.eh.e_ident[EI_ABIVERSION], &o->isa);
	if (!st) {
		o->layout = kd_layout_of(o->isa.gfx);
		st = hs_kernels_find(&o->e, &o->ks);
	}
	if (!st)
		st = hs_meta_read(&o->e, &o->meta);
	if (!st)
		st = hs_meta_join_kernels(o->meta, &o->ks);
	if (!st)
		st = find_unjoined(o);
	if (!st)
		st = hs_provenance_read(&o->e, &o->prov, &o->n_prov);
	if (st)
		hs_object_free(o);
	return st;
}

void hs_object_free(struct hs_object *o)
{
	free(o->prov);
	hs_meta_free(o->meta);
	cob_kernels_free(&o->ks);
	cob_elf_close(&o->e);
	memset(o, 0, sizeof(*o));
	o->meta_unjoined = -1;
}
