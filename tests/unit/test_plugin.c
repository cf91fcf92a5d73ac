/* The one plugin loader: a good load, and each failure's message (missing file, not an ELF,
 * missing symbol, no table, wrong API version, nowhere to look). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <dlfcn.h>

#include "object_path.h"
#include "plugin.h"
#include "test_plugin_fixture.h"

PLUGIN_ENTRY_CALLER(call_fx_entry, fx_plugin_get_api_fn)

static struct plugin_spec fx_spec(const char *entry, uint32_t version)
{
	return (struct plugin_spec){.file = "libtest_plugin_fixture.so",
	                            .owner = "the test",
	                            .entry = entry,
	                            .version = version,
	                            .call_entry = call_fx_entry};
}

static void assert_text(const struct plugin_error *err, const char *want)
{
	if (strcmp(err->text, want))
		fail_msg("message\n  got:  %s\n  want: %s", err->text, want);
}

static void test_loads_and_checks_version(void **state)
{
	(void)state;
	struct plugin_spec spec = fx_spec("fx_plugin_get_api", FX_PLUGIN_VERSION);
	struct plugin_error err;
	const struct fx_plugin_api *api = plugin_load(PLUGIN_FX, &spec, &err);

	assert_non_null(api);
	assert_int_equal(api->magic, FX_PLUGIN_MAGIC);
	assert_int_equal(err.failure, PLUGIN_OK);
	assert_string_equal(err.text, "");
	/* Beside an object: the fixture's own directory, found through its table. */
	assert_ptr_equal(plugin_load_beside(api, &spec, &err), api);
}

static void test_missing_file(void **state)
{
	(void)state;
	struct plugin_spec spec = fx_spec("fx_plugin_get_api", FX_PLUGIN_VERSION);
	struct plugin_error err;

	assert_null(plugin_load(PLUGIN_FX_DIR "/no-such-plugin.so", &spec, &err));
	assert_int_equal(err.failure, PLUGIN_CANNOT_LOAD);
	/* dlerror()'s own "<path>: " is not said twice. */
	assert_text(&err, "cannot load '" PLUGIN_FX_DIR "/no-such-plugin.so': cannot open shared "
	                  "object file: No such file or directory");
}

static void test_not_an_elf(void **state)
{
	(void)state;
	char path[] = "/tmp/mirage-plugin-XXXXXX";
	int fd = mkstemp(path);
	static const char text[] = "this is a text file, long enough to hold an ELF header's worth "
	                           "of bytes, and not one\n";
	struct plugin_spec spec = fx_spec("fx_plugin_get_api", FX_PLUGIN_VERSION);
	struct plugin_error err;
	char want[256];

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)sizeof(text) - 1);
	close(fd);
	assert_null(plugin_load(path, &spec, &err));
	unlink(path);
	assert_int_equal(err.failure, PLUGIN_CANNOT_LOAD);
	snprintf(want, sizeof(want), "cannot load '%s': invalid ELF header", path);
	assert_text(&err, want);
}

static void test_missing_symbol(void **state)
{
	(void)state;
	struct plugin_spec spec = fx_spec("fx_plugin_absent", FX_PLUGIN_VERSION);
	struct plugin_error err;
	void *handle;

	assert_null(plugin_load(PLUGIN_FX, &spec, &err));
	assert_int_equal(err.failure, PLUGIN_NO_SYMBOL);
	assert_text(&err, "'" PLUGIN_FX "' does not export fx_plugin_absent");

	/* The same message from the lookup of one function, and none for an optional one. */
	handle = plugin_open(PLUGIN_FX, 0, &err);
	assert_non_null(handle);
	memset(&err, 0, sizeof(err));
	assert_null(plugin_symbol(handle, PLUGIN_FX, "fx_plugin_absent", NULL));
	assert_string_equal(err.text, "");
	assert_null(plugin_symbol(handle, PLUGIN_FX, "fx_plugin_absent", &err));
	assert_text(&err, "'" PLUGIN_FX "' does not export fx_plugin_absent");
	assert_non_null(plugin_symbol(handle, PLUGIN_FX, "fx_plugin_get_api", &err));
	dlclose(handle);
}

static void test_wrong_version(void **state)
{
	(void)state;
	struct plugin_spec spec = fx_spec("fx_plugin_get_api", 1);
	struct plugin_error err;

	assert_null(plugin_load(PLUGIN_FX, &spec, &err));
	assert_int_equal(err.failure, PLUGIN_BAD_VERSION);
	assert_text(&err,
	            "'" PLUGIN_FX "' has no usable fx_plugin_get_api (API version 7, need 1)");
}

static void test_no_table(void **state)
{
	(void)state;
	struct plugin_spec spec = fx_spec("fx_plugin_get_nothing", FX_PLUGIN_VERSION);
	struct plugin_error err;

	assert_null(plugin_load(PLUGIN_FX, &spec, &err));
	assert_int_equal(err.failure, PLUGIN_BAD_VERSION);
	assert_text(&err,
	            "'" PLUGIN_FX "' has no usable fx_plugin_get_nothing (API version 0, need 7)");
}

static void test_beside(void **state)
{
	(void)state;
	struct plugin_spec spec = fx_spec("fx_plugin_get_api", FX_PLUGIN_VERSION);
	struct plugin_error err;
	const void *anchor = (const void *)test_beside;
	char want[8192];
	/* Longer than PATH_MAX, short enough for the message to hold it whole. */
	size_t long_len = 4200;
	char *long_name = malloc(long_len + 1);

	/* Beside this test's executable, where there is no such plugin. */
	spec.file = "no-such-plugin.so";
	assert_null(plugin_load_beside(anchor, &spec, &err));
	assert_int_equal(err.failure, PLUGIN_CANNOT_LOAD);
	assert_int_equal(object_sibling_path(anchor, spec.file, want, sizeof(want)), 0);
	assert_non_null(strstr(err.text, want));

	/* A name that makes the path too long. */
	memset(long_name, 'x', long_len);
	long_name[long_len] = '\0';
	spec.file = long_name;
	assert_null(plugin_load_beside(anchor, &spec, &err));
	assert_int_equal(err.failure, PLUGIN_NO_DIRECTORY);
	snprintf(want, sizeof(want), " beside '%s' is too long", object_path(anchor));
	assert_non_null(strstr(err.text, want));
	assert_int_equal(strncmp(err.text, "the path of xxx", 15), 0);

	/* An address no object holds: nowhere to look. */
	spec.file = "x.so";
	assert_null(plugin_load_beside((const void *)8, &spec, &err));
	assert_int_equal(err.failure, PLUGIN_NO_DIRECTORY);
	assert_text(&err, "cannot find the directory of the test to load x.so");
	free(long_name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_loads_and_checks_version),
	    cmocka_unit_test(test_missing_file),
	    cmocka_unit_test(test_not_an_elf),
	    cmocka_unit_test(test_missing_symbol),
	    cmocka_unit_test(test_wrong_version),
	    cmocka_unit_test(test_no_table),
	    cmocka_unit_test(test_beside),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
