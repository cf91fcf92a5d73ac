/* The rows of every table as data (gfx1250.def, gfx942.def, gfx950.def), the one table of the
 * architectures, and the opcode lookups built from the rows. */
#include "isa_internal.h"

#include <pthread.h>

#include "gfx_table.h"

#define ISA_ROW(id, fmt, opc, mnem, d, s0, s1, s2, shp, impl, flg, vd, typ, mm, opr, smp)          \
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
	                 .type = typ,                                                              \
	                 .mem = mm,                                                                \
	                 .oper = opr,                                                              \
	                 .sample = smp},
/* A row whose id the gfx942 table adds to the op list: the same initializer. */
#define ISA_ROW_NEW ISA_ROW

const struct isa_row isa_gfx1250_rows[ISA_OP_COUNT] = {
    [ISA_OP_UNKNOWN] = {.mnemonic = "<unknown>"},
#include "gfx1250.def"
};

const struct isa_row isa_gfx942_rows[ISA_OP_COUNT] = {
    [ISA_OP_UNKNOWN] = {.mnemonic = "<unknown>"},
#include "gfx942.def"
};

/* gfx950: every gfx942 row, and what gfx950 adds (no row of gfx942.def is overridden). */
const struct isa_row isa_gfx950_rows[ISA_OP_COUNT] = {
    [ISA_OP_UNKNOWN] = {.mnemonic = "<unknown>"},
#include "gfx942.def"
#include "gfx950.def"
};

#undef ISA_ROW
#undef ISA_ROW_NEW

/*
 * The architectures: every list of them is this one (enum isa_arch indexes it).  A processor
 * whose name is an entry's name decodes with that entry; any other with the entry of its
 * family (gfx1251 with gfx1250, gfx9-4-generic with gfx942).  LDS: LLVM 22's limits, and the
 * block a workgroup's LDS is allocated in (AMDGPUUsage's GRANULATED_LDS_SIZE: 128 dwords on
 * gfx9.4, 320 on gfx950, 512 on gfx12.5, as LLVM 22 encodes gfx942's and gfx1250's; the
 * smaller of gfx950's two readings, 320 dwords against LLVM's 2048-byte field).
 */
static const struct isa_arch_info archs[ISA_ARCH_COUNT] = {
    [ISA_ARCH_GFX1250] = {"gfx1250", "gfx12.5", 320u * 1024, 2048, isa_gfx1250_rows,
                          &isa_gfx1250_codec},
    [ISA_ARCH_GFX942] = {"gfx942", "gfx9.4", 64u * 1024, 512, isa_gfx942_rows, &isa_gfx9_codec},
    [ISA_ARCH_GFX950] = {"gfx950", NULL, 160u * 1024, 1280, isa_gfx950_rows, &isa_gfx9_codec},
};

const struct isa_arch_info *isa_arch_info(unsigned arch)
{
	return arch < ISA_ARCH_COUNT ? &archs[arch] : NULL;
}

const struct isa_row *isa_arch_rows(unsigned arch)
{
	return arch < ISA_ARCH_COUNT ? archs[arch].rows : NULL;
}

const char *isa_arch_name(unsigned arch)
{
	return arch < ISA_ARCH_COUNT ? archs[arch].name : "?";
}

int isa_arch_by_name(const char *name)
{
	for (unsigned a = 0; name && a < ISA_ARCH_COUNT; a++)
		if (!strcmp(archs[a].name, name))
			return (int)a;
	return -1;
}

uint32_t isa_arch_lds_limit(unsigned arch)
{
	return arch < ISA_ARCH_COUNT ? archs[arch].lds_bytes : 0;
}

uint32_t isa_arch_lds_granule(unsigned arch)
{
	return arch < ISA_ARCH_COUNT ? archs[arch].lds_granule : 1;
}

int isa_arch_of_e_flags(uint32_t e_flags)
{
	const struct gfx_info *g = gfx_by_mach((uint8_t)(e_flags & 0xff));
	int a = g ? isa_arch_by_name(g->name) : -1;

	for (unsigned i = 0; g && a < 0 && i < ISA_ARCH_COUNT; i++)
		if (archs[i].family && !strcmp(archs[i].family, g->family))
			a = (int)i;
	return a;
}

/* Per table: (format, opcode) -> row, and VOPD component opcode -> row; built once. */
static uint16_t lookup[ISA_ARCH_COUNT][ISA_FMT_COUNT][ISA_OPCODE_SPACE];
static uint16_t vopd_lookup[ISA_ARCH_COUNT][ISA_VOPD_SPACE];
static pthread_once_t lookup_once = PTHREAD_ONCE_INIT;

static void build_lookup(void)
{
	for (unsigned a = 0; a < ISA_ARCH_COUNT; a++)
		for (unsigned id = 1; id < ISA_OP_COUNT; id++) {
			const struct isa_row *r = &archs[a].rows[id];
			if (!r->mnemonic)
				continue;
			lookup[a][r->format][r->opcode] = (uint16_t)id;
			if (r->vopd)
				vopd_lookup[a][r->vopd - 1] = (uint16_t)id;
		}
}

unsigned isa_find(unsigned arch, unsigned format, unsigned opcode)
{
	if (arch >= ISA_ARCH_COUNT || format >= ISA_FMT_COUNT || opcode >= ISA_OPCODE_SPACE)
		return ISA_OP_UNKNOWN;
	pthread_once(&lookup_once, build_lookup);
	return lookup[arch][format][opcode];
}

unsigned isa_find_vopd(unsigned arch, unsigned code)
{
	if (arch >= ISA_ARCH_COUNT || code >= ISA_VOPD_SPACE)
		return ISA_OP_UNKNOWN;
	pthread_once(&lookup_once, build_lookup);
	return vopd_lookup[arch][code];
}
