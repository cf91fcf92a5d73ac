/* The gfx table; every row is checked against LLVM 22 by tests/unit/test_gfx_table.c. */
#include "gfx_table.h"

#include <stdio.h>
#include <string.h>

#define ROW(n, m, k, fam, w, gen, ret)                                                             \
	{                                                                                          \
		.name = n, .mach = m, .kfd_version = k, .family = fam, .wavefront_size = w,        \
		.generic = gen, .is_generic = false, .llvm22_known = true, .retarget = ret         \
	}
/* The retarget column of the processor whose code the translator reads (gfx_route.h); the
 * macro supplies that row's second designated initializer. */
#define SAME_ISA_AND_TRANSLATION_SOURCE GFX_RETARGET_SAME_ISA, .translation_source = true
#define GENERIC(n, m, fam, w, known)                                                               \
	{                                                                                          \
		.name = n, .mach = m, .kfd_version = 0, .family = fam, .wavefront_size = w,        \
		.generic = NULL, .is_generic = true, .llvm22_known = known,                        \
		.retarget = GFX_RETARGET_NONE                                                      \
	}

static const struct gfx_info rows[] = {
    /* gfx6 (Southern Islands): the KFD never drove it, so it has no gfx_target_version. */
    ROW("gfx600", 0x20, 0, "gfx6", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx601", 0x21, 0, "gfx6", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx602", 0x3a, 0, "gfx6", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx700", 0x22, 70000, "gfx7", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx701", 0x23, 70001, "gfx7", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx702", 0x24, 70002, "gfx7", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx703", 0x25, 70003, "gfx7", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx704", 0x26, 70004, "gfx7", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx705", 0x3b, 70005, "gfx7", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx801", 0x28, 80001, "gfx8", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx802", 0x29, 80002, "gfx8", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx803", 0x2a, 80003, "gfx8", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx805", 0x3c, 80005, "gfx8", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx810", 0x2b, 80100, "gfx8", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx900", 0x2c, 90000, "gfx9", 64, "gfx9-generic", GFX_RETARGET_NONE),
    ROW("gfx902", 0x2d, 90002, "gfx9", 64, "gfx9-generic", GFX_RETARGET_NONE),
    ROW("gfx904", 0x2e, 90004, "gfx9", 64, "gfx9-generic", GFX_RETARGET_NONE),
    ROW("gfx906", 0x2f, 90006, "gfx9", 64, "gfx9-generic", GFX_RETARGET_NONE),
    ROW("gfx908", 0x30, 90008, "gfx9", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx909", 0x31, 90009, "gfx9", 64, "gfx9-generic", GFX_RETARGET_NONE),
    ROW("gfx90a", 0x3f, 90010, "gfx9", 64, NULL, GFX_RETARGET_NONE),
    ROW("gfx90c", 0x32, 90012, "gfx9", 64, "gfx9-generic", GFX_RETARGET_NONE),
    ROW("gfx942", 0x4c, 90402, "gfx9.4", 64, "gfx9-4-generic", GFX_RETARGET_CROSS),
    ROW("gfx950", 0x4f, 90500, "gfx9.4", 64, "gfx9-4-generic", GFX_RETARGET_CROSS),
    ROW("gfx1010", 0x33, 100100, "gfx10.1", 32, "gfx10-1-generic", GFX_RETARGET_NONE),
    ROW("gfx1011", 0x34, 100101, "gfx10.1", 32, "gfx10-1-generic", GFX_RETARGET_NONE),
    ROW("gfx1012", 0x35, 100102, "gfx10.1", 32, "gfx10-1-generic", GFX_RETARGET_NONE),
    ROW("gfx1013", 0x42, 100103, "gfx10.1", 32, "gfx10-1-generic", GFX_RETARGET_NONE),
    ROW("gfx1030", 0x36, 100300, "gfx10.3", 32, "gfx10-3-generic", GFX_RETARGET_NONE),
    ROW("gfx1031", 0x37, 100301, "gfx10.3", 32, "gfx10-3-generic", GFX_RETARGET_NONE),
    ROW("gfx1032", 0x38, 100302, "gfx10.3", 32, "gfx10-3-generic", GFX_RETARGET_NONE),
    ROW("gfx1033", 0x39, 100303, "gfx10.3", 32, "gfx10-3-generic", GFX_RETARGET_NONE),
    ROW("gfx1034", 0x3e, 100304, "gfx10.3", 32, "gfx10-3-generic", GFX_RETARGET_NONE),
    ROW("gfx1035", 0x3d, 100305, "gfx10.3", 32, "gfx10-3-generic", GFX_RETARGET_NONE),
    ROW("gfx1036", 0x45, 100306, "gfx10.3", 32, "gfx10-3-generic", GFX_RETARGET_NONE),
    ROW("gfx1100", 0x41, 110000, "gfx11", 32, "gfx11-generic", GFX_RETARGET_NONE),
    ROW("gfx1101", 0x46, 110001, "gfx11", 32, "gfx11-generic", GFX_RETARGET_NONE),
    ROW("gfx1102", 0x47, 110002, "gfx11", 32, "gfx11-generic", GFX_RETARGET_NONE),
    ROW("gfx1103", 0x44, 110003, "gfx11", 32, "gfx11-generic", GFX_RETARGET_NONE),
    ROW("gfx1150", 0x43, 110500, "gfx11", 32, "gfx11-generic", GFX_RETARGET_NONE),
    ROW("gfx1151", 0x4a, 110501, "gfx11", 32, "gfx11-generic", GFX_RETARGET_NONE),
    ROW("gfx1152", 0x55, 110502, "gfx11", 32, "gfx11-generic", GFX_RETARGET_NONE),
    ROW("gfx1153", 0x58, 110503, "gfx11", 32, "gfx11-generic", GFX_RETARGET_NONE),
    ROW("gfx1200", 0x48, 120000, "gfx12", 32, "gfx12-generic", GFX_RETARGET_NONE),
    ROW("gfx1201", 0x4e, 120001, "gfx12", 32, "gfx12-generic", GFX_RETARGET_NONE),
    ROW("gfx1250", 0x49, 120500, "gfx12.5", 32, NULL, SAME_ISA_AND_TRANSLATION_SOURCE),
    ROW("gfx1251", 0x5a, 120501, "gfx12.5", 32, NULL, GFX_RETARGET_SAME_ISA),
    GENERIC("gfx9-generic", 0x51, "gfx9", 64, true),
    GENERIC("gfx9-4-generic", 0x5f, "gfx9.4", 64, true),
    GENERIC("gfx10-1-generic", 0x52, "gfx10.1", 32, true),
    GENERIC("gfx10-3-generic", 0x53, "gfx10.3", 32, true),
    GENERIC("gfx11-generic", 0x54, "gfx11", 32, true),
    GENERIC("gfx12-generic", 0x59, "gfx12", 32, true),
    /* Named by the reference mirage (docs/HACKING.md); LLVM 22 has no such processor, so it has
     * no mach value. */
    GENERIC("gfx12-5-generic", 0x00, "gfx12.5", 32, false),
};

const struct gfx_info *gfx_table(size_t *count)
{
	*count = sizeof(rows) / sizeof(rows[0]);
	return rows;
}

const struct gfx_info *gfx_by_name(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (!strcmp(rows[i].name, name))
			return &rows[i];
	return NULL;
}

const struct gfx_info *gfx_by_mach(uint8_t mach)
{
	if (!mach)
		return NULL;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].mach == mach)
			return &rows[i];
	return NULL;
}

const struct gfx_info *gfx_by_kfd_version(uint32_t version)
{
	if (!version)
		return NULL;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (rows[i].kfd_version == version)
			return &rows[i];
	return NULL;
}

char *gfx_name_from_kfd_version(uint32_t version, char *buf, size_t size)
{
	unsigned major = version / 10000, minor = (version / 100) % 100, step = version % 100;
	int n = snprintf(buf, size, "gfx%u%x%x", major, minor, step);
	if (n < 0 || (size_t)n >= size)
		return NULL;
	return buf;
}

const char *gfx_target_processor(const char *target_id, char *buf, size_t size)
{
	const char *s = target_id, *triple_end = strstr(target_id, "--");
	size_t n;

	if (triple_end)
		s = triple_end + 2;
	n = strcspn(s, ":");
	if (n >= size)
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

bool gfx_has_a0_stepping(const struct gfx_info *g)
{
	return g && !strcmp(g->name, "gfx1250");
}

enum gfx_stepping gfx_stepping(const struct gfx_info *g, unsigned asic_revision)
{
	if (!g || strcmp(g->family, "gfx12.5"))
		return GFX_STEPPING_NONE;
	return gfx_has_a0_stepping(g) && asic_revision == 0 ? GFX_STEPPING_A0 : GFX_STEPPING_B0;
}
