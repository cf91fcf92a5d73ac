/* libFuzzer target: libhotswap_mc's decoder walks arbitrary gfx1250 bytes without crashing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hs_mc.h"

const struct hs_mc_api *hs_mc_get_api(void);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Walks the input the way the rewriter walks .text: decode, advance by the
 * size, skip one dword on undecodable bytes.  Every decoded size must stay
 * inside the input and the text must be a terminated, non-empty string.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hs_mc_disasm *dis;
	uint8_t *bytes;
	size_t off = 0;

	if (!dis) {
		dis = hs_mc_get_api()->disasm_create("gfx1250");
		if (!dis)
			abort();
	}
	/* An exact-size heap copy, so ASan catches any read past the caller's bytes. */
	bytes = malloc(size ? size : 1);
	if (!bytes)
		abort();
	memcpy(bytes, data, size);
	while (off < size) {
		char text[256];
		size_t n;

		memset(text, 'x', sizeof(text));
		n = hs_mc_get_api()->decode(dis, bytes + off, size - off, 0x1000 + off, text,
		                            sizeof(text));
		if (n > size - off || !memchr(text, '\0', sizeof(text)) || (n && !text[0]))
			abort();
		off += n ? n : 4;
	}
	free(bytes);
	return 0;
}
