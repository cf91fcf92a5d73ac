/* Loading mirage's own modules beside bin/mirage (launcher/module_dl.h): the path from the
 * running mirage's, a good load, each failure's message and hint, and the answer kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sys/stat.h>
#include <unistd.h>

#include "module_dl.h"
#include "test_plugin_fixture.h"

PLUGIN_ENTRY_CALLER(call_fx_entry, fx_plugin_get_api_fn)

#define FX_FILE "libtest_plugin_fixture.so"

/* <prefix>/bin/mirage, with the stand-in at <prefix>/lib/mirage/FX_FILE. */
static char prefix[] = "/tmp/mirage-module-dl-XXXXXX";
static char exe[128], lib_dir[128], module[192];

static struct plugin_spec spec(uint32_t version)
{
	return (struct plugin_spec){.file = FX_FILE,
	                            .entry = "fx_plugin_get_api",
	                            .version = version,
	                            .call_entry = call_fx_entry};
}

static int setup(void **state)
{
	char dir[160];

	(void)state;
	if (!mkdtemp(prefix))
		return -1;
	snprintf(exe, sizeof(exe), "%s/bin/mirage", prefix);
	snprintf(dir, sizeof(dir), "%s/lib", prefix);
	snprintf(lib_dir, sizeof(lib_dir), "%s/lib/mirage", prefix);
	snprintf(module, sizeof(module), "%s/" FX_FILE, lib_dir);
	return mkdir(dir, 0755) || mkdir(lib_dir, 0755) || symlink(PLUGIN_FX, module);
}

static int teardown(void **state)
{
	char dir[160];

	(void)state;
	unlink(module);
	rmdir(lib_dir);
	snprintf(dir, sizeof(dir), "%s/lib", prefix);
	rmdir(dir);
	return rmdir(prefix);
}

static void test_path(void **state)
{
	(void)state;
	char *p = module_dl_path("/usr/bin/mirage", "m.so");

	assert_string_equal(p, "/usr/lib/mirage/m.so");
	free(p);
	p = module_dl_path("/mirage", "m.so"); /* at the root: no bin directory to leave */
	assert_string_equal(p, "/lib/mirage/m.so");
	free(p);
	assert_null(module_dl_path("mirage", "m.so"));
	assert_null(module_dl_path(NULL, "m.so"));
}

static void test_loads(void **state)
{
	(void)state;
	struct plugin_slot slot = PLUGIN_SLOT_INIT;
	struct plugin_spec good = spec(FX_PLUGIN_VERSION);
	struct diag err = DIAG_INIT;
	const struct fx_plugin_api *api = module_dl_load(&slot, &good, exe, &err);

	assert_non_null(api);
	assert_int_equal(api->magic, FX_PLUGIN_MAGIC);
	assert_int_equal(err.msg.len, 0);
	/* Kept: the second call is the first's answer, whatever it is given. */
	assert_ptr_equal(module_dl_load(&slot, &good, NULL, &err), api);
	diag_release(&err);
}

static void expect(const struct diag *err, const char *msg, const char *hint)
{
	assert_string_equal(err->msg.buf, msg);
	assert_string_equal(err->hint.buf, hint);
}

#define FIX                                                                                        \
	"reinstall mirage, or rebuild it (`cmake --build`) so that lib/mirage/" FX_FILE            \
	" lies beside bin/mirage"

static void test_failures(void **state)
{
	(void)state;
	struct plugin_slot unknown = PLUGIN_SLOT_INIT, missing = PLUGIN_SLOT_INIT,
	                   other = PLUGIN_SLOT_INIT;
	struct plugin_spec good = spec(FX_PLUGIN_VERSION), old = spec(1);
	struct diag err = DIAG_INIT;
	char bare[160], msg[512];

	/* No path to start from. */
	assert_null(module_dl_load(&unknown, &good, NULL, &err));
	expect(&err,
	       "cannot find " FX_FILE ": the path of the running mirage is unknown (is /proc "
	       "mounted?)",
	       "mirage's installation is incomplete: " FIX);

	/* Not installed: a mirage whose prefix has no lib/mirage. */
	snprintf(bare, sizeof(bare), "%s/lib/mirage/bin/mirage", prefix);
	assert_null(module_dl_load(&missing, &good, bare, &err));
	snprintf(msg, sizeof(msg),
	         "cannot load '%s/lib/mirage/lib/mirage/" FX_FILE
	         "': cannot open shared object file: No such file or directory",
	         prefix);
	expect(&err, msg, "mirage's installation is incomplete: " FIX);
	/* Asked again, the same answer: nothing is tried twice. */
	diag_release(&err);
	assert_null(module_dl_load(&missing, &good, exe, &err));
	expect(&err, msg, "mirage's installation is incomplete: " FIX);

	/* There, but of another build. */
	assert_null(module_dl_load(&other, &old, exe, &err));
	snprintf(msg, sizeof(msg), "'%s' has no usable fx_plugin_get_api (API version %d, need 1)",
	         module, FX_PLUGIN_VERSION);
	expect(&err, msg, "it belongs to another mirage build: " FIX);
	diag_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_path),
	    cmocka_unit_test(test_loads),
	    cmocka_unit_test(test_failures),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
