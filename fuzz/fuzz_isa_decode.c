/* libFuzzer target: mirage's own decoders (every table: gfx1250, gfx942, gfx950) walk arbitrary
 * bytes without reading out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mirage/isa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A linear sweep as tests/tools/isa_dump does it: decode, advance by the size, skip a dword
 * on an error.  Every record must fit the input, name a row or be unknown, and print to a
 * terminated string; the MSB state carries across the sweep.  One sweep per table.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct isa_state st;
	uint8_t *bytes;
	size_t off = 0;

	/* An exact-size heap copy, so ASan catches any read past the caller's bytes. */
	bytes = malloc(size ? size : 1);
	if (!bytes)
		abort();
	memcpy(bytes, data, size);
	for (unsigned arch = 0; arch < ISA_ARCH_COUNT; arch++, off = 0) {
		isa_state_reset(&st);
		while (off < size) {
			struct isa_inst in;
			char text[512];
			int rc = isa_decode(arch, bytes, size, off, &st, &in);

			if (rc == ISA_OK) {
				if (in.size < 4 || in.size > size - off ||
				    in.nops > ISA_MAX_OPERANDS || in.op >= ISA_OP_COUNT ||
				    in.offset != off || in.arch != arch)
					abort();
				memset(text, 'x', sizeof(text));
				isa_inst_format(&in, text, sizeof(text));
				if (!memchr(text, '\0', sizeof(text)))
					abort();
				off += in.size;
			} else {
				if (rc != ISA_ERR_TRUNCATED && rc != ISA_ERR_SIZE_UNKNOWN)
					abort();
				off += 4;
			}
		}
	}
	free(bytes);
	return 0;
}
