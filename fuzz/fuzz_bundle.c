/* libFuzzer target: the offload bundle reader (codeobj/bundle.h) on arbitrary bytes, as a
 * bundle, as a .hip_fatbin section of several, and as a host ELF, never reading out of bounds
 * or decompressing past its cap. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bundle.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every entry must lie inside the bundle's bytes; touching each byte lets ASan check it. */
static void walk(const struct cob_bundle *b)
{
	volatile uint8_t sink = 0;
	for (size_t i = 0; i < b->n; i++) {
		const struct cob_entry *e = &b->e[i];
		if (e->size && (e->data < b->bytes || e->data + e->size > b->bytes + b->size))
			abort();
		for (uint64_t k = 0; k < e->size; k += 61)
			sink ^= e->data[k];
		(void)cob_target_compatible(e->target, "gfx942:sramecc+:xnack-");
	}
	(void)cob_bundle_select(b, "gfx1250");
	(void)sink;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cob_bundle b = COB_BUNDLE_INIT;
	const uint8_t *sec;
	size_t sec_size, off = 0;
	char *err = NULL;
	/* An exact-size heap copy, so ASan catches any read past the caller's bytes. */
	uint8_t *bytes = malloc(size ? size : 1);

	if (!bytes)
		abort();
	memcpy(bytes, data, size);
	if (cob_bundle_read(bytes, size, &b, &err) == 0)
		walk(&b);
	cob_bundle_free(&b);
	free(err);
	for (int n = 0; n < 64; n++) {
		err = NULL;
		int rc = cob_fatbin_next(bytes, size, &off, &b, &err);
		free(err);
		if (rc != 1)
			break;
		walk(&b);
		cob_bundle_free(&b);
	}
	err = NULL;
	if (cob_find_hip_fatbin(bytes, size, &sec, &sec_size, &err) == 1 &&
	    (sec < bytes || sec + sec_size > bytes + size))
		abort();
	free(err);
	free(bytes);
	return 0;
}
