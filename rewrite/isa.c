/* Target ids: bare "gfx1250" or "amdgcn-amd-amdhsa--gfx1250[:feature+/-]...", both ways. */
#include "hs_internal.h"

#include <stdio.h>
#include <string.h>

#include "elf_isa.h"
#include "gfx_table.h"
#include "hotswap_contract.h"
#include "str_fmt.h"

/*
 * Triple spellings accepted before the processor.  The new spelling
 * ("amdgpu12.50-amd-amdhsa") will be added here once its exact grammar is
 * settled; nothing else parses triples.
 */
static const char *const triple_prefixes[] = {
    COB_TRIPLE_PREFIX,
};

/* The e_flags rules and the target id's spelling are codeobj's (elf_isa.h), shared with the
 * intercept core; hs_feature's values are cob_feature's. */
_Static_assert(HS_FEAT_DEFAULT == (int)COB_FEAT_ANY && HS_FEAT_ON == (int)COB_FEAT_ON &&
                   HS_FEAT_OFF == (int)COB_FEAT_OFF,
               "enum hs_feature and enum cob_feature differ");

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
		return str_fail(err, size, "malformed feature '%.*s' (expected name+ or name-)",
		                (int)len, f);
	memcpy(name, f, len - 1);
	name[len - 1] = '\0';
	sign = f[len - 1];
	if (sign != '+' && sign != '-')
		return str_fail(err, size, "feature '%s' must end with '+' or '-'", name);
	if (!strcmp(name, HOTSWAP_STEPPING_FEATURE)) {
		if (!hs_isa_is_gfx1250(isa))
			return str_fail(err, size,
			                "the stepping feature '%s' is only valid on gfx1250", name);
		if (isa->stepping != HS_STEP_DEFAULT)
			return str_fail(err, size, "feature '%s' given twice", name);
		isa->stepping = sign == '+' ? HS_STEP_B0 : HS_STEP_A0;
		return 0;
	}
	if (!strcmp(name, "sramecc"))
		slot = &isa->sramecc;
	else if (!strcmp(name, "xnack"))
		slot = &isa->xnack;
	else
		return str_fail(err, size, "unknown feature '%s'", name);
	if (*slot != HS_FEAT_DEFAULT)
		return str_fail(err, size, "feature '%s' given twice", name);
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
		return str_fail(err, err_size, "empty target id");
	p = skip_triple(s);
	colon = strchr(p, ':');
	len = colon ? (size_t)(colon - p) : strlen(p);
	if (len == 0 || len >= sizeof(proc))
		return str_fail(err, err_size, "malformed target id '%s'", s);
	memcpy(proc, p, len);
	proc[len] = '\0';
	isa->gfx = gfx_by_name(proc);
	if (!isa->gfx || !isa->gfx->llvm22_known || isa->gfx->is_generic)
		return str_fail(err, err_size, "unknown processor in target id '%s'", s);
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
	struct cob_isa c;

	memset(isa, 0, sizeof(*isa));
	if (cob_isa_from_elf(e_flags, abi_version, &c) < 0)
		return -1;
	isa->gfx = c.gfx;
	isa->sramecc = (enum hs_feature)c.sramecc;
	isa->xnack = (enum hs_feature)c.xnack;
	return 0;
}

enum hs_status hs_isa_read_elf(uint32_t e_flags, uint8_t abi_version, struct hs_isa *isa)
{
	char why[128];

	if (hs_isa_from_elf(e_flags, abi_version, isa)) {
		cob_isa_unknown_mach(e_flags, why, sizeof(why));
		return hs_fail_why(HS_INVALID_ARGUMENT, HS_REASON_UNKNOWN_PROCESSOR, "%s", why);
	}
	return HS_OK;
}

bool hs_isa_format(const struct hs_isa *isa, char *buf, size_t size)
{
	struct cob_isa c = {isa->gfx, (enum cob_feature)isa->sramecc, (enum cob_feature)isa->xnack};
	return cob_isa_format(&c, buf, size);
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
