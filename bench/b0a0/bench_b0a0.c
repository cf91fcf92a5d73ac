/*
 * bench_b0a0: the gfx1250 B0->A0 pass (hs_rewrite, B0 -> A0, best effort) over a generated
 * object, against `llvm-objdump-22 -d` of the same .text in the same run (each the median
 * of ITERATIONS).  Target: ratio <= 0.5.  Prints the pass's counts so a reader sees what was
 * timed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hotswap/rewrite.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

int main(int argc, char **argv)
{
	const char *path, *objdump;
	size_t iters, size;
	unsigned char *in;
	double *tp, *to;
	char cmd[4096];
	FILE *f;
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_BEST_EFFORT);
	HS_OPTS(hs_rewrite_report, r);

	if (argc != 4) {
		fprintf(stderr, "usage: bench_b0a0 CODE_OBJECT LLVM_OBJDUMP ITERATIONS\n");
		return 2;
	}
	path = argv[1];
	objdump = argv[2];
	iters = strtoul(argv[3], NULL, 10);
	if (!iters)
		iters = 1;
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (long)(size = (size_t)ftell(f)) < 0) {
		fprintf(stderr, "bench_b0a0: cannot read '%s': %s\n", path, strerror(errno));
		return 1;
	}
	rewind(f);
	in = malloc(size);
	if (!in || fread(in, 1, size, f) != size) {
		fprintf(stderr, "bench_b0a0: cannot read '%s'\n", path);
		return 1;
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "'%s' -d --mcpu=gfx1250 --section=.text '%s' >/dev/null",
	         objdump, path);
	tp = calloc(iters, sizeof(*tp));
	to = calloc(iters, sizeof(*to));
	if (!tp || !to)
		return 1;
	for (size_t i = 0; i < iters; i++) {
		struct hs_rewrite_output out = {0};
		double t0 = now();
		if (hs_rewrite(in, size, NULL, "gfx1250", &opts, &out, &r) != HS_OK) {
			fprintf(stderr, "bench_b0a0: %s\n", hs_last_error());
			return 1;
		}
		tp[i] = now() - t0;
		hs_rewrite_output_release(&out);
		t0 = now();
		if (system(cmd) != 0) {
			fprintf(stderr, "bench_b0a0: '%s' failed\n", cmd);
			return 1;
		}
		to[i] = now() - t0;
	}
	printf("input: %s, %zu bytes, %u kernels\n", path, size, r.kernels);
	printf("b0a0: in place %u, ds2 %u, addtid %u (in sleds %u, in pool %u, by far jumps %u: "
	       "%u jumps through s[%u:%u]..s[%u:%u] in %u kernels), "
	       "declined %u, left alone %u, retagged %u, pool %llu bytes\n",
	       r.count[HS_COUNT_B0A0_CLUSTER_LOAD] + r.count[HS_COUNT_B0A0_ISFIRST],
	       r.count[HS_COUNT_B0A0_DS2], r.count[HS_COUNT_B0A0_ADDTID],
	       r.count[HS_COUNT_B0A0_IN_SLED], r.count[HS_COUNT_B0A0_IN_POOL],
	       r.count[HS_COUNT_B0A0_LONG_JUMP], r.count[HS_COUNT_B0A0_FAR_JUMPS],
	       r.count[HS_COUNT_B0A0_FAR_PAIR_LOW], r.count[HS_COUNT_B0A0_FAR_PAIR_LOW] + 1,
	       r.count[HS_COUNT_B0A0_FAR_PAIR_HIGH], r.count[HS_COUNT_B0A0_FAR_PAIR_HIGH] + 1,
	       r.count[HS_COUNT_B0A0_FAR_PAIR_KERNELS], r.patches_declined,
	       r.count[HS_COUNT_B0A0_LEFT_SADDR], r.count[HS_COUNT_B0A0_RETAGGED],
	       (unsigned long long)r.pool_size);
	{
		double p = median(tp, iters), o = median(to, iters);
		printf("iterations %zu; medians: pass %.2f ms, llvm-objdump -d %.2f ms\n", iters,
		       p * 1e3, o * 1e3);
		printf("ratio pass/objdump: %.3f (target <= 0.5)\n", p / o);
	}
	free(in);
	free(tp);
	free(to);
	return 0;
}
