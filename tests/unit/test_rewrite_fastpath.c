/* The fast path of a fresh object never loads libhotswap_mc (LLVM); recognising stubs does. */
#include "hotswap_contract.h"
#include "test_rewrite_util.h"

#include <dlfcn.h>

static bool mc_loaded(void)
{
	char path[4096];
	void *h;

	snprintf(path, sizeof(path), "%s/hotswap/" HOTSWAP_MC_PATH, tool("MIRAGE_BUILD"));
	h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	if (h)
		dlclose(h);
	return h != NULL;
}

static void test_mc_loaded_only_when_decoding(void **state)
{
	static const char *const fresh[] = {"hello", "multi", "prologue", "data_only", "gfx942"};
	struct hs_rewrite_output out = {0}, again = {0};
	struct blob b;

	assert_false(mc_loaded());
	for (size_t i = 0; i < sizeof(fresh) / sizeof(fresh[0]); i++) {
		struct blob in = fixture(fresh[i]);
		out = rewrite_flags(in, HS_REWRITE_ENTRY_DEFAULT | HS_REWRITE_NO_B0A0, HS_OK, NULL);
		hs_rewrite_output_release(&out);
		free(in.data);
	}
	assert_false(mc_loaded());
	/* A stubbed object: recognising our stub needs the decoder. */
	b = fixture("hello");
	out = rewrite_flags(b, HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL);
	/* Inspecting without disassembly stays LLVM-free too. */
	{
		char *json = NULL;
		assert_int_equal(hs_inspect(out.data, out.size, 0, NULL, &json), HS_OK);
		free(json);
	}
	assert_false(mc_loaded());
	again =
	    rewrite_flags((struct blob){out.data, out.size}, HS_REWRITE_ENTRY_DEFAULT, HS_OK, NULL);
	assert_true(mc_loaded());
	hs_rewrite_output_release(&out);
	hs_rewrite_output_release(&again);
	free(b.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mc_loaded_only_when_decoding),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
