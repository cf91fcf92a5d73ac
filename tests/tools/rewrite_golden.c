/*
 * rewrite_golden: runs hs_rewrite over each given code object for every option-flag
 * combination and a set of ISA pairs, and again over each changed output, printing one
 * line per call: the case, the status, the SHA-256 of the output and a digest of the report.
 * tests/integration/rewrite_golden.sh compares the lines with a checked-in list, so a
 * change to the rewriter that moves one output byte is seen.
 */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hotswap/rewrite.h"

#define A0 "amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific-"
#define B0 "amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+"

/* The ISA pairs: the object's own, B0 -> B0, the default B0 -> A0 pair, A0 -> gfx1250. */
static const struct {
	const char *name, *source, *target;
} pairs[] = {
    {"own", NULL, NULL},
    {"b0", NULL, B0},
    {"a0", NULL, "gfx1250"},
    {"srca0", A0, "gfx1250"},
};

static void sha256_hex(const void *data, size_t size, char out[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned len = 0;

	EVP_Digest(data, size, md, &len, EVP_sha256(), NULL);
	for (unsigned i = 0; i < len && i < 32; i++)
		snprintf(out + 2 * i, 3, "%02x", md[i]);
}

/* The report's v1 fields as text: what a caller of today's ABI can see. */
static void report_digest(const struct hs_rewrite_report *r, char out[65])
{
	char text[1024];
	int n = snprintf(text, sizeof(text), "%d %u %u %u %u %u %u %d %u %u %llx %llu %lld %s",
	                 r->changed, r->passes_run, r->kernels, r->kernels_stubbed,
	                 r->kernels_skip_prologue, r->kernels_skip_stubbed, r->symbols_added,
	                 r->symbols_skipped, r->patches_applied, r->patches_declined,
	                 (unsigned long long)r->pool_vaddr, (unsigned long long)r->pool_size,
	                 (long long)r->bytes_grown, r->message);
	sha256_hex(text, (size_t)n, out);
}

static void one(const char *name, int round, const void *in, size_t size, int p, uint64_t flags)
{
	HS_OPTS(hs_rewrite_opts, opts, .flags = flags);
	HS_OPTS(hs_rewrite_report, report);
	struct hs_rewrite_output out = {0};
	char out_hash[65] = "-", rep_hash[65];
	enum hs_status st;

	st = hs_rewrite(in, size, pairs[p].source, pairs[p].target, &opts, &out, &report);
	if (st == HS_OK)
		sha256_hex(out.data, out.size, out_hash);
	report_digest(&report, rep_hash);
	printf("%s r%d %s f%llx %s %s %.16s\n", name, round, pairs[p].name,
	       (unsigned long long)flags, hs_status_str(st), out_hash, rep_hash);
	if (st == HS_OK && report.changed && round == 1)
		one(name, 2, out.data, out.size, p, flags);
	hs_rewrite_output_release(&out);
}

int main(int argc, char **argv)
{
	for (int a = 1; a < argc; a++) {
		const char *path = argv[a], *base = strrchr(path, '/');
		FILE *f = fopen(path, "rb");
		char *buf;
		long size;

		if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
			fprintf(stderr, "rewrite_golden: cannot read '%s'\n", path);
			return 1;
		}
		buf = malloc(size ? (size_t)size : 1);
		if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
			fprintf(stderr, "rewrite_golden: cannot read '%s'\n", path);
			return 1;
		}
		fclose(f);
		base = base ? base + 1 : path;
		for (size_t p = 0; p < sizeof(pairs) / sizeof(pairs[0]); p++)
			for (uint64_t flags = 0; flags <= HS_REWRITE_ALL_FLAGS; flags++)
				/* ALL_KERNELS only steers a translation, which no pair here is
				 * (integration/translate_golden pins those). */
				if (!(flags & HS_REWRITE_ALL_KERNELS))
					one(base, 1, buf, (size_t)size, (int)p, flags);
		free(buf);
	}
	return 0;
}
