/*
 * A refused kernel in words: the one sentence every component prints when the translator
 * will not raise a kernel (mirage raise and emulate, mirage rewrite --target, the rewriter's
 * error message, the intercept's warning), so a user meets one layout and can grep for it:
 *
 *   kernel 'K' is refused at 0x1a40 (v_foo): reason-code: reason text: detail
 *
 * The address is the instruction's, as llvm-objdump-22 -d prints it (not an offset into
 * .text); ": detail" is left out when there is none.  The launcher's JSON form of the same
 * fields is refusal_json() in launcher/output.h.  Never allocates, never aborts.
 */
#ifndef MIRAGE_REFUSAL_H
#define MIRAGE_REFUSAL_H

#include <stddef.h>
#include <stdint.h>

struct refusal {
	const char *kernel;      /* the kernel's name */
	uint64_t address;        /* the refused instruction's address */
	const char *mnemonic;    /* its mnemonic; NULL or "" when none (an entry-state refusal) */
	const char *reason;      /* the reason code, e.g. "unknown-instruction" */
	const char *reason_text; /* the code's sentence */
	const char *detail;      /* what was found; NULL or "" when nothing more */
};

/* Writes the sentence into buf (truncated to size, always terminated); returns its length
 * as snprintf does. */
int refusal_format(char *buf, size_t size, const struct refusal *r);

/* Enough for any sentence refusal_format() writes from the translator's fields. */
#define REFUSAL_MAX 768

/*
 * r's sentence appended to *lines (malloc'ed, NULL to start), one a line: what a cache
 * entry of a partial translation keeps to say again at each load.  Returns the sentence
 * (in *lines), or NULL when out of memory (*lines is then left as it was).
 */
const char *refusal_lines_add(char **lines, const struct refusal *r);

#endif
