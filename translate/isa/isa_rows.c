/* The gfx1250 rows as data (from gfx1250.def) and the opcode lookup built from them. */
#include "isa_internal.h"

#include <pthread.h>

const struct isa_row isa_gfx1250_rows[ISA_OP_COUNT] = {
    [ISA_OP_UNKNOWN] = {.mnemonic = "<unknown>"},
#define ISA_ROW(id, fmt, opc, mnem, d, s0, s1, s2, shp, impl, flg, vd, smp)                        \
	[ISA_OP_##id] = {.mnemonic = mnem,                                                         \
	                 .format = ISA_FMT_##fmt,                                                  \
	                 .opcode = opc,                                                            \
	                 .dst = d,                                                                 \
	                 .src0 = s0,                                                               \
	                 .src1 = s1,                                                               \
	                 .src2 = s2,                                                               \
	                 .shape = shp,                                                             \
	                 .impl_def = (impl)&0xf,                                                   \
	                 .impl_use = (impl) >> 4,                                                  \
	                 .flags = flg,                                                             \
	                 .vopd = vd,                                                               \
	                 .sample = smp},
#include "gfx1250.def"
#undef ISA_ROW
};

/* (format, opcode) -> row, and VOPD component opcode -> row; built once. */
static uint16_t lookup[ISA_FMT_COUNT][ISA_OPCODE_SPACE];
static uint16_t vopd_lookup[ISA_VOPD_SPACE];
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;

static void build_lookup(void)
{
	for (unsigned id = 1; id < ISA_OP_COUNT; id++) {
		const struct isa_row *r = &isa_gfx1250_rows[id];
		lookup[r->format][r->opcode] = (uint16_t)id;
		if (r->vopd)
			vopd_lookup[r->vopd - 1] = (uint16_t)id;
	}
}

unsigned isa_gfx1250_find(unsigned format, unsigned opcode)
{
	if (format >= ISA_FMT_COUNT || opcode >= ISA_OPCODE_SPACE)
		return ISA_OP_UNKNOWN;
	pthread_once(&lookup_once, build_lookup);
	return lookup[format][opcode];
}

unsigned isa_gfx1250_find_vopd(unsigned code)
{
	if (code >= ISA_VOPD_SPACE)
		return ISA_OP_UNKNOWN;
	pthread_once(&lookup_once, build_lookup);
	return vopd_lookup[code];
}
