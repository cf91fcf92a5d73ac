/* Formatting and parsing of byte counts in binary units. */
#include "human_size.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
#define NUNITS (sizeof(units) / sizeof(units[0]))

const char *human_size_format(uint64_t n, char buf[static HUMAN_SIZE_LEN])
{
	size_t u = 0;
	while (n >= 1024 && !(n % 1024) && u + 1 < NUNITS) {
		n /= 1024;
		u++;
	}
	snprintf(buf, HUMAN_SIZE_LEN, "%" PRIu64 " %s", n, units[u]);
	return buf;
}

int human_size_parse(const char *s, uint64_t *out)
{
	static const char letters[] = "kmgt";
	uint64_t n = 0;
	unsigned shift = 0;
	const char *p = s, *l;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		unsigned d = (unsigned)(*p - '0');
		if (n > (UINT64_MAX - d) / 10)
			return -1;
		n = n * 10 + d;
	}
	if (*p && (l = strchr(letters, tolower((unsigned char)*p)))) {
		shift = 10 * (unsigned)(l - letters + 1);
		p++;
		if (!strcasecmp(p, "ib") || !strcasecmp(p, "b"))
			p += strlen(p);
	} else if (!strcasecmp(p, "b")) {
		p++;
	}
	if (*p || !n || n > UINT64_MAX >> shift)
		return -1;
	*out = n << shift;
	return 0;
}
