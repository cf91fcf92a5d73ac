/* The download meter: pure fixed-width formatters and a redraw-throttled line on stderr. */
#include "progress.h"

#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

char *progress_format_size(uint64_t bytes, char *buf)
{
	static const char units[] = "BKMGTPE";
	unsigned u = 1;
	uint64_t m, whole, frac;

	if (bytes < 1024) {
		snprintf(buf, PROGRESS_SIZE_WIDTH + 1, "%4u B", (unsigned)bytes);
		return buf;
	}
	/* Pick the unit that leaves a whole part below 1024 (E is the last one). */
	while (u < 6 && (bytes >> (10 * u)) >= 1024)
		u++;
	/* m keeps 10 bits of fraction and is below 2^20, so the fraction maths cannot overflow. */
	m = bytes >> (10 * (u - 1));
	whole = m >> 10;
	frac = m & 1023;
	if (whole < 10)
		snprintf(buf, PROGRESS_SIZE_WIDTH + 1, "%u.%02u %c", (unsigned)whole,
		         (unsigned)((frac * 100) >> 10), units[u]);
	else if (whole < 100)
		snprintf(buf, PROGRESS_SIZE_WIDTH + 1, "%u.%u %c", (unsigned)whole,
		         (unsigned)((frac * 10) >> 10), units[u]);
	else
		snprintf(buf, PROGRESS_SIZE_WIDTH + 1, "%4u %c", (unsigned)whole, units[u]);
	return buf;
}

char *progress_format_rate(uint64_t bytes_per_second, char *buf)
{
	progress_format_size(bytes_per_second, buf);
	memcpy(buf + PROGRESS_SIZE_WIDTH, "/s", 3);
	return buf;
}

char *progress_format_time(int64_t seconds, char *buf)
{
	if (seconds < 0 || seconds >= 1000 * 86400)
		snprintf(buf, PROGRESS_TIME_WIDTH + 1, "--:--:--");
	else if (seconds < 100 * 3600)
		snprintf(buf, PROGRESS_TIME_WIDTH + 1, "%02u:%02u:%02u", (unsigned)(seconds / 3600),
		         (unsigned)(seconds / 60 % 60), (unsigned)(seconds % 60));
	else
		snprintf(buf, PROGRESS_TIME_WIDTH + 1, "%3ud %02uh", (unsigned)(seconds / 86400),
		         (unsigned)(seconds / 3600 % 24));
	return buf;
}

void progress_format_line(struct strbuf *out, uint64_t done, uint64_t total,
                          uint64_t bytes_per_second, int64_t seconds, const char *label)
{
	char now_s[PROGRESS_SIZE_WIDTH + 1], total_s[PROGRESS_SIZE_WIDTH + 1];
	char rate_s[PROGRESS_RATE_WIDTH + 1], time_s[PROGRESS_TIME_WIDTH + 1];

	progress_format_size(done, now_s);
	progress_format_rate(bytes_per_second, rate_s);
	progress_format_time(seconds, time_s);
	if (total) {
		/* Servers may send more than they announced; the bar never shows over 100%. */
		uint64_t pct = done >= total ? 100 : done * 100 / total;
		strbuf_addf(out, "%3u%%  %s / %s  %s  %s %s", (unsigned)pct, now_s,
		            progress_format_size(total, total_s), rate_s, label, time_s);
	} else {
		strbuf_addf(out, " --%%  %s / %*s  %s  %s %s", now_s, PROGRESS_SIZE_WIDTH, "?",
		            rate_s, label, time_s);
	}
}

uint64_t progress_clock_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

bool progress_wanted(bool json)
{
	return !json && isatty(STDERR_FILENO);
}

static void add_sample(struct progress *p, uint64_t now_ms, uint64_t done)
{
	if (p->nsamp == PROGRESS_SAMPLES) {
		memmove(p->samp_ms, p->samp_ms + 1, (PROGRESS_SAMPLES - 1) * sizeof(*p->samp_ms));
		memmove(p->samp_bytes, p->samp_bytes + 1,
		        (PROGRESS_SAMPLES - 1) * sizeof(*p->samp_bytes));
		p->nsamp--;
	}
	p->samp_ms[p->nsamp] = now_ms;
	p->samp_bytes[p->nsamp] = done;
	p->nsamp++;
}

void progress_init(struct progress *p, bool enabled, FILE *out, uint64_t now_ms)
{
	memset(p, 0, sizeof(*p));
	p->enabled = enabled;
	p->out = out ? out : stderr;
	p->start_ms = now_ms;
	p->last_draw_ms = now_ms;
	add_sample(p, now_ms, 0);
}

static void draw(struct progress *p, const struct strbuf *line)
{
	/* Pad over the previous line's tail: '\r' only moves the cursor. */
	size_t pad = p->last_width > line->len ? p->last_width - line->len : 0;
	fprintf(p->out, "\r%s%*s", line->buf, (int)pad, "");
	fflush(p->out);
	p->last_width = line->len;
	p->drawn = true;
}

bool progress_update(struct progress *p, uint64_t now_ms, uint64_t done, uint64_t total)
{
	struct strbuf line = STRBUF_INIT;
	uint64_t rate = 0, dt;
	int64_t eta = -1;

	p->done = done;
	p->total = total;
	if (!p->enabled || now_ms - p->last_draw_ms < PROGRESS_INTERVAL_MS)
		return false;
	/* The rate over the sample window follows speed changes faster than the overall average. */
	dt = now_ms - p->samp_ms[0];
	if (dt && done >= p->samp_bytes[0])
		rate = (done - p->samp_bytes[0]) * 1000 / dt;
	if (total && rate && done <= total)
		eta = (int64_t)((total - done) / rate);
	add_sample(p, now_ms, done);
	p->last_draw_ms = now_ms;
	progress_format_line(&line, done, total, rate, eta, "eta");
	draw(p, &line);
	strbuf_release(&line);
	return true;
}

void progress_finish(struct progress *p, uint64_t now_ms)
{
	struct strbuf line = STRBUF_INIT;
	uint64_t elapsed = now_ms - p->start_ms;

	if (!p->enabled || (!p->drawn && !p->done))
		return;
	progress_format_line(&line, p->done, p->total ? p->total : 0,
	                     elapsed ? p->done * 1000 / elapsed : p->done,
	                     (int64_t)(elapsed / 1000), "time");
	draw(p, &line);
	fputc('\n', p->out);
	fflush(p->out);
	p->drawn = false;
	strbuf_release(&line);
}

void progress_abort(struct progress *p)
{
	if (p->enabled && p->drawn) {
		fputc('\n', p->out);
		fflush(p->out);
	}
	p->drawn = false;
}

void count_meter_start(struct count_meter *m, const char *doing, const char *item, const char *last)
{
	*m = (struct count_meter){doing, item, last, progress_clock_ms(), 0, false};
}

void count_meter_step(void *meter, size_t done, size_t total)
{
	struct count_meter *m = meter;
	uint64_t now = progress_clock_ms();
	char elapsed[PROGRESS_TIME_WIDTH + 1];

	if (done < total && m->drawn && now - m->drawn_ms < COUNT_METER_MS)
		return;
	m->drawn = true;
	m->drawn_ms = now;
	fprintf(stderr, "\rmirage: %s: %s %zu of %zu, %s%s%s", m->doing, m->item, done, total,
	        progress_format_time((int64_t)((now - m->start_ms) / 1000), elapsed),
	        done == total && m->last ? ", " : "", done == total && m->last ? m->last : "");
	fflush(stderr);
}

void count_meter_end(struct count_meter *m)
{
	if (m->drawn)
		fputc('\n', stderr);
	m->drawn = false;
}
