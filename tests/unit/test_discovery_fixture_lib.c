/*
 * Stand-in libraries for the completeness predicate's tests: each build
 * defines one entry point (FX_ONLOAD, FX_CORE, FX_HS_REWRITE, FX_HSA_INIT,
 * FX_COMGR) or none, so a test can stage any tree without the real HotSwap parts.
 * FX_HS_REWRITE is also a fake rewriter for the self-test's dlopen path;
 * with FX_NOOP it never changes anything (a rewriter the self-test must fail), with FX_CRASH
 * it dies of SIGSEGV (a crash the doctor's self-test must survive).
 */
#ifdef FX_HS_REWRITE
/* Only the fake rewriter needs headers: the AArch64 build has no target libc to include. */
#include "hotswap/rewrite.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#endif

#define FX_API __attribute__((visibility("default")))

#ifdef FX_ONLOAD
FX_API int OnLoad(void *table, unsigned long long runtime_version, unsigned long long failed,
                  const char *const *failed_names)
{
	return 1;
}
#endif

#ifdef FX_CORE
/* The intercept core's one export (intercept/core_api.h); never called here. */
FX_API const void *hsi_core_get_api(void)
{
	return 0;
}
#endif

#ifdef FX_HSA_INIT
FX_API int hsa_init(void)
{
	return 0;
}
#endif

#ifdef FX_COMGR
FX_API int amd_comgr_hotswap_rewrite(void *input, const char *source, const char *target,
                                     void *output)
{
	return 1;
}
#endif

#ifdef FX_HS_REWRITE
/* Appends one 256-byte "stub" unless the input already ends with one, like an idempotent pass. */
static const char stub_tag[] = "mirage-fixture-stub";

FX_API enum hs_status hs_rewrite(const void *in, size_t in_size, const char *source_isa,
                                 const char *target_isa, const struct hs_rewrite_opts *opts,
                                 struct hs_rewrite_output *out, struct hs_rewrite_report *report)
{
	size_t tag = sizeof(stub_tag);
#ifdef FX_CRASH
	raise(SIGSEGV);
#endif
#ifdef FX_NOOP
	int stubbed = 1;
#else
	int stubbed = in_size >= 256 && !memcmp((const char *)in + in_size - 256, stub_tag, tag);
#endif
	size_t size = stubbed ? in_size : in_size + 256;
	char *data = calloc(1, size);
	if (!data)
		return HS_OUT_OF_RESOURCES;
	memcpy(data, in, in_size);
	if (!stubbed)
		memcpy(data + in_size, stub_tag, tag);
	out->data = data;
	out->size = size;
	if (report) {
		report->changed = !stubbed;
		report->kernels = 1;
		report->kernels_stubbed = stubbed ? 0 : 1;
		report->kernels_skip_stubbed = stubbed ? 1 : 0;
	}
	return HS_OK;
}

FX_API void hs_rewrite_output_release(struct hs_rewrite_output *out)
{
	free(out->data);
	out->data = NULL;
	out->size = 0;
}

/* The rest of the public API, so rewriter_dl_open() accepts the fake; the self-test never calls
 * them. */
FX_API const char *hs_last_error(void)
{
	return "";
}

FX_API const char *hs_status_str(enum hs_status status)
{
	return status == HS_OK ? "OK" : "ERROR";
}

FX_API const char *hs_version(void)
{
	return "0.0.0-fixture";
}

FX_API enum hs_status hs_inspect(const void *in, size_t in_size, unsigned flags, const char *kernel,
                                 char **json)
{
	return HS_ERROR;
}
#endif
