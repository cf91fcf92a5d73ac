/* Target ids: bare "gfx1250" or "amdgcn-amd-amdhsa--gfx1250[:feature+/-]...", both ways. */
#include "hs_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gfx_table.h"
#include "hotswap_contract.h"

/*
 * Triple spellings accepted before the processor.  The new spelling
 * ("amdgpu12.50-amd-amdhsa") will be added here once its exact grammar is
 * settled; nothing else parses triples.
 */
static const char *const triple_prefixes[] = {
    "amdgcn-amd-amdhsa--",
};

/* e_flags feature fields, code object V4 and later. */
#define EF_XNACK_MASK_V4   0x300u
#define EF_XNACK_ANY_V4    0x100u
#define EF_XNACK_OFF_V4    0x200u
#define EF_XNACK_ON_V4     0x300u
#define EF_SRAMECC_MASK_V4 0xc00u
#define EF_SRAMECC_ANY_V4  0x400u
#define EF_SRAMECC_OFF_V4  0x800u
#define EF_SRAMECC_ON_V4   0xc00u
/* Code object V3 (EI_ABIVERSION 1): one bit each, set means on. */
#define EF_XNACK_V3    0x100u
#define EF_SRAMECC_V3  0x200u
#define ABI_VERSION_V3 1

static int fail(char *err, size_t size, const char *fmt, ...) HS_PRINTF(3, 4);

static int fail(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (err && size) {
		va_start(ap, fmt);
		vsnprintf(err, size, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* Strips a known triple prefix; anything else is left for the processor lookup to reject. */
static const char *skip_triple(const char *s)
{
	for (size_t i = 0; i < sizeof(triple_prefixes) / sizeof(triple_prefixes[0]); i++) {
		size_t n = strlen(triple_prefixes[i]);
		if (!strncmp(s, triple_prefixes[i], n))
			return s + n;
	}
	return s;
}

static int parse_feature(const char *f, size_t len, struct hs_isa *isa, char *err, size_t size)
{
	char name[64];
	enum hs_feature *slot = NULL;
	char sign;

	if (len < 2 || len >= sizeof(name))
		return fail(err, size, "malformed feature '%.*s' (expected name+ or name-)",
		            (int)len, f);
	memcpy(name, f, len - 1);
	name[len - 1] = '\0';
	sign = f[len - 1];
	if (sign != '+' && sign != '-')
		return fail(err, size, "feature '%s' must end with '+' or '-'", name);
	if (!strcmp(name, HOTSWAP_STEPPING_FEATURE)) {
		if (!hs_isa_is_gfx1250(isa))
			return fail(err, size, "the stepping feature '%s' is only valid on gfx1250",
			            name);
		if (isa->stepping != HS_STEP_DEFAULT)
			return fail(err, size, "feature '%s' given twice", name);
		isa->stepping = sign == '+' ? HS_STEP_B0 : HS_STEP_A0;
		return 0;
	}
	if (!strcmp(name, "sramecc"))
		slot = &isa->sramecc;
	else if (!strcmp(name, "xnack"))
		slot = &isa->xnack;
	else
		return fail(err, size, "unknown feature '%s'", name);
	if (*slot != HS_FEAT_DEFAULT)
		return fail(err, size, "feature '%s' given twice", name);
	*slot = sign == '+' ? HS_FEAT_ON : HS_FEAT_OFF;
	return 0;
}

int hs_isa_parse(const char *s, struct hs_isa *isa, char *err, size_t err_size)
{
	char proc[64];
	const char *p, *colon;
	size_t len;

	memset(isa, 0, sizeof(*isa));
	if (!s || !*s)
		return fail(err, err_size, "empty target id");
	p = skip_triple(s);
	colon = strchr(p, ':');
	len = colon ? (size_t)(colon - p) : strlen(p);
	if (len == 0 || len >= sizeof(proc))
		return fail(err, err_size, "malformed target id '%s'", s);
	memcpy(proc, p, len);
	proc[len] = '\0';
	isa->gfx = gfx_by_name(proc);
	if (!isa->gfx || !isa->gfx->llvm22_known || isa->gfx->is_generic)
		return fail(err, err_size, "unknown processor in target id '%s'", s);
	while (colon) {
		const char *f = colon + 1;
		colon = strchr(f, ':');
		len = colon ? (size_t)(colon - f) : strlen(f);
		if (parse_feature(f, len, isa, err, err_size))
			return -1;
	}
	return 0;
}

int hs_isa_from_elf(uint32_t e_flags, uint8_t abi_version, struct hs_isa *isa)
{
	memset(isa, 0, sizeof(*isa));
	isa->gfx = gfx_by_mach((uint8_t)(e_flags & 0xff));
	if (!isa->gfx)
		return -1;
	if (abi_version == ABI_VERSION_V3) {
		isa->xnack = (e_flags & EF_XNACK_V3) ? HS_FEAT_ON : HS_FEAT_DEFAULT;
		isa->sramecc = (e_flags & EF_SRAMECC_V3) ? HS_FEAT_ON : HS_FEAT_DEFAULT;
		return 0;
	}
	switch (e_flags & EF_XNACK_MASK_V4) {
	case EF_XNACK_ON_V4:
		isa->xnack = HS_FEAT_ON;
		break;
	case EF_XNACK_OFF_V4:
		isa->xnack = HS_FEAT_OFF;
		break;
	default: /* unsupported or any */
		break;
	}
	switch (e_flags & EF_SRAMECC_MASK_V4) {
	case EF_SRAMECC_ON_V4:
		isa->sramecc = HS_FEAT_ON;
		break;
	case EF_SRAMECC_OFF_V4:
		isa->sramecc = HS_FEAT_OFF;
		break;
	default:
		break;
	}
	(void)EF_XNACK_ANY_V4;
	(void)EF_SRAMECC_ANY_V4;
	return 0;
}

enum hs_status hs_isa_read_elf(uint32_t e_flags, uint8_t abi_version, struct hs_isa *isa)
{
	if (hs_isa_from_elf(e_flags, abi_version, isa))
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_UNKNOWN_PROCESSOR,
		                   "unknown AMDGPU processor (EF_AMDGPU_MACH "
		                   "0x%02x) in the ELF header",
		                   (unsigned)(e_flags & 0xff));
	return HS_OK;
}

bool hs_isa_format(const struct hs_isa *isa, char *buf, size_t size)
{
	int n;

	/* LLVM's canonical order: sramecc before xnack; "any" is written as nothing. */
	n = snprintf(buf, size, "%s%s%s%s", triple_prefixes[0], isa->gfx->name,
	             isa->sramecc == HS_FEAT_ON    ? ":sramecc+"
	             : isa->sramecc == HS_FEAT_OFF ? ":sramecc-"
	                                           : "",
	             isa->xnack == HS_FEAT_ON    ? ":xnack+"
	             : isa->xnack == HS_FEAT_OFF ? ":xnack-"
	                                         : "");
	return n >= 0 && (size_t)n < size;
}

bool hs_isa_is_gfx125x(const struct hs_isa *isa)
{
	return isa->gfx && !strcmp(isa->gfx->family, "gfx12.5");
}

bool hs_isa_is_gfx1250(const struct hs_isa *isa)
{
	return isa->gfx && !strcmp(isa->gfx->name, "gfx1250");
}

const char *hs_stepping_name(enum hs_stepping s)
{
	return s == HS_STEP_A0 ? "A0" : s == HS_STEP_B0 ? "B0" : "default";
}
