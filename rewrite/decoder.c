/* One lazily created LLVM MC decoder per call, from libhotswap_mc loaded on first use. */
#include "decoder.h"

#include "hs_internal.h"
#include "gfx_table.h"
#include "hs_mc.h"

void hs_decoder_release(struct hs_decoder *d)
{
	if (d->dis)
		d->api->disasm_destroy(d->dis);
	d->dis = NULL;
}

/* Fresh objects never get here: rewrite calls it only for an entry outside .text. */
enum hs_status hs_decoder_get(struct hs_decoder *d)
{
	const struct gfx_info *g;

	if (d->dis)
		return HS_OK;
	g = gfx_by_name(d->cpu);
	if (g && !hs_mc_family_disassembles(g->family))
		return hs_fail(
		    HS_ERROR,
		    "LLVM 22 cannot disassemble %s: its AMDGPU disassembler starts at gfx8",
		    d->cpu);
	d->api = hs_mc_get();
	if (!d->api)
		return HS_ERROR;
	d->dis = d->api->disasm_create(d->cpu);
	if (!d->dis)
		return hs_fail(HS_ERROR, "libhotswap_mc cannot create a decoder for %s", d->cpu);
	return HS_OK;
}
