/* The CPU runner with hand-written lane functions: lockstep rendezvous, barriers across waves,
 * convergence violations reported (never a hang), memory checks, shuffled schedules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "runner.h"

typedef uint32_t (*u32_fn)(void);
typedef uint32_t (*u32_u32_fn)(uint32_t);
typedef uint32_t (*ballot_fn)(uint32_t, uint32_t);
typedef uint32_t (*readlane_fn)(uint32_t, uint32_t, uint32_t);
typedef void (*barrier_fn)(uint32_t);
typedef void *(*mem_fn)(uint64_t, uint32_t, uint32_t);
typedef void *(*lds_fn)(uint32_t, uint32_t, uint32_t);

#define HOOK(type, name) ((type)runner_hook_address(name))

static uint32_t out[256];

static uint32_t flat_id(void)
{
	uint32_t tid = HOOK(u32_fn, "mx.packed_workitem_id")();
	return (tid & 0x3ff) + 64 * HOOK(u32_u32_fn, "mx.workgroup_id")(0);
}

/* Each lane stores how many lanes of its wave have an odd id below 40, and lane 3's id. */
static void lane_ballot(void)
{
	uint32_t id = flat_id(), m, l3;
	m = HOOK(ballot_fn, "mx.ballot")((id & 1) && id < 40, 0x100);
	l3 = HOOK(readlane_fn, "mx.readlane")(id, 3, 0x104);
	uint32_t *p = HOOK(mem_fn, "mx.global")((uint64_t)(uintptr_t)&out[id], 4, 0x108);
	if ((HOOK(u32_fn, "mx.entry_exec")() >> HOOK(u32_fn, "mx.lane_id")()) & 1)
		*p = (uint32_t)__builtin_popcount(m) << 16 | l3;
}

static struct run_region region = {"out", (uint8_t *)out, sizeof(out)};

static struct run_config config(void (*entry)(void), uint32_t grid, uint32_t wg)
{
	struct run_config c = {.entry = entry,
	                       .grid = {grid, 1, 1},
	                       .wg = {wg, 1, 1},
	                       .lds_bytes = 256,
	                       .scratch_bytes = 16,
	                       .regions = &region,
	                       .nregions = 1};
	return c;
}

static void test_ballot_readlane(void **state)
{
	struct run_config c = config(lane_ballot, 100, 64);
	struct run_report rep;
	(void)state;
	memset(out, 0xff, sizeof(out));
	assert_int_equal(runner_run(&c, &rep), 0);
	assert_int_equal(rep.workgroups, 2);
	assert_int_equal(rep.waves, 4); /* 64 + 36 items: 2 + 2 waves */
	for (uint32_t id = 0; id < 100; id++) {
		uint32_t wave_base = id & ~31u, odd = 0;
		for (uint32_t j = wave_base; j < wave_base + 32; j++)
			odd += (j & 1) && j < 40 && j < 100;
		assert_int_equal(out[id], odd << 16 | (wave_base + 3));
	}
	assert_int_equal(out[100],
	                 0xffffffffu); /* the partial wave's inactive lanes stored nothing */
}

/* Wave 0 writes LDS, everyone waits at the barrier, wave 1 reads what wave 0 wrote. */
static void lane_barrier(void)
{
	uint32_t id = flat_id(), lane = HOOK(u32_fn, "mx.lane_id")();
	uint32_t *lds = HOOK(lds_fn, "mx.lds")(4 * (id % 64), 4, 0x200);
	*lds = id * 3;
	HOOK(barrier_fn, "mx.barrier")(0x204);
	lds = HOOK(lds_fn, "mx.lds")(4 * ((id + 32) % 64), 4, 0x208);
	out[id] = *lds + lane * 0;
}

static void test_barrier(void **state)
{
	struct run_config c = config(lane_barrier, 128, 64);
	struct run_report rep;
	(void)state;
	for (int seed = 0; seed < 3; seed++) {
		memset(out, 0, sizeof(out));
		c.shuffle = seed;
		c.seed = (uint64_t)seed * 7919;
		assert_int_equal(runner_run(&c, &rep), 0);
		for (uint32_t id = 0; id < 128; id++)
			assert_int_equal(out[id], ((id & ~63u) + (id + 32) % 64) * 3);
	}
}

/* Lane 5 takes another path to its ballot: a convergence violation, reported, no hang. */
static void lane_diverge(void)
{
	uint32_t lane = HOOK(u32_fn, "mx.lane_id")();
	HOOK(ballot_fn, "mx.ballot")(1, lane == 5 ? 0x304 : 0x300);
}

static void test_convergence_violation(void **state)
{
	struct run_config c = config(lane_diverge, 32, 32);
	struct run_report rep;
	(void)state;
	assert_int_equal(runner_run(&c, &rep), -1);
	assert_int_equal(rep.status, RUN_CONVERGENCE);
	assert_non_null(strstr(
	    rep.message, "lane 5 is at ballot site 0xc1 while lane 0 is at ballot site 0xc0"));
}

/* Half the lanes finish while the others wait at a barrier. */
static void lane_early_exit(void)
{
	if (HOOK(u32_fn, "mx.lane_id")() < 16)
		return;
	HOOK(barrier_fn, "mx.barrier")(0x400);
}

static void test_lanes_finish_apart(void **state)
{
	struct run_config c = config(lane_early_exit, 32, 32);
	struct run_report rep;
	(void)state;
	assert_int_equal(runner_run(&c, &rep), -1);
	assert_int_equal(rep.status, RUN_CONVERGENCE);
	assert_non_null(strstr(rep.message, "16 lanes finished while the others wait at barrier"));
}

/* Lane 7 stores one element past the buffer. */
static void lane_oob(void)
{
	uint32_t lane = HOOK(u32_fn, "mx.lane_id")();
	uint32_t *p =
	    HOOK(mem_fn, "mx.global")((uint64_t)(uintptr_t)&out[lane == 7 ? 256 : lane], 4, 0x1234);
	*p = 1;
}

static void test_out_of_bounds(void **state)
{
	struct run_config c = config(lane_oob, 32, 32);
	struct run_report rep;
	(void)state;
	assert_int_equal(runner_run(&c, &rep), -1);
	assert_int_equal(rep.status, RUN_FAULT);
	assert_int_equal(rep.fault_offset, 0x1234);
	assert_non_null(strstr(rep.message, "instruction at 0x1234: 4-byte access at 0x"));
}

static void lane_lds_oob(void)
{
	HOOK(lds_fn, "mx.lds")(254, 4, 0x99);
}

static void test_lds_bounds(void **state)
{
	struct run_config c = config(lane_lds_oob, 32, 32);
	struct run_report rep;
	(void)state;
	assert_int_equal(runner_run(&c, &rep), -1);
	assert_non_null(
	    strstr(rep.message, "4-byte LDS access at 0xfe is outside the workgroup's 256 bytes"));
}

static void test_hook_table(void **state)
{
	(void)state;
	assert_non_null(runner_hook_address("mx.ballot"));
	assert_null(runner_hook_address("mx.nosuch"));
	assert_null(runner_hook_address("llvm.amdgcn.ballot"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ballot_readlane),
	    cmocka_unit_test(test_barrier),
	    cmocka_unit_test(test_convergence_violation),
	    cmocka_unit_test(test_lanes_finish_apart),
	    cmocka_unit_test(test_out_of_bounds),
	    cmocka_unit_test(test_lds_bounds),
	    cmocka_unit_test(test_hook_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
