/*
 * The translator's dispatch entry (API v3): one kernel of a code object in memory, the
 * caller's regions written in place, and every error a runtime can hit, with its message and
 * exit code.  The kernel is the suite's saxpy (y = a * x + y) built for gfx1250 at -O2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kernarg.h"
#include "launch_file.h"
#include "mirage/code_object.h"
#include "mirage_translate.h"

#define N 300 /* work-items: a partial last workgroup of 256 */

static const char launch_text[] =
    "{\"code_object\": \"saxpy.co\", \"kernel\": \"saxpy\", \"grid\": [300], \"workgroup\": "
    "[256], \"buffers\": {\"y\": {\"size\": 1200, \"init\": \"random:3\"}, \"x\": {\"size\": "
    "1200, \"init\": \"random:4\"}}, \"args\": [{\"buffer\": \"y\"}, {\"buffer\": \"x\"}, "
    "{\"f32\": 2.5}, {\"u32\": 300}]}";

struct fixture {
	const struct translate_api *api;
	void *code;
	size_t code_size;
	struct code_object *co;
	struct launch_file *lf;
	float y[N], x[N], y0[N];
	uint8_t kernarg[512] __attribute__((aligned(64)));
	struct tr_region regions[2];
	struct tr_dispatch d;
	struct tr_emulate_result out;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char *err = NULL, msg[256];
	uint8_t *bufs[2];
	assert_non_null(f);
	f->api = mirage_translate_api();
	f->code =
	    launch_read_regular(MIRAGE_KERNELS_OUT "/gfx1250/O2/saxpy.co", 1u << 24, &f->code_size);
	assert_non_null(f->code);
	assert_int_equal(co_load_memory(f->code, f->code_size, "saxpy.co", &f->co, &err), 0);
	assert_int_equal(
	    launch_file_parse(launch_text, strlen(launch_text), "t.json", &f->lf, &err), 0);
	launch_random_fill(3, f->y, sizeof(f->y));
	launch_random_fill(4, f->x, sizeof(f->x));
	memcpy(f->y0, f->y, sizeof(f->y));
	bufs[0] = (uint8_t *)f->y;
	bufs[1] = (uint8_t *)f->x;
	assert_true(f->co->kernels[0].kernarg_size <= sizeof(f->kernarg));
	assert_int_equal(
	    kernarg_build(&f->co->kernels[0], f->lf, bufs, f->kernarg, msg, sizeof(msg)), 0);
	f->regions[0] = (struct tr_region){f->y, sizeof(f->y)};
	f->regions[1] = (struct tr_region){f->x, sizeof(f->x)};
	f->d = (struct tr_dispatch){
	    .code = f->code,
	    .code_size = f->code_size,
	    .kernel = "saxpy.kd",
	    .kernarg = f->kernarg,
	    .kernarg_size = sizeof(f->kernarg),
	    .grid = {N, 1, 1},
	    .workgroup = {256, 1, 1},
	    .regions = f->regions,
	    .nregions = 2,
	};
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	f->api->emulate_result_free(&f->out);
	co_free(f->co);
	launch_file_free(f->lf);
	free(f->code);
	free(f);
	return 0;
}

/* Runs the fixture's dispatch; asserts the exit code and that the message contains want. */
static void expect(struct fixture *f, int exit_code, const char *want)
{
	int rc = f->api->dispatch(&f->d, &f->out);
	assert_int_equal(f->out.exit_code, exit_code);
	assert_int_equal(rc, exit_code ? -1 : 0);
	if (want) {
		assert_non_null(f->out.message);
		if (!strstr(f->out.message, want))
			fail_msg("message '%s' lacks '%s'", f->out.message, want);
	} else {
		assert_null(f->out.message);
	}
}

static void results_in_place(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(f->api->version, TRANSLATE_API_VERSION);
	expect(f, 0, NULL);
	for (int i = 0; i < N; i++) {
		float want = 2.5f * f->x[i] + f->y0[i];
		if (memcmp(&want, &f->y[i], 4) && !(want != want && f->y[i] != f->y[i]))
			fail_msg("y[%d] = %a, want %a", i, (double)f->y[i], (double)want);
	}
	assert_int_equal(f->out.workgroups, 2);
}

static void shuffled_same_bytes(void **state)
{
	struct fixture *f = *state;
	float first[N];
	expect(f, 0, NULL);
	memcpy(first, f->y, sizeof(first));
	memcpy(f->y, f->y0, sizeof(f->y));
	f->api->emulate_result_free(&f->out);
	f->d.schedule = "shuffle:99";
	expect(f, 0, NULL);
	assert_memory_equal(first, f->y, sizeof(first));
}

static void unknown_kernel(void **state)
{
	struct fixture *f = *state;
	f->d.kernel = "nosuch";
	expect(f, 2, "kernel: 'nosuch' is not a kernel of the dispatched code object");
	assert_memory_equal(f->y, f->y0, sizeof(f->y)); /* nothing ran */
}

static void overlapping_regions(void **state)
{
	struct fixture *f = *state;
	char want[160];
	f->regions[1] = (struct tr_region){&f->y[N / 2], sizeof(float) * N};
	snprintf(want, sizeof(want),
	         "regions[1] (%p, 1200 bytes) overlaps regions[0] (%p, 1200 bytes)",
	         (void *)&f->y[N / 2], (void *)f->y);
	expect(f, 2, want);
}

static void empty_region(void **state)
{
	struct fixture *f = *state;
	f->regions[1].size = 0;
	expect(f, 2, "regions[1]: ");
	assert_non_null(strstr(f->out.message, ", 0 bytes is not a memory range"));
}

static void fault_outside_regions(void **state)
{
	struct fixture *f = *state;
	char want[160];
	f->d.nregions = 1; /* x is not the kernel's to read */
	snprintf(want, sizeof(want), "-byte access at %p is outside every buffer of the launch",
	         (void *)f->x);
	expect(f, 1, "kernel saxpy: instruction at 0x");
	assert_non_null(strstr(f->out.message, want));
	assert_true(f->out.fault_offset > 0);
}

static void short_kernarg(void **state)
{
	struct fixture *f = *state;
	char want[128];
	f->d.kernarg_size = 16;
	snprintf(want, sizeof(want),
	         "kernarg: 16 bytes given, kernel saxpy's kernarg segment is %u",
	         f->co->kernels[0].kernarg_size);
	expect(f, 2, want);
}

static void group_segment_too_large(void **state)
{
	struct fixture *f = *state;
	f->d.group_segment_size = 400 * 1024;
	expect(f, 2,
	       "group_segment_size: 409600 bytes, kernel saxpy needs 0 to 327680 (its static LDS "
	       "to gfx1250's 320 KiB)");
}

static void empty_grid(void **state)
{
	struct fixture *f = *state;
	f->d.grid[1] = 0;
	expect(f, 2, "grid_size_y: 0 work-items (every dimension needs at least 1)");
}

static void workgroup_too_large(void **state)
{
	struct fixture *f = *state;
	f->d.workgroup[1] = 8;
	expect(f, 2, "workgroup_size: 2048 work-items, more than the 1024 a dispatch may have");
}

static void grid_too_large(void **state)
{
	struct fixture *f = *state;
	f->d.grid[0] = f->d.grid[1] = f->d.grid[2] = 0xffffffffu; /* no overflow on the way */
	expect(f, 2,
	       "grid_size: 18446744065119617025 work-items, more than the 4294967296 a dispatch "
	       "may have");
}

static void bad_schedule(void **state)
{
	struct fixture *f = *state;
	f->d.schedule = "sideways";
	expect(f, 2, "schedule: 'sideways' is neither 'deterministic' nor 'shuffle:SEED'");
}

static void not_a_code_object(void **state)
{
	struct fixture *f = *state;
	static const char junk[64] = "not an ELF";
	f->d.code = junk;
	f->d.code_size = sizeof(junk);
	expect(f, 2, "the dispatched code object: ");
	f->api->emulate_result_free(&f->out);
	f->d.code = NULL;
	expect(f, 2, "code: no code object given");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(results_in_place, setup, teardown),
	    cmocka_unit_test_setup_teardown(shuffled_same_bytes, setup, teardown),
	    cmocka_unit_test_setup_teardown(unknown_kernel, setup, teardown),
	    cmocka_unit_test_setup_teardown(overlapping_regions, setup, teardown),
	    cmocka_unit_test_setup_teardown(empty_region, setup, teardown),
	    cmocka_unit_test_setup_teardown(fault_outside_regions, setup, teardown),
	    cmocka_unit_test_setup_teardown(short_kernarg, setup, teardown),
	    cmocka_unit_test_setup_teardown(group_segment_too_large, setup, teardown),
	    cmocka_unit_test_setup_teardown(empty_grid, setup, teardown),
	    cmocka_unit_test_setup_teardown(workgroup_too_large, setup, teardown),
	    cmocka_unit_test_setup_teardown(grid_too_large, setup, teardown),
	    cmocka_unit_test_setup_teardown(bad_schedule, setup, teardown),
	    cmocka_unit_test_setup_teardown(not_a_code_object, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
