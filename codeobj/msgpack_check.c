/*
 * A walk over msgpack bytes that allocates nothing, run before msgpack-c
 * unpacks a metadata note (msgpack_check.h).  msgpack-c's C unpacker sizes each container from
 * its declared count, so a 9-byte note claiming 2^32 array elements asks for
 * tens of gigabytes; it has no limits to set.  Here every declared count is
 * bounded by the bytes left (each element takes at least one), so the
 * unpacker's allocations stay proportional to the input.
 */
#include "msgpack_check.h"

#include <stdint.h>

static uint64_t be(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

/* Head size and payload of one value: bytes to skip after the head, and children it opens. */
static int head(const uint8_t *p, size_t left, size_t *hsize, uint64_t *skip, uint64_t *children)
{
	uint8_t t = p[0];
	unsigned n = 0; /* width of a big-endian length that follows the type byte */

	*skip = 0;
	*children = 0;
	*hsize = 1;
	if (t <= 0x7f || t >= 0xe0 || t == 0xc0 || t == 0xc2 || t == 0xc3)
		return 0;
	if (t >= 0x80 && t <= 0x8f) {
		*children = 2u * (t & 0x0f);
		return 0;
	}
	if (t >= 0x90 && t <= 0x9f) {
		*children = t & 0x0f;
		return 0;
	}
	if (t >= 0xa0 && t <= 0xbf) {
		*skip = t & 0x1f;
		return 0;
	}
	switch (t) {
	case 0xcc:
	case 0xd0:
		*skip = 1;
		return 0;
	case 0xcd:
	case 0xd1:
		*skip = 2;
		return 0;
	case 0xca:
	case 0xce:
	case 0xd2:
		*skip = 4;
		return 0;
	case 0xcb:
	case 0xcf:
	case 0xd3:
		*skip = 8;
		return 0;
	case 0xd4:
		*skip = 2;
		return 0;
	case 0xd5:
		*skip = 3;
		return 0;
	case 0xd6:
		*skip = 5;
		return 0;
	case 0xd7:
		*skip = 9;
		return 0;
	case 0xd8:
		*skip = 17;
		return 0;
	case 0xc4:
	case 0xd9:
		n = 1;
		break;
	case 0xc5:
	case 0xda:
		n = 2;
		break;
	case 0xc6:
	case 0xdb:
		n = 4;
		break;
	case 0xc7:
		n = 1;
		break;
	case 0xc8:
		n = 2;
		break;
	case 0xc9:
		n = 4;
		break;
	case 0xdc:
		n = 2;
		break;
	case 0xdd:
		n = 4;
		break;
	case 0xde:
		n = 2;
		break;
	case 0xdf:
		n = 4;
		break;
	default:
		return -1; /* 0xc1 is never used */
	}
	if (left < 1u + n)
		return -1;
	*hsize = 1u + n;
	uint64_t len = be(p + 1, n);
	if (t == 0xdc || t == 0xdd)
		*children = len;
	else if (t == 0xde || t == 0xdf)
		*children = 2 * len;
	else
		*skip = len + (t >= 0xc7 && t <= 0xc9); /* ext: one type byte before the data */
	return 0;
}

int cob_msgpack_check(const uint8_t *p, size_t size)
{
	uint64_t pending = 1; /* values still to read */
	size_t pos = 0;

	while (pending) {
		size_t hsize;
		uint64_t skip, children;
		if (pos >= size || head(p + pos, size - pos, &hsize, &skip, &children) < 0)
			return -1;
		pending--;
		pos += hsize;
		if (skip > size - pos)
			return -1;
		pos += (size_t)skip;
		/* Every value still owed needs at least one byte of what is left. */
		if (children > size - pos || pending + children > size - pos)
			return -1;
		pending += children;
	}
	return pos == size ? 0 : -1;
}
