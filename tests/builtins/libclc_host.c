/*
 * The host half of libclc_host.sh: the libclc-22 functions behind the libclc entries of
 * xfail.txt (fmod, remainder and remquo of float, mad_sat of long, the software fma of float
 * -O0 kernels call), extracted from libclc's
 * bitcode and compiled for this machine, run on the inputs of libclc_host.cl's kernels.
 * libclc_host DIR writes the inputs (a.bin, b.bin for k_float; la.bin, lb.bin, lc.bin for
 * k_long) and what the host build of libclc returns for them (float.expect, long.expect), and
 * prints each case with the C library's answer beside it.  The same IR, compiled by LLVM for
 * x86-64, is the judge of what mirage emulate runs for gfx1250: a case where libclc and the
 * C library disagree is libclc's, and mirage must reproduce libclc.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* libclc's mangled names; libclc_host.sh strips the private address space from remquo. */
float _Z4fmodff(float x, float y);
float _Z9remainderff(float x, float y);
float _Z6remquoffPU3AS5i(float x, float y, int *quo);
int64_t _Z7mad_satlll(int64_t a, int64_t b, int64_t c);
float _Z3fmafff(float a, float b, float c);

#define LANES 8

static float bits_f(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof(f));
	return f;
}

static uint32_t f_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof(u));
	return u;
}

static int write_file(const char *dir, const char *name, const void *data, size_t size)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
		fprintf(stderr, "libclc_host: cannot write %s\n", path);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* Denormal operands first (the xfail cases), then values libclc gets right. */
	const uint32_t fa[LANES] = {0x00000001, 0x00000000, 0x00000001, 0x40b00000,
	                            0xc0e80000, 0x7149f2ca, 0x3f800000, 0x00800000};
	const uint32_t fb[LANES] = {0x007fffff, 0x00000001, 0x00000003, 0x40000000,
	                            0x3fc00000, 0x40400000, 0x7f800000, 0x00000001};
	const int64_t la[LANES] = {0, 3, INT64_MAX, -INT64_MAX, INT64_C(1) << 40, -1, 0, 7};
	const int64_t lb[LANES] = {INT64_MIN, 4, 2, 2, INT64_C(1) << 30, -1, 0, -9};
	const int64_t lc[LANES] = {65, 5, 0, 0, -1, INT64_MIN, 0, 100};
	uint32_t fout[4 * LANES];
	int64_t lout[LANES];
	int differ = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: libclc_host DIR\n");
		return 2;
	}
	for (int i = 0; i < LANES; i++) {
		float x = bits_f(fa[i]), y = bits_f(fb[i]);
		int q = 0, cq = 0;
		float r[3] = {_Z4fmodff(x, y), _Z9remainderff(x, y), _Z6remquoffPU3AS5i(x, y, &q)};
		float c[3] = {fmodf(x, y), remainderf(x, y), remquof(x, y, &cq)};
		static const char *const name[3] = {"fmod", "remainder", "remquo"};

		fout[4 * i + 3] = (uint32_t)q;
		for (int k = 0; k < 3; k++) {
			int same = f_bits(r[k]) == f_bits(c[k]) || (isnan(r[k]) && isnan(c[k]));

			fout[4 * i + k] = f_bits(r[k]);
			differ += !same;
			printf("%-9s(%08" PRIx32 ", %08" PRIx32 ") libclc %08" PRIx32
			       "  libm %08" PRIx32 "%s\n",
			       name[k], fa[i], fb[i], f_bits(r[k]), f_bits(c[k]),
			       same ? "" : "  differs");
		}
	}
	for (int i = 0; i < LANES; i++) {
		__int128 exact = (__int128)la[i] * lb[i] + lc[i];
		int64_t c = exact > INT64_MAX   ? INT64_MAX
		            : exact < INT64_MIN ? INT64_MIN
		                                : (int64_t)exact;

		lout[i] = _Z7mad_satlll(la[i], lb[i], lc[i]);
		differ += lout[i] != c;
		printf("mad_sat(%" PRId64 ", %" PRId64 ", %" PRId64 ") libclc %" PRId64
		       "  exact %" PRId64 "%s\n",
		       la[i], lb[i], lc[i], lout[i], c, lout[i] == c ? "" : "  differs");
	}
	/* fma with a denormal addend to a zero product: libclc's software fma (what -O0 kernels
	 * call) takes the exponent fields apart and flushes it; the C library keeps it. */
	{
		static const uint32_t fma_in[3][3] = {{0x00000000, 0xff7fffff, 0x80000001},
		                                      {0x00000000, 0xc0600000, 0x007fffff},
		                                      {0x80000000, 0xff7fffff, 0x007fffff}};
		for (int i = 0; i < 3; i++) {
			float x = bits_f(fma_in[i][0]), y = bits_f(fma_in[i][1]),
			      z = bits_f(fma_in[i][2]);
			uint32_t l = f_bits(_Z3fmafff(x, y, z)), c = f_bits(fmaf(x, y, z));
			differ += l != c;
			printf("fma(%08" PRIx32 ", %08" PRIx32 ", %08" PRIx32 ") libclc %08" PRIx32
			       "  libm %08" PRIx32 "%s\n",
			       fma_in[i][0], fma_in[i][1], fma_in[i][2], l, c,
			       l == c ? "" : "  differs");
		}
	}
	printf("libclc differs from the C library in %d cases\n", differ);
	if (write_file(argv[1], "a.bin", fa, sizeof(fa)) ||
	    write_file(argv[1], "b.bin", fb, sizeof(fb)) ||
	    write_file(argv[1], "la.bin", la, sizeof(la)) ||
	    write_file(argv[1], "lb.bin", lb, sizeof(lb)) ||
	    write_file(argv[1], "lc.bin", lc, sizeof(lc)) ||
	    write_file(argv[1], "float.expect", fout, sizeof(fout)) ||
	    write_file(argv[1], "long.expect", lout, sizeof(lout)))
		return 1;
	return 0;
}
