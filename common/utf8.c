#include "utf8.h"

size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
	size_t n;

	if (c >= 0xC2 && c <= 0xDF) {
		n = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3;
		if (c == 0xE0)
			lo = 0xA0; /* overlong */
		else if (c == 0xED)
			hi = 0x9F; /* U+D800..U+DFFF, surrogates */
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4;
		if (c == 0xF0)
			lo = 0x90; /* overlong */
		else if (c == 0xF4)
			hi = 0x8F; /* above U+10FFFF */
	} else {
		return 0; /* ASCII, a continuation byte, C0/C1 (overlong) or F5..FF */
	}
	if (avail < n || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t k = 2; k < n; k++)
		if ((s[k] & 0xC0) != 0x80)
			return 0;
	return n;
}

size_t utf8_invalid_at(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n = u[i] < 0x80 ? 1 : utf8_seq_len(u + i, len - i);
		if (!n)
			return i;
		i += n;
	}
	return len;
}
