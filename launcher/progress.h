/*
 * A curl-like download meter on stderr: fixed-width sizes, rates and times,
 * redrawn in place with '\r' at most every 500 ms and ended with one newline.
 * The formatters are pure (unit-tested); the meter draws only when enabled,
 * which callers decide with progress_wanted() (stderr is a tty, --json off).
 * It never writes to stdout, so `mirage --json ... | jq` stays clean.
 */
#ifndef MIRAGE_PROGRESS_H
#define MIRAGE_PROGRESS_H

#include "strbuf.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PROGRESS_SIZE_WIDTH  6 /* "   0 B", "1023 B", "1.00 K", "10.0 M", " 512 G" */
#define PROGRESS_RATE_WIDTH  8 /* a size and "/s" */
#define PROGRESS_TIME_WIDTH  8 /* "00:00:07", "  4d 03h", "--:--:--" */
#define PROGRESS_INTERVAL_MS 500
#define PROGRESS_SAMPLES     6 /* rate window: the last few redraws, about three seconds */

/*
 * Writes bytes in exactly PROGRESS_SIZE_WIDTH characters, in binary units
 * (K = 1024, as `ls -h`), truncating rather than rounding so the width never
 * grows.  buf holds at least PROGRESS_SIZE_WIDTH + 1 bytes.  Returns buf.
 */
char *progress_format_size(uint64_t bytes, char *buf);
/* The same followed by "/s": exactly PROGRESS_RATE_WIDTH characters. */
char *progress_format_rate(uint64_t bytes_per_second, char *buf);
/* HH:MM:SS up to 99:59:59, then "Nd HHh", "--:--:--" when unknown (< 0) or huge. */
char *progress_format_time(int64_t seconds, char *buf);
/*
 * Appends one meter line (no '\r', no newline) to out.  total 0 means the
 * size is unknown.  eta_seconds < 0 prints "--:--:--"; label is "eta" while
 * running and "time" on the final line.
 */
void progress_format_line(struct strbuf *out, uint64_t done, uint64_t total,
                          uint64_t bytes_per_second, int64_t seconds, const char *label);

struct progress {
	bool enabled; /* draw at all */
	FILE *out;    /* stderr, or a test's stream */
	uint64_t start_ms;
	uint64_t last_draw_ms;
	bool drawn;        /* something is on the line: progress_finish() ends it */
	size_t last_width; /* pad shorter redraws so no stale characters remain */
	uint64_t done, total;
	uint64_t samp_ms[PROGRESS_SAMPLES], samp_bytes[PROGRESS_SAMPLES];
	size_t nsamp;
};

/* Milliseconds from a monotonic clock. */
uint64_t progress_clock_ms(void);
/* True when a meter may be drawn: stderr is a terminal and --json is off. */
bool progress_wanted(bool json);
/* Starts a meter; out NULL means stderr.  Nothing to release. */
void progress_init(struct progress *p, bool enabled, FILE *out, uint64_t now_ms);
/* Records progress and redraws if PROGRESS_INTERVAL_MS passed; returns true when it drew. */
bool progress_update(struct progress *p, uint64_t now_ms, uint64_t done, uint64_t total);
/* Draws the final line (if anything was ever drawn or done > 0) and ends it with a newline. */
void progress_finish(struct progress *p, uint64_t now_ms);
/* Ends a drawn line without a final redraw (on errors), so the message starts on its own line. */
void progress_abort(struct progress *p);

/*
 * A counting meter for long work that is not bytes: "mirage: translating for gfx942:
 * kernel 3 of 64, 00:00:02" on stderr, redrawn in place at most every COUNT_METER_MS and
 * always for the last item.  count_meter_step has the shape of the translator's and the
 * rewriter's progress callbacks; count_meter_end ends a drawn line.
 */
#define COUNT_METER_MS 200
struct count_meter {
	const char *doing; /* "translating for gfx942" */
	const char *item;  /* "kernel" */
	const char *last;  /* appended when done == total ("lowering and linking"), or NULL */
	uint64_t start_ms, drawn_ms;
	bool drawn;
};
void count_meter_start(struct count_meter *m, const char *doing, const char *item,
                       const char *last);
void count_meter_step(void *meter, size_t done, size_t total);
void count_meter_end(struct count_meter *m);

#endif
