/*
 * Test workload: prints its environment sorted, then its working directory and
 * arguments (after argv[0]) on stderr, one per line with C escapes for control
 * characters; exits with status argv[1], or dies by signal N with `--kill N`.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	size_t n = 0;
	char cwd[4096];
	while (environ[n])
		n++;
	char **sorted = malloc((n + 1) * sizeof(*sorted));
	if (!sorted)
		return 99;
	memcpy(sorted, environ, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp);
	for (size_t i = 0; i < n; i++)
		printf("%s\n", sorted[i]);
	if (getcwd(cwd, sizeof(cwd)))
		fprintf(stderr, "cwd=%s\n", cwd);
	for (int i = 1; i < argc; i++) {
		fprintf(stderr, "arg%d=", i);
		for (const unsigned char *c = (const unsigned char *)argv[i]; *c; c++)
			fprintf(stderr, *c < 0x20 || *c == 0x7f ? "\\x%02x" : "%c", *c);
		fputc('\n', stderr);
	}
	free(sorted);
	if (argc > 2 && !strcmp(argv[1], "--kill")) {
		fflush(NULL);
		signal(atoi(argv[2]), SIG_DFL);
		raise(atoi(argv[2]));
	}
	return argc > 1 ? atoi(argv[1]) : 0;
}
