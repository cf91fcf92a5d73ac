/* libFuzzer target: hs_rewrite() fails cleanly on any bytes, or is deterministic and idempotent. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotswap/rewrite.h"

/*
 * The first input byte picks how to call the library, the rest is the code
 * object, so every seed carries its own call shape and mutations explore both:
 *   bits 0-3  option flags (every combination of HS_REWRITE_ALL_FLAGS)
 *   bits 4-5  ISA pair, see isa_pairs[]
 *   bit 6     NULL opts and NULL report (library defaults)
 *   bit 7     an unknown flag bit as well: must be refused
 */
#define SEL_FLAGS_MASK   0x0fu
#define SEL_PAIR_SHIFT   4
#define SEL_PAIR_MASK    0x03u
#define SEL_NULL_OPTS    0x40u
#define SEL_UNKNOWN_FLAG 0x80u

#define GFX1250_B0 "amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+"
#define GFX1250_A0 "amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific-"

static const struct {
	const char *source;
	const char *target;
} isa_pairs[4] = {
    {GFX1250_B0, GFX1250_B0}, /* entry trampolines only: no LLVM needed */
    {"gfx1250", "gfx1250"},   /* defaults: B0 -> A0, the instruction pass */
    {NULL, NULL},             /* whatever the code object says, unchanged */
    {GFX1250_B0, GFX1250_A0}, /* explicit B0 -> A0 */
};

/* Invariant violations abort, so libFuzzer keeps the input as a crash. */
static void violated(const char *what, const uint8_t *sel)
{
	fprintf(stderr, "fuzz_rewrite: invariant violated: %s (selector 0x%02x, last error '%s')\n",
	        what, *sel, hs_last_error());
	abort();
}

/* Library warnings about odd inputs are expected by the thousand; keep the fuzzer's log readable.
 */
static void quiet_log(enum hs_log_level level, const char *msg, void *ctx)
{
	(void)level;
	(void)msg;
	(void)ctx;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	hs_set_log_fn(quiet_log, NULL);
	return 0;
}

/* Frees out's bytes if the call produced any; a sentinel left in place is not ours to free. */
static void release(struct hs_rewrite_output *out, void *sentinel)
{
	if (out->data != sentinel)
		hs_rewrite_output_release(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Any non-NULL address the library would never return: "output untouched" is checkable. */
	static char sentinel_byte;
	void *const sentinel = &sentinel_byte;
	const size_t sentinel_size = 0x5eed;
	const uint8_t *sel = data;
	HS_OPTS(hs_rewrite_opts, opts, .flags = 0);
	HS_OPTS(hs_rewrite_report, report, .changed = false);
	struct hs_rewrite_output out = {sentinel, sentinel_size};
	struct hs_rewrite_output again = {sentinel, sentinel_size};
	const struct hs_rewrite_opts *optp = &opts;
	struct hs_rewrite_report *repp = &report;
	const char *source, *target;
	uint8_t *in, *copy;
	size_t in_size;
	enum hs_status st, st2;

	if (size < 1)
		return 0;
	in_size = size - 1;
	/* Exact-size heap copies: ASan sees any read past the end, and we can tell if input
	 * changed. */
	in = malloc(in_size ? in_size : 1);
	copy = malloc(in_size ? in_size : 1);
	if (!in || !copy)
		abort();
	memcpy(in, data + 1, in_size);
	memcpy(copy, data + 1, in_size);

	opts.flags = *sel & SEL_FLAGS_MASK;
	if (*sel & SEL_UNKNOWN_FLAG)
		opts.flags |= UINT64_C(1) << 40;
	if (*sel & SEL_NULL_OPTS) {
		optp = NULL;
		repp = NULL;
	}
	source = isa_pairs[(*sel >> SEL_PAIR_SHIFT) & SEL_PAIR_MASK].source;
	target = isa_pairs[(*sel >> SEL_PAIR_SHIFT) & SEL_PAIR_MASK].target;

	st = hs_rewrite(in, in_size, source, target, optp, &out, repp);
	if (memcmp(in, copy, in_size) != 0)
		violated("input modified", sel);
	if (st != HS_OK) {
		if (st != HS_INVALID_ARGUMENT && st != HS_ERROR && st != HS_OUT_OF_RESOURCES)
			violated("unknown status", sel);
		if (!hs_last_error() || !hs_last_error()[0])
			violated("failure without hs_last_error()", sel);
		if (repp && !report.message[0])
			violated("failure without report message", sel);
		if (out.data != sentinel || out.size != sentinel_size)
			violated("output touched on failure", sel);
		goto done;
	}
	if (optp && (optp->flags & ~HS_REWRITE_ALL_FLAGS))
		violated("unknown flag accepted", sel);
	if (!out.data || out.data == sentinel || out.size == 0)
		violated("HS_OK with empty output", sel);
	if (repp && !report.changed && (out.size != in_size || memcmp(out.data, in, in_size) != 0))
		violated("report.changed false but output differs from input", sel);

	/* Deterministic: the same input and options give the same bytes. */
	st2 = hs_rewrite(in, in_size, source, target, optp, &again, NULL);
	if (st2 != HS_OK)
		violated("second identical call failed", sel);
	if (again.size != out.size || memcmp(again.data, out.data, out.size) != 0)
		violated("second identical call gave different bytes", sel);
	release(&again, sentinel);

	/* Idempotent: rewriting the output with the same options changes nothing. */
	again.data = sentinel;
	again.size = sentinel_size;
	st2 = hs_rewrite(out.data, out.size, source, target, optp, &again, NULL);
	if (st2 != HS_OK)
		violated("rewriting the output again failed", sel);
	if (again.size != out.size || memcmp(again.data, out.data, out.size) != 0)
		violated("rewriting the output again changed it", sel);
	release(&again, sentinel);
done:
	release(&out, sentinel);
	free(copy);
	free(in);
	return 0;
}
