/*
 * An outside program of libhotswap_rewrite, built only from what `cmake --install` left
 * (`cc $(pkg-config --cflags --libs hotswap-rewrite)`): rewrites one code object with entry
 * trampolines, rewrites the result again (recognising its own stubs loads libhotswap_mc.so
 * from where the installed library looks), and checks the second pass is byte-identical.
 *
 * usage: consumer CODE_OBJECT VERSION     exit 0 ok, 1 a check failed (message on stderr)
 */
#include <hotswap/rewrite.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed(const char *what, const char *detail)
{
	fprintf(stderr, "consumer: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	return 1;
}

static void *read_all(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	void *data = NULL;
	long n;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (data = malloc((size_t)n)) && fread(data, 1, (size_t)n, f) != (size_t)n) {
		free(data);
		data = NULL;
	}
	*size = data ? (size_t)n : 0;
	fclose(f);
	return data;
}

static int rewrite(const void *in, size_t size, struct hs_rewrite_output *out,
                   struct hs_rewrite_report *report)
{
	HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
	enum hs_status st = hs_rewrite(in, size, NULL, NULL, &opts, out, report);

	if (st != HS_OK)
		return failed(hs_status_str(st),
		              report->message[0] ? report->message : hs_last_error());
	return 0;
}

int main(int argc, char **argv)
{
	HS_OPTS(hs_rewrite_report, first_report);
	HS_OPTS(hs_rewrite_report, second_report);
	struct hs_rewrite_output first = {0}, second = {0};
	size_t size;
	void *in;
	int ret = 1;

	if (argc != 3)
		return failed("usage: consumer CODE_OBJECT VERSION", NULL);
	if (strcmp(hs_version(), argv[2]) || strcmp(HS_REWRITE_VERSION_STRING, argv[2]))
		return failed("hs_version() or the installed header is not the project version",
		              hs_version());
	if (!(in = read_all(argv[1], &size)))
		return failed(argv[1], strerror(errno ? errno : EIO));
	if (rewrite(in, size, &first, &first_report))
		goto out;
	if (!first_report.changed || !first_report.kernels_stubbed) {
		failed("the first rewrite added no entry stub", NULL);
		goto out;
	}
	if (rewrite(first.data, first.size, &second, &second_report))
		goto out;
	if (second_report.changed || second.size != first.size ||
	    memcmp(second.data, first.data, first.size)) {
		failed("rewriting the output again changed it", NULL);
		goto out;
	}
	printf("%u kernel(s) stubbed, %zu -> %zu bytes, second pass byte-identical\n",
	       first_report.kernels_stubbed, size, first.size);
	ret = 0;
out:
	hs_rewrite_output_release(&first);
	hs_rewrite_output_release(&second);
	free(in);
	return ret;
}
