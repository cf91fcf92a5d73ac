/*
 * A test double of the translator, libmirage_translate.so (translate/api/mirage_translate.h),
 * so the translation route (libhotswap_rewrite, the intercept, mirage rewrite, doctor) is
 * tested apart from the real translator.  Tests install it in a copy of the tree in place of
 * the real one.  It translates nothing: it hands out a prepared object.  Tests only.
 *
 *   MIRAGE_TEST_TRANSLATE_OUTPUT   the gfx942/gfx950 object to return (read whole)
 *   MIRAGE_TEST_TRANSLATE_KERNELS  comma-separated kernel names it reports, in order
 *   MIRAGE_TEST_TRANSLATE_REFUSE   "kernel:offset:mnemonic:reason:text[:detail]": refuse that one
 *   MIRAGE_TEST_TRANSLATE_ERROR    an object-level error to return instead
 *   MIRAGE_TEST_TRANSLATE_BUILD    what build_id() says (default "double-1", "double-2" when
 *                                  built with -DREBUILT)
 *   MIRAGE_TEST_TRANSLATE_LOG      a file to append "translate <target>" to on every call
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mirage_translate.h"

static char *dup_env(const char *name)
{
	const char *v = getenv(name);
	return v ? strdup(v) : NULL;
}

static int read_file(const char *path, unsigned char **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(*data = malloc(n ? (size_t)n : 1)) || fread(*data, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return -1;
	}
	fclose(f);
	*size = (size_t)n;
	return 0;
}

/* Fills k as the refusal spec says ("kernel:offset:mnemonic:reason:text[:detail]"). */
static void refuse(struct tr_kernel *k, char *spec)
{
	static char reason[64], text[256];
	char *f[6] = {0};
	size_t n = 0;

	for (char *p = spec; p && n < 6; n++) {
		f[n] = p;
		p = strchr(p, ':');
		if (p)
			*p++ = '\0';
	}
	k->raised = 0;
	k->offset = f[1] ? strtoull(f[1], NULL, 0) : 0;
	k->mnemonic = strdup(f[2] ? f[2] : "");
	snprintf(reason, sizeof(reason), "%s", f[3] ? f[3] : "unknown-instruction");
	snprintf(text, sizeof(text), "%s", f[4] ? f[4] : "not in the table");
	k->reason = reason;
	k->reason_text = text;
	k->detail = f[5] ? strdup(f[5]) : NULL;
}

static int translate_object(const void *code, size_t size, const char *target,
                            struct tr_translation *out)
{
	const char *log = getenv("MIRAGE_TEST_TRANSLATE_LOG");
	const char *path = getenv("MIRAGE_TEST_TRANSLATE_OUTPUT");
	char *names = dup_env("MIRAGE_TEST_TRANSLATE_KERNELS");
	char *refusal = dup_env("MIRAGE_TEST_TRANSLATE_REFUSE");
	const char *error = getenv("MIRAGE_TEST_TRANSLATE_ERROR");

	(void)code;
	(void)size;
	memset(out, 0, sizeof(*out));
	if (log) {
		FILE *f = fopen(log, "a");
		if (f) {
			fprintf(f, "translate %s %ld\n", target, (long)getpid());
			fclose(f);
		}
	}
	/* MIRAGE_TEST_TRANSLATE_SLEEP_MS: a translation that takes a while (the lock tests). */
	if (getenv("MIRAGE_TEST_TRANSLATE_SLEEP_MS"))
		usleep((useconds_t)strtoul(getenv("MIRAGE_TEST_TRANSLATE_SLEEP_MS"), NULL, 10) *
		       1000);
	if (error) {
		out->error = strdup(error);
		goto done;
	}
	for (char *save = NULL, *name = names ? strtok_r(names, ",", &save) : NULL; name;
	     name = strtok_r(NULL, ",", &save)) {
		struct tr_kernel *k;
		out->kernels = realloc(out->kernels, (out->nkernels + 1) * sizeof(*out->kernels));
		k = &out->kernels[out->nkernels++];
		memset(k, 0, sizeof(*k));
		k->name = strdup(name);
		k->raised = 1;
		k->instructions = 1;
		if (refusal && !strncmp(refusal, name, strlen(name)) &&
		    refusal[strlen(name)] == ':')
			refuse(k, refusal);
	}
	for (size_t i = 0; i < out->nkernels; i++)
		if (!out->kernels[i].raised)
			goto done;
	if (!path || read_file(path, &out->image, &out->image_size) < 0)
		out->error =
		    strdup("the test double has no MIRAGE_TEST_TRANSLATE_OUTPUT to return");
done:
	free(names);
	free(refusal);
	return out->error ? 1 : 0;
}

static void translation_free(struct tr_translation *t)
{
	for (size_t i = 0; i < t->nkernels; i++) {
		free(t->kernels[i].name);
		free(t->kernels[i].mnemonic);
		free(t->kernels[i].detail);
	}
	free(t->kernels);
	free(t->image);
	free(t->error);
	memset(t, 0, sizeof(*t));
}

/* REBUILT: another build of the double (another GNU build-id too), for the cache tests. */
#ifdef REBUILT
#define DOUBLE_BUILD "double-2"
#else
#define DOUBLE_BUILD "double-1"
#endif

static const char *build_id(void)
{
	const char *b = getenv("MIRAGE_TEST_TRANSLATE_BUILD");
	return b ? b : DOUBLE_BUILD;
}

static const struct translate_api api = {
    .version = TRANSLATE_API_VERSION,
    .translate_object = translate_object,
    .translation_free = translation_free,
    .build_id = build_id,
};

const struct translate_api *mirage_translate_api(void)
{
	return &api;
}
