/* CRC-32C: SSE4.2's crc32 instruction where the CPU has it, a table otherwise. */
#include "crc32c.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#if defined(__x86_64__)
#include <nmmintrin.h>
#define CRC32C_HAVE_SSE42 1
#if __has_include(<sys/platform/x86.h>)
/* glibc's CPU features, read without GCC's CPU-model constructor (as common/sha256.c does). */
#include <sys/platform/x86.h>
#define CRC32C_GLIBC_CPU_FEATURES 1
#endif
#endif

#define POLY 0x82f63b78u /* Castagnoli's polynomial, bit-reversed */

bool crc32c_portable_only;

static uint32_t table[256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void make_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ POLY : c >> 1;
		table[i] = c;
	}
}

static uint32_t crc_portable(uint32_t crc, const uint8_t *p, size_t n)
{
	pthread_once(&table_once, make_table);
	while (n--)
		crc = table[(crc ^ *p++) & 0xff] ^ crc >> 8;
	return crc;
}

#ifdef CRC32C_HAVE_SSE42
__attribute__((target("sse4.2"))) static uint32_t crc_sse42(uint32_t crc, const uint8_t *p,
                                                            size_t n)
{
	uint64_t c = crc;
	for (; n && (uintptr_t)p & 7; n--)
		c = _mm_crc32_u8((uint32_t)c, *p++);
	for (; n >= 8; n -= 8, p += 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		c = _mm_crc32_u64(c, w);
	}
	for (; n; n--)
		c = _mm_crc32_u8((uint32_t)c, *p++);
	return (uint32_t)c;
}

static bool have_sse42(void)
{
	/* -1 until asked; two threads asking at once compute the same answer. */
	static atomic_int have = -1;
	int h = atomic_load_explicit(&have, memory_order_relaxed);
	if (h < 0) {
#ifdef CRC32C_GLIBC_CPU_FEATURES
		h = CPU_FEATURE_ACTIVE(SSE4_2);
#else
		__builtin_cpu_init();
		h = __builtin_cpu_supports("sse4.2");
#endif
		atomic_store_explicit(&have, h, memory_order_relaxed);
	}
	return h;
}
#endif

uint32_t crc32c(const void *data, size_t size)
{
	const uint8_t *p = data;
#ifdef CRC32C_HAVE_SSE42
	if (!crc32c_portable_only && have_sse42())
		return ~crc_sse42(~0u, p, size);
#endif
	return ~crc_portable(~0u, p, size);
}
