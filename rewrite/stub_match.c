/* Recognises our own entry stubs: raw prefilter, then the decoded shape, then the target. */
#include "hs_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_mc.h"
#include "stub_format.h"
#include "stub_match.h"

#define MAX_OPS 4

struct insn {
	char mnemonic[64];
	char ops[MAX_OPS][64];
	int nops;
};

/* Splits "s_add_co_u32 s8, s8, 0x10" into a mnemonic and operands. */
static bool split_insn(const char *text, struct insn *in)
{
	const char *p = text;
	size_t n;

	memset(in, 0, sizeof(*in));
	n = strcspn(p, " \t");
	if (n == 0 || n >= sizeof(in->mnemonic))
		return false;
	memcpy(in->mnemonic, p, n);
	p += n;
	while (*p == ' ' || *p == '\t')
		p++;
	while (*p) {
		if (in->nops == MAX_OPS)
			return false;
		n = strcspn(p, ",");
		while (n && isspace((unsigned char)p[n - 1]))
			n--;
		if (n >= sizeof(in->ops[0]))
			return false;
		memcpy(in->ops[in->nops++], p, n);
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	return true;
}

/* Parses an immediate as LLVM prints it ("0x1234", "-16", "lit(0x10)") to its low 32 bits. */
static bool parse_imm(const char *s, uint32_t *v)
{
	char buf[64];
	char *end;
	size_t n = strlen(s);

	if (!strncmp(s, "lit(", 4) && n > 5 && s[n - 1] == ')') {
		snprintf(buf, sizeof(buf), "%.*s", (int)(n - 5), s + 4);
		s = buf;
	}
	if (!*s || !(isdigit((unsigned char)*s) || *s == '-'))
		return false;
	if (*s == '-') {
		long long x = strtoll(s, &end, 0);
		*v = (uint32_t)x;
	} else {
		unsigned long long x = strtoull(s, &end, 0);
		*v = (uint32_t)x;
	}
	return *end == '\0';
}

static bool decode_at(const struct hs_mc_api *api, struct hs_mc_disasm *dis, const uint8_t *b,
                      size_t len, uint64_t vaddr, size_t want, struct insn *in)
{
	char text[256];

	if (api->decode(dis, b, len, vaddr, text, sizeof(text)) != want)
		return false;
	return split_insn(text, in);
}

enum hs_status hs_stub_match(struct hs_decoder *d, const uint8_t *b, size_t len, uint64_t vaddr,
                             bool *is_stub, uint64_t *target)
{
	const struct hs_mc_api *api;
	struct hs_mc_disasm *dis;
	struct insn in[6];
	char pair[32], lo[16], hi[16];
	unsigned n;
	uint32_t l, h;
	enum hs_status st = HS_OK;

	*is_stub = false;
	if (!hs_stub_raw_match(b, len, &n))
		return HS_OK; /* cheap: never run the decoder over arbitrary kernel code */
	st = hs_decoder_get(d);
	if (st)
		return st;
	api = d->api;
	dis = d->dis;
	if (!decode_at(api, dis, b, len, vaddr, 12, &in[0]) ||
	    !decode_at(api, dis, b + 12, len - 12, vaddr + 12, 4, &in[1]) ||
	    !decode_at(api, dis, b + 16, len - 16, vaddr + 16, 4, &in[2]) ||
	    !decode_at(api, dis, b + 20, len - 20, vaddr + 20, 8, &in[3]) ||
	    !decode_at(api, dis, b + 28, len - 28, vaddr + 28, 8, &in[4]) ||
	    !decode_at(api, dis, b + 36, len - 36, vaddr + 36, 4, &in[5]))
		goto cleanup;
	if (n == SGPR_VCC) {
		snprintf(pair, sizeof(pair), "vcc");
		snprintf(lo, sizeof(lo), "vcc_lo");
		snprintf(hi, sizeof(hi), "vcc_hi");
	} else {
		snprintf(pair, sizeof(pair), "s[%u:%u]", n, n + 1);
		snprintf(lo, sizeof(lo), "s%u", n);
		snprintf(hi, sizeof(hi), "s%u", n + 1);
	}
	/* The shape: prefix, v_nop, get_pc/add/addc/set_pc on one pair, dst == src0, literals. */
	if ((strcmp(in[0].mnemonic, "global_prefetch_b8") && strcmp(in[0].mnemonic, "global_wb")) ||
	    strcmp(in[1].mnemonic, "v_nop") || in[1].nops != 0 ||
	    strcmp(in[2].mnemonic, "s_get_pc_i64") || in[2].nops != 1 ||
	    strcmp(in[2].ops[0], pair) || strcmp(in[3].mnemonic, "s_add_co_u32") ||
	    in[3].nops != 3 || strcmp(in[3].ops[0], lo) || strcmp(in[3].ops[1], lo) ||
	    !parse_imm(in[3].ops[2], &l) || strcmp(in[4].mnemonic, "s_add_co_ci_u32") ||
	    in[4].nops != 3 || strcmp(in[4].ops[0], hi) || strcmp(in[4].ops[1], hi) ||
	    !parse_imm(in[4].ops[2], &h) || strcmp(in[5].mnemonic, "s_set_pc_i64") ||
	    in[5].nops != 1 || strcmp(in[5].ops[0], pair))
		goto cleanup;
	/* The decoded literals must be the raw 32-bit literal words, not inline constants. */
	if (l != hs_rd32(b + 24) || h != hs_rd32(b + 32))
		goto cleanup;
	*target = hs_stub_target(b, vaddr);
	*is_stub = true;
cleanup:
	return st;
}
