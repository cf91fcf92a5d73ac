/* The once-only plugin load (plugin_slot.h) against the stand-in plugin: one load however many
 * callers and threads, the answer kept (a failure too), a look that never loads; and
 * plugin_function, the one lookup of a function into its pointer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "plugin.h"
#include "plugin_slot.h"
#include "test_plugin_fixture.h"

PLUGIN_ENTRY_CALLER(call_fx_entry, fx_plugin_get_api_fn)

static const struct plugin_spec fx_spec = {.file = "libtest_plugin_fixture.so",
                                           .owner = "the test",
                                           .entry = "fx_plugin_get_api",
                                           .version = FX_PLUGIN_VERSION,
                                           .call_entry = call_fx_entry};

static atomic_int loads;

/* Loads the path arg names, slowly enough for the threads to meet at the slot. */
static const void *load_fx(struct plugin_error *err, const void *arg)
{
	atomic_fetch_add(&loads, 1);
	nanosleep(&(struct timespec){.tv_nsec = 20 * 1000 * 1000}, NULL);
	return plugin_load(arg, &fx_spec, err);
}

/* A load of the caller's own that fails with its own words. */
static const void *load_refused(struct plugin_error *err, const void *arg)
{
	(void)arg;
	atomic_fetch_add(&loads, 1);
	snprintf(err->text, sizeof(err->text), "refused, attempt %d", atomic_load(&loads));
	return NULL;
}

/* Writes a message on its way to success: the kept answer has no error. */
static const void *load_after_a_miss(struct plugin_error *err, const void *arg)
{
	snprintf(err->text, sizeof(err->text), "first place: nothing there");
	err->failure = PLUGIN_CANNOT_LOAD;
	return arg;
}

static void test_loads_once(void **state)
{
	(void)state;
	struct plugin_slot slot = PLUGIN_SLOT_INIT;
	const struct fx_plugin_api *api;

	atomic_store(&loads, 0);
	assert_null(plugin_slot_loaded(&slot)); /* looking never loads */
	assert_int_equal(atomic_load(&loads), 0);
	api = plugin_slot_get(&slot, load_fx, PLUGIN_FX);
	assert_non_null(api);
	assert_int_equal(api->magic, FX_PLUGIN_MAGIC);
	assert_ptr_equal(plugin_slot_get(&slot, load_fx, PLUGIN_FX), api);
	assert_ptr_equal(plugin_slot_get(&slot, load_fx, "another path, never looked at"), api);
	assert_ptr_equal(plugin_slot_loaded(&slot), api);
	assert_int_equal(atomic_load(&loads), 1);
	assert_int_equal(slot.error.failure, PLUGIN_OK);
	assert_string_equal(slot.error.text, "");
}

static void test_failure_is_kept(void **state)
{
	(void)state;
	struct plugin_slot slot = PLUGIN_SLOT_INIT, own = PLUGIN_SLOT_INIT;

	atomic_store(&loads, 0);
	assert_null(plugin_slot_get(&slot, load_fx, PLUGIN_FX_DIR "/no-such-plugin.so"));
	assert_int_equal(slot.error.failure, PLUGIN_CANNOT_LOAD);
	assert_non_null(strstr(slot.error.text, "no-such-plugin.so"));
	/* Not tried again, even where it would now work: the same answer for the process. */
	assert_null(plugin_slot_get(&slot, load_fx, PLUGIN_FX));
	assert_null(plugin_slot_loaded(&slot));
	assert_int_equal(atomic_load(&loads), 1);
	assert_non_null(strstr(slot.error.text, "no-such-plugin.so"));

	/* A load's own message is kept as it wrote it. */
	assert_null(plugin_slot_get(&own, load_refused, NULL));
	assert_null(plugin_slot_get(&own, load_refused, NULL));
	assert_string_equal(own.error.text, "refused, attempt 2");
	assert_int_equal(atomic_load(&loads), 2);
}

static void test_success_clears_error(void **state)
{
	(void)state;
	struct plugin_slot slot = PLUGIN_SLOT_INIT;
	static const int table = 1;

	assert_ptr_equal(plugin_slot_get(&slot, load_after_a_miss, &table), &table);
	assert_int_equal(slot.error.failure, PLUGIN_OK);
	assert_string_equal(slot.error.text, "");
}

static struct plugin_slot shared = PLUGIN_SLOT_INIT;

static void *ask(void *arg)
{
	(void)arg;
	return (void *)plugin_slot_get(&shared, load_fx, PLUGIN_FX);
}

static void test_threads_share_one_load(void **state)
{
	(void)state;
	pthread_t threads[8];
	void *got[8];

	atomic_store(&loads, 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(pthread_create(&threads[i], NULL, ask, NULL), 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(pthread_join(threads[i], &got[i]), 0);
	assert_int_equal(atomic_load(&loads), 1);
	assert_non_null(got[0]);
	for (int i = 1; i < 8; i++)
		assert_ptr_equal(got[i], got[0]);
}

static void test_function(void **state)
{
	(void)state;
	struct plugin_error err = {0};
	fx_plugin_get_api_fn get = NULL;
	void *handle = plugin_open(PLUGIN_FX, 0, &err);

	assert_non_null(handle);
	assert_int_equal(
	    plugin_function(handle, PLUGIN_FX, "fx_plugin_get_api", &get, sizeof(get), &err), 0);
	assert_non_null(get);
	assert_int_equal(get()->magic, FX_PLUGIN_MAGIC);

	/* Absent: the pointer is cleared, and err says so as plugin_symbol does. */
	assert_int_equal(
	    plugin_function(handle, PLUGIN_FX, "fx_plugin_absent", &get, sizeof(get), &err), -1);
	assert_null(get);
	assert_int_equal(err.failure, PLUGIN_NO_SYMBOL);
	assert_string_equal(err.text, "'" PLUGIN_FX "' does not export fx_plugin_absent");

	/* Optional (err NULL): dlerror() is left to say why. */
	get = (fx_plugin_get_api_fn)1;
	assert_int_equal(
	    plugin_function(handle, PLUGIN_FX, "fx_plugin_absent", &get, sizeof(get), NULL), -1);
	assert_null(get);
	assert_non_null(strstr(dlerror(), "fx_plugin_absent"));
	dlclose(handle);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_loads_once),
	    cmocka_unit_test(test_failure_is_kept),
	    cmocka_unit_test(test_success_clears_error),
	    cmocka_unit_test(test_threads_share_one_load),
	    cmocka_unit_test(test_function),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
