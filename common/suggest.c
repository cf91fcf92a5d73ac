/* "did you mean" (suggest.h). */
#include "suggest.h"

#include <stdint.h>
#include <string.h>

/* Optimal string alignment distance, for "did you mean". */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return SIZE_MAX;
	size_t d[65][65];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + cost < best)
				best = d[i - 1][j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

void suggest_add(struct suggestion *s, const char *typed, const char *candidate)
{
	size_t d = edit_distance(typed, candidate);
	size_t limit = strlen(candidate) < 5 ? 1 : 2;
	size_t common = 0;
	if (d <= limit && (!s->close || d < s->dist)) {
		s->close = candidate;
		s->dist = d;
	}
	while (candidate[common] && candidate[common] == typed[common])
		common++;
	if (common >= 3 && (!typed[common] || 2 * common >= strlen(candidate)) &&
	    common > s->common) {
		s->prefixed = candidate;
		s->common = common;
	}
}

const char *suggest_best(const struct suggestion *s)
{
	return s->close ? s->close : s->prefixed;
}
