/*
 * A program that never touches HSA: copies its own /proc/self/maps to the
 * file named by argv[1] and prints nothing, so a test can check what a
 * preloaded intercept mapped (never libLLVM) and said (nothing).
 */
#include <stdio.h>

int main(int argc, char **argv)
{
	FILE *in, *out;
	char buf[4096];
	size_t n;

	if (argc != 2)
		return 2;
	in = fopen("/proc/self/maps", "r");
	out = fopen(argv[1], "w");
	if (!in || !out)
		return 1;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return fclose(out) ? 1 : 0;
}
