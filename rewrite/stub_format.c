/* The entry stub and the entry prologue as bytes: encode, raw match, jump target. */
#include "stub_format.h"

#include <string.h>

#include "le_bytes.h"

/* global_prefetch_b8 v0, s[0:1] scope:SCOPE_SE */
static const uint8_t prefix_prefetch[12] = {0x00, 0x40, 0x17, 0xee, 0x00, 0x00,
                                            0x04, 0x00, 0x00, 0x00, 0x00, 0x00};
/* global_wb (the older prefix; same size) */
static const uint8_t prefix_wb[12] = {0x7c, 0x00, 0x0b, 0xee, 0x00, 0x00,
                                      0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
static const uint8_t v_nop[4] = {0x00, 0x00, 0x00, 0x7e};
static const uint8_t s_code_end[4] = {0x00, 0x00, 0x9f, 0xbf};
/* Byte 6 holds the cache scope (bits 3:2); any scope is still the prologue. */
#define SCOPE_BYTE 6
#define SCOPE_MASK 0x0c

static bool prefix_eq(const uint8_t *p, const uint8_t *want)
{
	for (int i = 0; i < 12; i++) {
		uint8_t m = i == SCOPE_BYTE ? (uint8_t)~SCOPE_MASK : 0xff;
		if ((p[i] & m) != (want[i] & m))
			return false;
	}
	return true;
}

bool hs_entry_has_prologue(const uint8_t *p, size_t len)
{
	return len >= 16 && (prefix_eq(p, prefix_prefetch) || prefix_eq(p, prefix_wb)) &&
	       !memcmp(p + 12, v_nop, 4);
}

void hs_stub_encode(uint8_t stub[HS_STUB_SIZE], uint64_t stub_vaddr, uint64_t entry, unsigned pair)
{
	/* PC read by s_get_pc_i64 is the address of the next instruction: stub + 20. */
	uint64_t delta = entry - (stub_vaddr + 20);
	uint8_t n = (uint8_t)pair;

	memcpy(stub, prefix_prefetch, 12);
	memcpy(stub + 12, v_nop, 4);
	stub[16] = 0x00;
	stub[17] = 0x47;
	stub[18] = (uint8_t)(0x80 | n);
	stub[19] = 0xbe;
	stub[20] = n;
	stub[21] = 0xff;
	stub[22] = n;
	stub[23] = 0x80;
	hs_wr32(stub + 24, (uint32_t)delta);
	stub[28] = (uint8_t)(n + 1);
	stub[29] = 0xff;
	stub[30] = (uint8_t)(n + 1);
	stub[31] = 0x82;
	hs_wr32(stub + 32, (uint32_t)(delta >> 32));
	stub[36] = n;
	stub[37] = 0x48;
	stub[38] = 0x80;
	stub[39] = 0xbe;
	for (size_t off = 40; off < HS_STUB_SIZE; off += 4)
		memcpy(stub + off, s_code_end, 4);
}

bool hs_stub_raw_match(const uint8_t *p, size_t len, unsigned *pair)
{
	uint8_t n;

	if (len < 40 || !hs_entry_has_prologue(p, len))
		return false;
	if (p[16] != 0x00 || p[17] != 0x47 || p[19] != 0xbe || !(p[18] & 0x80))
		return false;
	n = p[18] & 0x7f;
	if ((n & 1) || ((unsigned)n + 2 > HS_SGPR_NUMBERED && n != SGPR_VCC))
		return false;
	if (p[20] != n || p[21] != 0xff || p[22] != n || p[23] != 0x80)
		return false;
	if (p[28] != n + 1 || p[29] != 0xff || p[30] != n + 1 || p[31] != 0x82)
		return false;
	if (p[36] != n || p[37] != 0x48 || p[38] != 0x80 || p[39] != 0xbe)
		return false;
	*pair = n;
	return true;
}

uint64_t hs_stub_target(const uint8_t *p, uint64_t vaddr)
{
	/* The hardware's add-with-carry on the PC of the instruction after s_get_pc_i64. */
	uint64_t pc = vaddr + 20;
	uint64_t lo = (pc & 0xffffffffu) + hs_rd32(p + 24);
	uint64_t hi = (pc >> 32) + hs_rd32(p + 32) + (lo >> 32);

	return (hi & 0xffffffffu) << 32 | (lo & 0xffffffffu);
}
