/* Kernel descriptor fields and the per-family RSRC1/2/3 layouts (LLVM 22's names and bits). */
#include "kd.h"

#include <string.h>

#include "gfx_table.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd64(const uint8_t *p)
{
	return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32;
}

void kd_decode(const uint8_t raw[KD_SIZE], struct kd *kd)
{
	kd->group_segment_fixed_size = rd32(raw + KD_AT(group_segment_fixed_size));
	kd->private_segment_fixed_size = rd32(raw + KD_AT(private_segment_fixed_size));
	kd->kernarg_size = rd32(raw + KD_AT(kernarg_size));
	kd->entry_offset = (int64_t)rd64(raw + KD_AT(kernel_code_entry_byte_offset));
	kd->rsrc1 = rd32(raw + KD_AT(compute_pgm_rsrc1));
	kd->rsrc2 = rd32(raw + KD_AT(compute_pgm_rsrc2));
	kd->rsrc3 = rd32(raw + KD_AT(compute_pgm_rsrc3));
	kd->properties = rd16(raw + KD_AT(kernel_code_properties));
	kd->kernarg_preload = rd16(raw + KD_AT(kernarg_preload));
}

static uint32_t mask_of(const struct kd_field *f)
{
	return f->width >= 32 ? ~0u : ((1u << f->width) - 1) << f->lo;
}

uint32_t kd_field_get(uint32_t reg, const struct kd_field *f)
{
	return (reg & mask_of(f)) >> f->lo;
}

uint32_t kd_field_set(uint32_t reg, const struct kd_field *f, uint32_t v)
{
	return (reg & ~mask_of(f)) | ((v << f->lo) & mask_of(f));
}

/* RSRC1: the fields every family shares, then each generation's own. */
#define RSRC1_COMMON                                                                               \
	{"granulated_workitem_vgpr_count", 0, 6}, {"granulated_wavefront_sgpr_count", 6, 4},       \
	    {"priority", 10, 2}, {"float_round_mode_32", 12, 2},                                   \
	    {"float_round_mode_16_64", 14, 2}, {"float_denorm_mode_32", 16, 2},                    \
	    {"float_denorm_mode_16_64", 18, 2},                                                    \
	{                                                                                          \
		"priv", 20, 1                                                                      \
	}
#define RSRC1_GFX6_GFX11                                                                           \
	{"enable_dx10_clamp", 21, 1}, {"debug_mode", 22, 1},                                       \
	{                                                                                          \
		"enable_ieee_mode", 23, 1                                                          \
	}
#define RSRC1_GFX12                                                                                \
	{"enable_wg_rr_en", 21, 1}, {"debug_mode", 22, 1},                                         \
	{                                                                                          \
		"disable_perf", 23, 1                                                              \
	}
#define RSRC1_BULKY                                                                                \
	{"bulky", 24, 1},                                                                          \
	{                                                                                          \
		"cdbg_user", 25, 1                                                                 \
	}
#define RSRC1_GFX10                                                                                \
	{"wgp_mode", 29, 1}, {"mem_ordered", 30, 1},                                               \
	{                                                                                          \
		"fwd_progress", 31, 1                                                              \
	}

static const struct kd_field rsrc1_gfx6[] = {RSRC1_COMMON, RSRC1_GFX6_GFX11, RSRC1_BULKY};
static const struct kd_field rsrc1_gfx9[] = {
    RSRC1_COMMON, RSRC1_GFX6_GFX11, RSRC1_BULKY, {"fp16_ovfl", 26, 1}};
static const struct kd_field rsrc1_gfx10[] = {
    RSRC1_COMMON, RSRC1_GFX6_GFX11, RSRC1_BULKY, {"fp16_ovfl", 26, 1}, RSRC1_GFX10};
static const struct kd_field rsrc1_gfx12[] = {
    RSRC1_COMMON, RSRC1_GFX12, RSRC1_BULKY, {"fp16_ovfl", 26, 1}, RSRC1_GFX10};
static const struct kd_field rsrc1_gfx125[] = {
    RSRC1_COMMON, RSRC1_GFX12, RSRC1_BULKY, {"fp16_ovfl", 26, 1}, {"flat_scratch_is_nv", 27, 1},
    RSRC1_GFX10};

#define RSRC2_IDS                                                                                  \
	{"enable_sgpr_workgroup_id_x", 7, 1}, {"enable_sgpr_workgroup_id_y", 8, 1},                \
	    {"enable_sgpr_workgroup_id_z", 9, 1}, {"enable_sgpr_workgroup_info", 10, 1},           \
	    {"enable_vgpr_workitem_id", 11, 2}, {"enable_exception_address_watch", 13, 1},         \
	    {"enable_exception_memory", 14, 1}, {"granulated_lds_size", 15, 9},                    \
	    {"enable_exception_ieee_754_fp_invalid_operation", 24, 1},                             \
	    {"enable_exception_fp_denormal_source", 25, 1},                                        \
	    {"enable_exception_ieee_754_fp_division_by_zero", 26, 1},                              \
	    {"enable_exception_ieee_754_fp_overflow", 27, 1},                                      \
	    {"enable_exception_ieee_754_fp_underflow", 28, 1},                                     \
	    {"enable_exception_ieee_754_fp_inexact", 29, 1},                                       \
	{                                                                                          \
		"enable_exception_int_divide_by_zero", 30, 1                                       \
	}

static const struct kd_field rsrc2_gfx6[] = {{"enable_private_segment", 0, 1},
                                             {"user_sgpr_count", 1, 5},
                                             {"enable_trap_handler", 6, 1},
                                             RSRC2_IDS};
static const struct kd_field rsrc2_gfx12[] = {{"enable_private_segment", 0, 1},
                                              {"user_sgpr_count", 1, 5},
                                              {"enable_dynamic_vgpr", 6, 1},
                                              RSRC2_IDS};
static const struct kd_field rsrc2_gfx125[] = {
    {"enable_private_segment", 0, 1}, {"user_sgpr_count", 1, 6}, RSRC2_IDS};

static const struct kd_field rsrc3_gfx90a[] = {{"accum_offset", 0, 6}, {"tg_split", 16, 1}};
static const struct kd_field rsrc3_gfx10[] = {{"shared_vgpr_count", 0, 4}};
static const struct kd_field rsrc3_gfx11[] = {{"shared_vgpr_count", 0, 4},
                                              {"inst_pref_size", 4, 6},
                                              {"trap_on_start", 10, 1},
                                              {"trap_on_end", 11, 1}};
static const struct kd_field rsrc3_gfx12[] = {{"inst_pref_size", 4, 8}, {"glg_en", 13, 1}};
static const struct kd_field rsrc3_gfx125[] = {
    {"inst_pref_size", 4, 8},       {"glg_en", 13, 1},    {"named_bar_cnt", 14, 3},
    {"enable_dynamic_vgpr", 17, 1}, {"tcp_split", 18, 3}, {"enable_didt_throttle", 21, 1}};

static const struct kd_field no_rsrc3[1];
static const struct kd_layout layouts[] = {
    {.name = "gfx6-gfx8",
     .field = {rsrc1_gfx6, rsrc2_gfx6, no_rsrc3},
     .n = {N(rsrc1_gfx6), N(rsrc2_gfx6), 0}},
    {.name = "gfx9",
     .field = {rsrc1_gfx9, rsrc2_gfx6, no_rsrc3},
     .n = {N(rsrc1_gfx9), N(rsrc2_gfx6), 0}},
    {.name = "gfx90a",
     .field = {rsrc1_gfx9, rsrc2_gfx6, rsrc3_gfx90a},
     .n = {N(rsrc1_gfx9), N(rsrc2_gfx6), N(rsrc3_gfx90a)}},
    {.name = "gfx10",
     .field = {rsrc1_gfx10, rsrc2_gfx6, rsrc3_gfx10},
     .n = {N(rsrc1_gfx10), N(rsrc2_gfx6), N(rsrc3_gfx10)}},
    {.name = "gfx11",
     .field = {rsrc1_gfx10, rsrc2_gfx6, rsrc3_gfx11},
     .n = {N(rsrc1_gfx10), N(rsrc2_gfx6), N(rsrc3_gfx11)},
     .inst_pref_size = {"inst_pref_size", 4, 6}},
    {.name = "gfx12",
     .field = {rsrc1_gfx12, rsrc2_gfx12, rsrc3_gfx12},
     .n = {N(rsrc1_gfx12), N(rsrc2_gfx12), N(rsrc3_gfx12)},
     .inst_pref_size = {"inst_pref_size", 4, 8}},
    {.name = "gfx12.5",
     .field = {rsrc1_gfx125, rsrc2_gfx125, rsrc3_gfx125},
     .n = {N(rsrc1_gfx125), N(rsrc2_gfx125), N(rsrc3_gfx125)},
     .inst_pref_size = {"inst_pref_size", 4, 8}},
};
enum {
	L_GFX6,
	L_GFX9,
	L_GFX90A,
	L_GFX10,
	L_GFX11,
	L_GFX12,
	L_GFX125
};

const struct kd_layout *kd_layout_of(const struct gfx_info *g)
{
	const char *f = g ? g->family : "gfx9";

	if (!strcmp(f, "gfx6") || !strcmp(f, "gfx7") || !strcmp(f, "gfx8"))
		return &layouts[L_GFX6];
	/* RSRC3 carries ACCUM_OFFSET/TG_SPLIT from gfx90a on (gfx90a, gfx9.4). */
	if (!strcmp(f, "gfx9.4") || (g && !strcmp(g->name, "gfx90a")))
		return &layouts[L_GFX90A];
	if (!strncmp(f, "gfx10", 5))
		return &layouts[L_GFX10];
	if (!strcmp(f, "gfx11"))
		return &layouts[L_GFX11];
	if (!strcmp(f, "gfx12"))
		return &layouts[L_GFX12];
	if (!strcmp(f, "gfx12.5"))
		return &layouts[L_GFX125];
	return &layouts[L_GFX9];
}

/* kernel_code_properties (the same bits on every family since code object v3). */
static const struct kd_field properties[] = {
    {"enable_sgpr_private_segment_buffer", 0, 1},
    {"enable_sgpr_dispatch_ptr", 1, 1},
    {"enable_sgpr_queue_ptr", 2, 1},
    {"enable_sgpr_kernarg_segment_ptr", 3, 1},
    {"enable_sgpr_dispatch_id", 4, 1},
    {"enable_sgpr_flat_scratch_init", 5, 1},
    {"enable_sgpr_private_segment_size", 6, 1},
    {"enable_wavefront_size32", 10, 1},
    {"uses_dynamic_stack", 11, 1},
};
static const struct kd_field preload[] = {
    {"kernarg_preload_spec_length", 0, 7},
    {"kernarg_preload_spec_offset", 7, 9},
};

/* which: 0-2 the RSRC register, 3 the properties, 4 the preload word. */
bool kd_find(const struct kd_layout *L, const char *name, const struct kd_field **field,
             unsigned *which)
{
	static const struct {
		const struct kd_field *f;
		size_t n;
	} fixed[] = {{properties, N(properties)}, {preload, N(preload)}};

	for (unsigned r = 0; r < KD_NREGS; r++)
		for (size_t i = 0; i < L->n[r]; i++)
			if (!strcmp(L->field[r][i].name, name)) {
				*field = &L->field[r][i];
				*which = r;
				return true;
			}
	for (unsigned t = 0; t < N(fixed); t++)
		for (size_t i = 0; i < fixed[t].n; i++)
			if (!strcmp(fixed[t].f[i].name, name)) {
				*field = &fixed[t].f[i];
				*which = KD_NREGS + t;
				return true;
			}
	return false;
}

uint32_t kd_get(const struct kd *d, const struct kd_layout *L, const char *name)
{
	const struct kd_field *f;
	unsigned which;
	const uint32_t words[] = {d->rsrc1, d->rsrc2, d->rsrc3, d->properties, d->kernarg_preload};

	if (!kd_find(L, name, &f, &which))
		return 0;
	return kd_field_get(words[which], f);
}
