/* Times hs_rewrite() with entry trampolines on a many-kernel code object against copying it. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hotswap/rewrite.h"

#define GFX1250_B0 "amdgcn-amd-amdhsa--gfx1250:gfx1250-b0-specific+"

static const char usage[] = "usage: bench_rewrite CODE_OBJECT [ITERATIONS]\n";

static double clock_sec(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Wall and CPU time of one timed region.  Both are reported: on a shared
 * machine wall time includes waiting for a core, CPU time (user + system of
 * this single-threaded process) does not.
 */
struct sample {
	double wall, cpu;
};

static struct sample sample_start(void)
{
	struct sample s = {clock_sec(CLOCK_MONOTONIC), clock_sec(CLOCK_PROCESS_CPUTIME_ID)};

	return s;
}

static void sample_stop(struct sample start, double *wall, double *cpu)
{
	*wall = clock_sec(CLOCK_MONOTONIC) - start.wall;
	*cpu = clock_sec(CLOCK_PROCESS_CPUTIME_ID) - start.cpu;
}

/* Keeps the compiler from proving a copy unused and deleting it together with its malloc/free. */
static void escape(void *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct stats {
	double min, median, mean;
};

/* Sorts t in place. */
static struct stats summarize(double *t, size_t n)
{
	struct stats s = {0, 0, 0};

	qsort(t, n, sizeof(*t), cmp_double);
	for (size_t i = 0; i < n; i++)
		s.mean += t[i];
	s.mean /= (double)n;
	s.min = t[0];
	s.median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	return s;
}

static int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long len;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return -1;
	}
	*data = malloc((size_t)len);
	if (!*data || fread(*data, 1, (size_t)len, f) != (size_t)len) {
		free(*data);
		fclose(f);
		return -1;
	}
	fclose(f);
	*size = (size_t)len;
	return 0;
}

/* Writes all of buf to a fresh file, as `cp` would after reading: create, write, close. */
static int write_file(const char *path, const uint8_t *buf, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	size_t done = 0;

	if (fd < 0)
		return -1;
	while (done < size) {
		ssize_t n = write(fd, buf + done, size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	return close(fd);
}

/* What is timed, in output order. */
enum {
	B_REWRITE,
	B_MEMCPY,
	B_FILE,
	B_COUNT
};
static const char *const bench_names[B_COUNT] = {
    "hs_rewrite",
    "malloc+memcpy+free",
    "write to a temp file",
};

static void print_row(const char *name, double *wall, double *cpu, size_t n, struct stats *w,
                      struct stats *c)
{
	*w = summarize(wall, n);
	*c = summarize(cpu, n);
	printf("%-22s %10.3f %10.3f %10.3f   %10.3f %10.3f\n", name, w->median * 1e3, w->min * 1e3,
	       w->mean * 1e3, c->median * 1e3, c->min * 1e3);
}

int main(int argc, char **argv)
{
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT | HS_REWRITE_NO_B0A0);
	HS_OPTS(hs_rewrite_report, report, .changed = false);
	struct hs_rewrite_output out = {NULL, 0};
	struct stats wall[B_COUNT], cpu[B_COUNT];
	double *t = NULL; /* [B_COUNT][2 (wall, cpu)][iters] */
	uint8_t *in = NULL;
	size_t in_size = 0, iters = 20;
	const char *tmpdir = getenv("TMPDIR");
	char *path = NULL;
	enum hs_status st;
	int fd, ret = 1;

	if (argc < 2 || argc > 3) {
		fputs(usage, stderr);
		return 2;
	}
	if (argc == 3) {
		char *end;

		iters = strtoul(argv[2], &end, 10);
		if (*end || iters == 0 || iters > 100000) {
			fputs(usage, stderr);
			return 2;
		}
	}
	if (read_file(argv[1], &in, &in_size) != 0) {
		fprintf(stderr, "bench_rewrite: cannot read '%s': %s\n", argv[1], strerror(errno));
		return 1;
	}
	t = calloc((size_t)B_COUNT * 2 * iters, sizeof(double));
	if (!t)
		goto cleanup;
#define WALL(b, i) t[((size_t)(b)*2) * iters + (i)]
#define CPU(b, i)  t[((size_t)(b)*2 + 1) * iters + (i)]

	/* One untimed call: checks the object and warms caches (and dlopen, if MC is needed). */
	st = hs_rewrite(in, in_size, GFX1250_B0, GFX1250_B0, &opts, &out, &report);
	if (st != HS_OK) {
		fprintf(stderr, "bench_rewrite: hs_rewrite: %s: %s\n", hs_status_str(st),
		        hs_last_error());
		goto cleanup;
	}
	printf("input:   %s, %zu bytes, %u kernels\n", argv[1], in_size, report.kernels);
	printf("rewrite: B0->B0, ENTRY_TRAMPOLINES|STUB_SYMBOLS|NO_B0A0: %u stubbed, %u skipped "
	       "(prologue), %u symbols, output %zu bytes\n",
	       report.kernels_stubbed, report.kernels_skip_prologue, report.symbols_added,
	       out.size);
	hs_rewrite_output_release(&out);

	for (size_t i = 0; i < iters; i++) {
		struct sample s0 = sample_start();

		st = hs_rewrite(in, in_size, GFX1250_B0, GFX1250_B0, &opts, &out, NULL);
		hs_rewrite_output_release(&out);
		sample_stop(s0, &WALL(B_REWRITE, i), &CPU(B_REWRITE, i));
		if (st != HS_OK) {
			fprintf(stderr, "bench_rewrite: iteration %zu: %s\n", i, hs_last_error());
			goto cleanup;
		}
	}

	/* Baseline 1: what any in-memory rewriter must at least do, allocate and copy. */
	for (size_t i = 0; i < iters; i++) {
		struct sample s0 = sample_start();
		uint8_t *copy = malloc(in_size);

		if (!copy)
			goto cleanup;
		memcpy(copy, in, in_size);
		escape(copy);
		free(copy);
		sample_stop(s0, &WALL(B_MEMCPY, i), &CPU(B_MEMCPY, i));
	}

	/* Baseline 2: copying the file, minus the read (the bytes are already in memory). */
	if (asprintf(&path, "%s/bench_rewrite_XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0) {
		path = NULL;
		goto cleanup;
	}
	fd = mkstemp(path);
	if (fd < 0) {
		fprintf(stderr, "bench_rewrite: cannot create a temp file: %s\n", strerror(errno));
		goto cleanup;
	}
	close(fd);
	for (size_t i = 0; i < iters; i++) {
		struct sample s0 = sample_start();

		if (write_file(path, in, in_size) != 0) {
			fprintf(stderr, "bench_rewrite: cannot write '%s': %s\n", path,
			        strerror(errno));
			unlink(path);
			goto cleanup;
		}
		sample_stop(s0, &WALL(B_FILE, i), &CPU(B_FILE, i));
	}
	unlink(path);

	printf("iterations: %zu; times in ms per iteration\n", iters);
	printf("%-22s %10s %10s %10s   %10s %10s\n", "", "wall med", "wall min", "wall mean",
	       "cpu med", "cpu min");
	for (int b = 0; b < B_COUNT; b++)
		print_row(bench_names[b], &WALL(b, 0), &CPU(b, 0), iters, &wall[b], &cpu[b]);
	printf("ratio rewrite/memcpy:     wall %.1f, cpu %.1f (medians)\n",
	       wall[B_REWRITE].median / wall[B_MEMCPY].median,
	       cpu[B_REWRITE].median / cpu[B_MEMCPY].median);
	printf("ratio rewrite/file write: wall %.2f, cpu %.2f (medians)\n",
	       wall[B_REWRITE].median / wall[B_FILE].median,
	       cpu[B_REWRITE].median / cpu[B_FILE].median);
	printf("per kernel: wall %.2f us, cpu %.2f us (medians)\n",
	       report.kernels ? wall[B_REWRITE].median * 1e6 / report.kernels : 0.0,
	       report.kernels ? cpu[B_REWRITE].median * 1e6 / report.kernels : 0.0);
	ret = 0;
#undef WALL
#undef CPU
cleanup:
	free(path);
	free(t);
	free(in);
	return ret;
}
