/*
 * SHA-256 as FIPS 180-4 states it (sha256.h): portable C, and on x86-64 processors with the
 * SHA extensions the same rounds through them (sha256rnds2, sha256msg1/2), chosen once at
 * run time.  A cache key hashes every code object loaded, so the instructions' several
 * times the speed are worth the second path; the unit test holds the two to each other.
 */
#include "sha256.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define SHA256_HAVE_SHANI 1
/*
 * glibc (2.33 and later) answers from the features ld.so read at start-up.  GCC's
 * __builtin_cpu_supports would link libgcc's CPU-model constructor into every object that
 * uses this file: some twenty CPUID instructions, each a trap to the hypervisor in a VM
 * (several microseconds apiece), paid by every process the intercept core is loaded into.
 */
#if defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define SHA256_GLIBC_CPU_FEATURES 1
#endif
#endif
#endif

static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n)
{
	return x >> n | x << (32 - n);
}

static void compress_portable(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6],
	                hh = h[7];

	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	for (int i = 0; i < 64; i++) {
		uint32_t t1 =
		    hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		hh = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
}

#ifdef SHA256_HAVE_SHANI
/* nblocks 64-byte blocks through the SHA extensions; the state kept as ABEF and CDGH. */
__attribute__((target("sha,sse4.1,ssse3"))) static void
compress_shani(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
	__m128i dcba = _mm_loadu_si128((const __m128i *)&h[0]);
	__m128i hgfe = _mm_loadu_si128((const __m128i *)&h[4]);
	__m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
	__m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
	__m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
	__m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);

	for (; nblocks; nblocks--, p += 64) {
		/* w[i] for i = j mod 4 in m[j]: each word's msg1 half starts three groups ahead and
		 * its msg2 half one group ahead, off the rounds' dependency chain. */
		__m128i m[4], save_abef = abef, save_cdgh = cdgh;
#pragma GCC unroll 16
		for (int i = 0; i < 16; i++) {
			__m128i k4;
			if (i < 4)
				m[i] = _mm_shuffle_epi8(
				    _mm_loadu_si128((const __m128i *)(p + 16 * i)), bswap);
			k4 = _mm_add_epi32(m[i & 3], _mm_loadu_si128((const __m128i *)&k[4 * i]));
			cdgh = _mm_sha256rnds2_epu32(cdgh, abef, k4);
			if (i >= 3 && i < 15) {
				__m128i t = _mm_add_epi32(
				    m[(i + 1) & 3], _mm_alignr_epi8(m[i & 3], m[(i + 3) & 3], 4));
				m[(i + 1) & 3] = _mm_sha256msg2_epu32(t, m[i & 3]);
			}
			abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(k4, 0x0E));
			if (i >= 1 && i < 13)
				m[(i + 3) & 3] = _mm_sha256msg1_epu32(m[(i + 3) & 3], m[i & 3]);
		}
		abef = _mm_add_epi32(abef, save_abef);
		cdgh = _mm_add_epi32(cdgh, save_cdgh);
	}
	{
		__m128i feba = _mm_shuffle_epi32(abef, 0x1B);
		__m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
		_mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
		_mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
	}
}
#endif

bool sha256_portable_only;

static void compress(uint32_t h[8], const uint8_t *p, size_t nblocks)
{
#ifdef SHA256_HAVE_SHANI
	/* -1 until asked; two threads asking at once compute the same answer. */
	static atomic_int shani = -1;
	int have = atomic_load_explicit(&shani, memory_order_relaxed);
	if (have < 0) {
#ifdef SHA256_GLIBC_CPU_FEATURES
		have = CPU_FEATURE_ACTIVE(SHA) && CPU_FEATURE_ACTIVE(SSE4_1) &&
		       CPU_FEATURE_ACTIVE(SSSE3);
#else
		__builtin_cpu_init();
		have = __builtin_cpu_supports("sha") && __builtin_cpu_supports("sse4.1") &&
		       __builtin_cpu_supports("ssse3");
#endif
		atomic_store_explicit(&shani, have, memory_order_relaxed);
	}
	if (have && !sha256_portable_only) {
		compress_shani(h, p, nblocks);
		return;
	}
#endif
	for (; nblocks; nblocks--, p += 64)
		compress_portable(h, p);
}

void sha256_init(struct sha256 *s)
{
	static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(s->h, iv, sizeof(iv));
	s->bytes = 0;
	s->used = 0;
}

void sha256_update(struct sha256 *s, const void *data, size_t size)
{
	const uint8_t *p = data;

	s->bytes += size;
	if (s->used) {
		size_t take = size < 64 - s->used ? size : 64 - s->used;
		memcpy(s->block + s->used, p, take);
		s->used += take;
		p += take;
		size -= take;
		if (s->used < 64)
			return;
		compress(s->h, s->block, 1);
		s->used = 0;
	}
	compress(s->h, p, size / 64);
	p += size / 64 * 64;
	size %= 64;
	memcpy(s->block, p, size);
	s->used = size;
}

void sha256_final(struct sha256 *s, uint8_t digest[SHA256_LEN])
{
	uint64_t bits = s->bytes * 8;

	s->block[s->used++] = 0x80;
	if (s->used > 56) {
		memset(s->block + s->used, 0, 64 - s->used);
		compress(s->h, s->block, 1);
		s->used = 0;
	}
	memset(s->block + s->used, 0, 56 - s->used);
	for (int i = 0; i < 8; i++)
		s->block[56 + i] = (uint8_t)(bits >> (56 - 8 * i));
	compress(s->h, s->block, 1);
	for (int i = 0; i < 8; i++)
		for (int j = 0; j < 4; j++)
			digest[4 * i + j] = (uint8_t)(s->h[i] >> (24 - 8 * j));
}
