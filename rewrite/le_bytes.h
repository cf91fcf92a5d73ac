/* Checked arithmetic and little-endian access: the leaf every file of libhotswap_rewrite may use.
 */
#ifndef HS_LE_BYTES_H
#define HS_LE_BYTES_H

#include <stdbool.h>
#include <stdint.h>

static inline bool hs_add_ovf(uint64_t a, uint64_t b, uint64_t *r)
{
	return __builtin_add_overflow(a, b, r);
}
/* True when [off, off+len) lies inside [0, size). */
static inline bool hs_in_bounds(uint64_t off, uint64_t len, uint64_t size)
{
	uint64_t end;
	return !hs_add_ovf(off, len, &end) && end <= size;
}
static inline bool hs_align_up(uint64_t v, uint64_t a, uint64_t *r)
{
	uint64_t t;
	if (hs_add_ovf(v, a - 1, &t))
		return false;
	*r = t & ~(a - 1);
	return true;
}
static inline uint16_t hs_rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t hs_rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t hs_rd64(const uint8_t *p)
{
	return (uint64_t)hs_rd32(p) | (uint64_t)hs_rd32(p + 4) << 32;
}
static inline void hs_wr16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static inline void hs_wr32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}
static inline void hs_wr64(uint8_t *p, uint64_t v)
{
	hs_wr32(p, (uint32_t)v);
	hs_wr32(p + 4, (uint32_t)(v >> 32));
}

#endif
