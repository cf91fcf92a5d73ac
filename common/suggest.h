/*
 * "did you mean": the candidate that reads as a slip of what was typed.  Feed every candidate
 * to suggest_add(), then suggest_best() is the closest within a typo's distance, else the one
 * sharing the longest start of 3+ letters that is all of the shorter word or half the candidate
 * ("--prof" for "--profile", "inspection" for "inspect", "emulate" for "emulators"), else NULL.
 * The strings are borrowed, not copied.
 */
#ifndef MIRAGE_SUGGEST_H
#define MIRAGE_SUGGEST_H

#include <stddef.h>

struct suggestion {
	const char *close, *prefixed;
	size_t dist, common;
};
#define SUGGESTION_INIT                                                                            \
	{                                                                                          \
		0                                                                                  \
	}

void suggest_add(struct suggestion *s, const char *typed, const char *candidate);
const char *suggest_best(const struct suggestion *s);

#endif
