/*
 * translate_drive LIB CODE_OBJECT TARGET OUT_IMAGE OUT_TSV [RUNS]: dlopens
 * libmirage_translate.so (LIB), translates CODE_OBJECT for TARGET and writes the image (when
 * every kernel translated) and one TSV row per kernel: name, "translated", "whole-wave"
 * (translated in whole-wave mode; offset and mnemonic are its site, detail the note) or
 * "refused", reason, offset (hex), mnemonic, instructions, detail.  With RUNS
 * (bench/translate), translates that many times more and prints "BEST_MS INSTRUCTIONS
 * KERNELS" of the in-process calls.  Exit 0 all translated, 1 some refused, 2 an error
 * (message on stderr).  `translate_drive LIB --build-id` prints the build identity.  A test
 * tool, never installed.
 */
#include "mirage_translate.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned char *slurp(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET)) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*size = (size_t)n;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	void *lib;
	translate_get_api_fn get;
	const struct translate_api *api;
	struct tr_translation t;
	unsigned char *code;
	size_t size = 0;
	FILE *tsv;
	int rc, refused = 0;

	if (argc == 3 && !strcmp(argv[2], "--build-id")) {
		lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
		get = lib ? (translate_get_api_fn)dlsym(lib, TRANSLATE_ENTRY_SYMBOL) : NULL;
		if (!get)
			return 2;
		printf("%s\n", get()->build_id());
		return 0;
	}
	if (argc != 6 && argc != 7) {
		fprintf(stderr,
		        "usage: translate_drive LIB CODE_OBJECT TARGET OUT_IMAGE OUT_TSV [RUNS]\n");
		return 2;
	}
	lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	get = lib ? (translate_get_api_fn)dlsym(lib, TRANSLATE_ENTRY_SYMBOL) : NULL;
	api = get ? get() : NULL;
	if (!api || api->version != TRANSLATE_API_VERSION) {
		fprintf(stderr, "translate_drive: %s: %s\n", argv[1],
		        lib ? "no API v2" : dlerror());
		return 2;
	}
	code = slurp(argv[2], &size);
	if (!code) {
		fprintf(stderr, "translate_drive: cannot read %s\n", argv[2]);
		return 2;
	}
	rc = api->translate_object(code, size, argv[3], &t);
	if (!rc && argc == 7) {
		double best = 0;
		size_t insts = 0;
		for (size_t i = 0; i < t.nkernels; i++)
			insts += t.kernels[i].instructions;
		for (long n = strtol(argv[6], NULL, 10); n > 0; n--) {
			struct tr_translation again;
			struct timespec a, b;
			double ms;
			clock_gettime(CLOCK_MONOTONIC, &a);
			api->translate_object(code, size, argv[3], &again);
			clock_gettime(CLOCK_MONOTONIC, &b);
			api->translation_free(&again);
			ms = (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6;
			if (best == 0 || ms < best)
				best = ms;
		}
		printf("%.3f %zu %zu\n", best, insts, t.nkernels);
	}
	free(code);
	if (rc) {
		fprintf(stderr, "translate_drive: %s\n", t.error ? t.error : "failed");
		api->translation_free(&t);
		return 2;
	}
	tsv = fopen(argv[5], "w");
	for (size_t i = 0; tsv && i < t.nkernels; i++) {
		const struct tr_kernel *k = &t.kernels[i];
		refused |= !k->raised;
		fprintf(tsv, "%s\t%s\t%s\t0x%llx\t%s\t%zu\t%s\n", k->name,
		        !k->raised ? "refused"
		        : k->note  ? "whole-wave"
		                   : "translated",
		        k->raised || !k->reason ? "-" : k->reason, (unsigned long long)k->offset,
		        k->mnemonic ? k->mnemonic : "-", k->instructions,
		        k->note     ? k->note
		        : k->detail ? k->detail
		                    : "-");
	}
	if (tsv)
		fclose(tsv);
	if (t.image) {
		FILE *o = fopen(argv[4], "wb");
		if (!o || fwrite(t.image, 1, t.image_size, o) != t.image_size || fclose(o)) {
			fprintf(stderr, "translate_drive: cannot write %s\n", argv[4]);
			api->translation_free(&t);
			return 2;
		}
	}
	api->translation_free(&t);
	return refused || !tsv ? 1 : 0;
}
