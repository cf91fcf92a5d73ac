/* The kernarg segment a launch builds: explicit arguments at their metadata offsets, and the
 * code-object-v5 hidden block as HIP lays it out (block counts, group sizes, remainders). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernarg.h"

static const char launch_text[] =
    "{\"code_object\": \"k.co\", \"kernel\": \"k\", \"grid\": [1000, 6, 1],"
    " \"workgroup\": [256, 4, 1], \"dynamic_lds\": 512,"
    " \"buffers\": {\"a\": {\"size\": 64, \"init\": \"zero\"}},"
    " \"args\": [{\"buffer\": \"a\", \"offset\": 16}, {\"u32\": 7}]}";

static struct co_arg args[] = {
    {.name = "a", .value_kind = "global_buffer", .offset = 0, .size = 8},
    {.name = "n", .value_kind = "by_value", .offset = 8, .size = 4},
    {.value_kind = "hidden_block_count_x", .offset = 16, .size = 4, .hidden = 1},
    {.value_kind = "hidden_block_count_y", .offset = 20, .size = 4, .hidden = 1},
    {.value_kind = "hidden_group_size_x", .offset = 28, .size = 2, .hidden = 1},
    {.value_kind = "hidden_group_size_y", .offset = 30, .size = 2, .hidden = 1},
    {.value_kind = "hidden_remainder_x", .offset = 34, .size = 2, .hidden = 1},
    {.value_kind = "hidden_remainder_y", .offset = 36, .size = 2, .hidden = 1},
    {.value_kind = "hidden_global_offset_x", .offset = 56, .size = 8, .hidden = 1},
    {.value_kind = "hidden_grid_dims", .offset = 80, .size = 2, .hidden = 1},
    {.value_kind = "hidden_dynamic_lds_size", .offset = 136, .size = 4, .hidden = 1},
};

static uint64_t le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void test_layout(void **state)
{
	struct co_kernel k = {.name = "k",
	                      .kernarg_size = 144,
	                      .args = args,
	                      .nargs = sizeof(args) / sizeof(args[0])};
	struct launch_file *lf;
	uint8_t buf[64] __attribute__((aligned(8))), ka[144];
	uint8_t *bufs[1] = {buf};
	char *err = NULL, msg[256];
	(void)state;
	assert_int_equal(launch_file_parse(launch_text, strlen(launch_text), "l.json", &lf, &err),
	                 0);
	memset(ka, 0, sizeof(ka));
	assert_int_equal(kernarg_build(&k, lf, bufs, ka, msg, sizeof(msg)), 0);
	assert_int_equal(le(ka + 0, 8), (uint64_t)(uintptr_t)(buf + 16));
	assert_int_equal(le(ka + 8, 4), 7);
	assert_int_equal(le(ka + 16, 4), 3); /* 1000 / 256 full workgroups */
	assert_int_equal(le(ka + 20, 4), 1); /* 6 / 4 */
	assert_int_equal(le(ka + 28, 2), 256);
	assert_int_equal(le(ka + 30, 2), 4);
	assert_int_equal(le(ka + 34, 2), 232); /* 1000 % 256 */
	assert_int_equal(le(ka + 36, 2), 2);
	assert_int_equal(le(ka + 56, 8), 0); /* no global offset, as HIP */
	assert_int_equal(le(ka + 80, 2), 2);
	assert_int_equal(le(ka + 136, 4), 512);
	launch_file_free(lf);
}

static void test_argument_errors(void **state)
{
	struct co_kernel k = {.name = "k", .kernarg_size = 144, .args = args, .nargs = 2};
	struct launch_file *lf;
	uint8_t buf[64], ka[144] = {0};
	uint8_t *bufs[1] = {buf};
	char *err = NULL, msg[256];
	static const char swapped[] =
	    "{\"code_object\": \"k.co\", \"kernel\": \"k\", \"grid\": [1], \"workgroup\": [1],"
	    " \"buffers\": {\"a\": {\"size\": 64, \"init\": \"zero\"}},"
	    " \"args\": [{\"u32\": 7}, {\"buffer\": \"a\"}]}";
	static const char wide[] =
	    "{\"code_object\": \"k.co\", \"kernel\": \"k\", \"grid\": [1], \"workgroup\": [1],"
	    " \"buffers\": {\"a\": {\"size\": 64, \"init\": \"zero\"}},"
	    " \"args\": [{\"i64\": 0}, {\"u32\": 7}]}";
	static const char narrow[] =
	    "{\"code_object\": \"k.co\", \"kernel\": \"k\", \"grid\": [1], \"workgroup\": [1],"
	    " \"buffers\": {\"a\": {\"size\": 64, \"init\": \"zero\"}},"
	    " \"args\": [{\"buffer\": \"a\"}, {\"i64\": 7}]}";
	(void)state;
	assert_int_equal(launch_file_parse(swapped, strlen(swapped), "l.json", &lf, &err), 0);
	assert_int_equal(kernarg_build(&k, lf, bufs, ka, msg, sizeof(msg)), -2);
	assert_string_equal(msg, "args[0]: kernel argument 'a' is a buffer, the launch gives a "
	                         "4-byte value (name a buffer: {\"buffer\": NAME})");
	launch_file_free(lf);
	/* a pointer's size: still a value, never taken for the buffer it does not name */
	assert_int_equal(launch_file_parse(wide, strlen(wide), "l.json", &lf, &err), 0);
	assert_int_equal(kernarg_build(&k, lf, bufs, ka, msg, sizeof(msg)), -2);
	assert_string_equal(msg, "args[0]: kernel argument 'a' is a buffer, the launch gives a "
	                         "8-byte value (name a buffer: {\"buffer\": NAME})");
	launch_file_free(lf);
	assert_int_equal(launch_file_parse(narrow, strlen(narrow), "l.json", &lf, &err), 0);
	assert_int_equal(kernarg_build(&k, lf, bufs, ka, msg, sizeof(msg)), -2);
	assert_string_equal(msg, "args[1]: kernel argument 'n' is 4 bytes, the launch gives 8");
	launch_file_free(lf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layout),
	    cmocka_unit_test(test_argument_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
