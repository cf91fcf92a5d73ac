/* Times mirage's gfx1250 decoder over a whole .text against llvm-objdump-22 -d of the same object.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mirage/isa.h"
#include "read_whole.h"
#include "run_command.h"

static const char usage[] = "usage: bench_isa TEXT.bin CODE_OBJECT LLVM_OBJDUMP [ITERATIONS]\n";

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Records of the last sweep that matched a row. */
static size_t known;

/* One linear sweep: decode every instruction, and print it too when chars is set. */
static size_t sweep(const uint8_t *text, size_t len, size_t *chars)
{
	struct isa_state st;
	size_t n = 0;

	known = 0;

	isa_state_reset(&st);
	for (size_t off = 0; off < len;) {
		struct isa_inst in;
		char buf[256];
		if (isa_decode_gfx1250(text, len, off, &st, &in)) {
			off += 4;
			continue;
		}
		if (chars)
			*chars += (size_t)isa_inst_format(&in, buf, sizeof(buf));
		off += in.size;
		known += in.op != ISA_OP_UNKNOWN;
		n++;
	}
	return n;
}

/* Wall time of `objdump -d --mcpu=gfx1250 CO > /dev/null`, or a negative value on failure. */
static double run_objdump(const char *objdump, const char *co)
{
	char *argv[] = {(char *)objdump, "-d", "--mcpu=gfx1250", (char *)co, NULL};
	struct run_spec spec = {.path = objdump, .argv = argv, .out = RUN_DISCARD};
	struct run_result run;
	double t0 = now();

	if (run_command(&spec, &run) < 0 || !WIFEXITED(run.status) || WEXITSTATUS(run.status))
		return -1;
	return now() - t0;
}

int main(int argc, char **argv)
{
	size_t len, count = 0, chars = 0;
	int iterations = argc > 4 ? atoi(argv[4]) : 10, fd;
	double *ours, *decode, *theirs;
	uint8_t *text;

	if (argc < 4 || iterations < 1) {
		fputs(usage, stderr);
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_CLOEXEC);
	text = fd >= 0 ? read_whole_fd(fd, &len) : NULL;
	if (fd >= 0)
		close(fd);
	if (!text) {
		fprintf(stderr, "bench_isa: cannot read '%s'\n", argv[1]);
		return 1;
	}
	ours = calloc((size_t)iterations, sizeof(*ours));
	decode = calloc((size_t)iterations, sizeof(*decode));
	theirs = calloc((size_t)iterations, sizeof(*theirs));
	if (!ours || !decode || !theirs)
		return 1;
	for (int i = 0; i < iterations; i++) {
		double t0 = now();
		count = sweep(text, len, &chars);
		ours[i] = now() - t0;
		t0 = now();
		sweep(text, len, NULL);
		decode[i] = now() - t0;
		theirs[i] = run_objdump(argv[3], argv[2]);
		if (theirs[i] < 0) {
			fprintf(stderr, "bench_isa: '%s -d' failed on '%s'\n", argv[3], argv[2]);
			return 1;
		}
	}
	qsort(ours, (size_t)iterations, sizeof(*ours), cmp_double);
	qsort(decode, (size_t)iterations, sizeof(*decode), cmp_double);
	qsort(theirs, (size_t)iterations, sizeof(*theirs), cmp_double);
	double o = ours[iterations / 2], d = decode[iterations / 2], t = theirs[iterations / 2];
	printf("bench_isa: %zu bytes of .text, %zu instructions (%zu matched a row), %d iterations "
	       "(medians)\n",
	       len, count, known, iterations);
	printf("  mirage decode+print: %9.3f ms  (%.1f ns/instruction)\n", o * 1e3,
	       count ? o * 1e9 / (double)count : 0.0);
	printf("  mirage decode only:  %9.3f ms  (%.1f ns/instruction)\n", d * 1e3,
	       count ? d * 1e9 / (double)count : 0.0);
	printf("  llvm-objdump-22 -d:  %9.3f ms  (whole process)\n", t * 1e3);
	printf("  ratio objdump / mirage: %.1fx (decode+print), %.1fx (decode only)\n",
	       o > 0 ? t / o : 0.0, d > 0 ? t / d : 0.0);
	free(ours);
	free(decode);
	free(theirs);
	free(text);
	return 0;
}
