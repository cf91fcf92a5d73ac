/* KFD sysfs parsing on fixture topologies written by the test, and *_VISIBLE_DEVICES. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hotswap_contract.h"
#include "kfd.h"
#include "strbuf.h"
#include "test_discovery_util.h"

#include <stdlib.h>
#include <string.h>

#define NODES "class/kfd/kfd/topology/nodes"

/* A node's properties as the kernel prints them (a subset plus noise keys it also prints). */
static void node(const char *sysfs, unsigned n, uint32_t version, uint32_t asic_rev,
                 uint64_t unique_id)
{
	char *rel = xstrfmt(NODES "/%u/properties", n);
	char *text = xstrfmt("cpu_cores_count %u\nsimd_count %u\nmem_banks_count 1\n"
	                     "gfx_target_version %u\nvendor_id 4098\ndevice_id %u\n"
	                     "location_id %u\ndrm_render_minor %u\ncapability %u\n"
	                     "unique_id %llu\nmax_engine_clk_fccompute 2100\n",
	                     version ? 0 : 64, version ? 304 : 0, version, version ? 29856 : 0,
	                     version ? 256 * n : 0, version ? 127 + n : 0,
	                     (asic_rev << 22) | 0x00088000u, (unsigned long long)unique_id);
	tu_write(sysfs, rel, text, 0644);
	free(rel);
	free(text);
}

struct fixture {
	char *sysfs;
	struct kfd_gpus gpus;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->sysfs = tu_mkdtemp();
	f->gpus = (struct kfd_gpus)KFD_GPUS_INIT;
	unsetenv("ROCR_VISIBLE_DEVICES");
	unsetenv("HIP_VISIBLE_DEVICES");
	unsetenv(MIRAGE_ENV_SYSFS_ROOT);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	kfd_gpus_release(&f->gpus);
	tu_rmtree(f->sysfs);
	free(f->sysfs);
	free(f);
	return 0;
}

static void test_no_kfd(void **state)
{
	struct fixture *f = *state;
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_false(f->gpus.kfd_present);
	assert_int_equal(f->gpus.nr, 0);
	assert_int_equal(f->gpus.nvisible, 0);
	assert_int_equal(f->gpus.warnings.nr, 0);
}

static void test_cpu_only(void **state)
{
	struct fixture *f = *state;
	node(f->sysfs, 0, 0, 0, 0);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_true(f->gpus.kfd_present);
	assert_int_equal(f->gpus.nr, 0);
	assert_int_equal(f->gpus.warnings.nr, 0);
}

static void test_one_gfx942(void **state)
{
	struct fixture *f = *state;
	node(f->sysfs, 0, 0, 0, 0);
	node(f->sysfs, 1, 90402, 1, 0x1234abcdULL);
	/* MIRAGE_SYSFS_ROOT replaces /sys when no root is passed. */
	setenv(MIRAGE_ENV_SYSFS_ROOT, f->sysfs, 1);
	assert_int_equal(kfd_scan(NULL, &f->gpus), 0);
	assert_int_equal(f->gpus.nr, 1);
	const struct kfd_gpu *g = &f->gpus.gpu[0];
	assert_int_equal(g->index, 0);
	assert_int_equal(g->node, 1);
	assert_string_equal(g->gfx, "gfx942");
	assert_non_null(g->info);
	assert_string_equal(g->info->name, "gfx942");
	assert_int_equal(g->asic_revision, 1);
	assert_int_equal(g->device_id, 29856);
	assert_int_equal(g->location_id, 256);
	assert_int_equal(g->drm_render_minor, 128);
	assert_int_equal(g->simd_count, 304);
	assert_int_equal(g->unique_id, 0x1234abcdULL);
	assert_int_equal(g->visible_rank, 0);
	assert_null(kfd_gpu_stepping(g));
	char *dir = xstrfmt("%s/" NODES, f->sysfs);
	assert_string_equal(f->gpus.nodes_dir, dir);
	free(dir);
}

static void test_gfx942_gfx950(void **state)
{
	struct fixture *f = *state;
	node(f->sysfs, 0, 0, 0, 0);
	node(f->sysfs, 1, 90402, 0, 11);
	node(f->sysfs, 2, 90500, 0, 22);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_int_equal(f->gpus.nr, 2);
	assert_string_equal(f->gpus.gpu[0].gfx, "gfx942");
	assert_string_equal(f->gpus.gpu[1].gfx, "gfx950");
	assert_int_equal(f->gpus.gpu[1].index, 1);
	assert_int_equal(f->gpus.nvisible, 2);
	assert_null(f->gpus.visible_var);
}

static void test_gfx1250_steppings(void **state)
{
	struct fixture *f = *state;
	node(f->sysfs, 0, 0, 0, 0);
	node(f->sysfs, 1, 120500, 0, 0);
	node(f->sysfs, 2, 120500, 1, 0);
	node(f->sysfs, 3, 120500, 2, 0);
	node(f->sysfs, 4, 120501, 0, 0);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_int_equal(f->gpus.nr, 4);
	assert_string_equal(f->gpus.gpu[0].gfx, "gfx1250");
	assert_int_equal(f->gpus.gpu[0].asic_revision, 0);
	assert_string_equal(kfd_gpu_stepping(&f->gpus.gpu[0]), "A0");
	assert_int_equal(f->gpus.gpu[1].asic_revision, 1);
	assert_string_equal(kfd_gpu_stepping(&f->gpus.gpu[1]), "B0");
	/* As the intercept decides: a later revision runs B0 code, and only gfx1250 has an A0. */
	assert_string_equal(kfd_gpu_stepping(&f->gpus.gpu[2]), "B0");
	assert_string_equal(f->gpus.gpu[3].gfx, "gfx1251");
	assert_string_equal(kfd_gpu_stepping(&f->gpus.gpu[3]), "B0");
}

/* Nodes are numbers: 10 comes after 2, not between 1 and 2. */
static void test_numeric_node_order(void **state)
{
	struct fixture *f = *state;
	node(f->sysfs, 10, 90500, 0, 0);
	node(f->sysfs, 2, 90402, 0, 0);
	tu_write(f->sysfs, NODES "/not-a-node/properties", "garbage\n", 0644);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_int_equal(f->gpus.nr, 2);
	assert_int_equal(f->gpus.gpu[0].node, 2);
	assert_int_equal(f->gpus.gpu[1].node, 10);
	assert_int_equal(f->gpus.warnings.nr, 0);
}

static void test_unknown_gfx(void **state)
{
	struct fixture *f = *state;
	node(f->sysfs, 1, 90010, 0, 0);
	node(f->sysfs, 2, 130000, 0, 0);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_string_equal(f->gpus.gpu[0].gfx, "gfx90a");
	assert_non_null(f->gpus.gpu[0].info);
	assert_string_equal(f->gpus.gpu[1].gfx, "gfx1300");
	assert_null(f->gpus.gpu[1].info);
}

static void test_malformed(void **state)
{
	struct fixture *f = *state;
	node(f->sysfs, 1, 90402, 0, 0);
	tu_write(f->sysfs, NODES "/2/properties", "simd_count 304\ngfx_target_version 9O500\n",
	         0644);
	tu_write(f->sysfs, NODES "/3/properties", "simd_count 304\n\ndevice_id\n", 0644);
	tu_write(f->sysfs, NODES "/4/properties", "simd_count 304\n", 0644);
	node(f->sysfs, 5, 90500, 0, 0);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_int_equal(f->gpus.nr, 2);
	assert_string_equal(f->gpus.gpu[0].gfx, "gfx942");
	assert_string_equal(f->gpus.gpu[1].gfx, "gfx950");
	assert_int_equal(f->gpus.gpu[1].index, 1);
	assert_int_equal(f->gpus.warnings.nr, 3);
	char *w = xstrfmt("%s/" NODES "/2/properties:2: malformed line 'gfx_target_version 9O500' "
	                  "(expected 'key <decimal>'); node skipped",
	                  f->sysfs);
	assert_string_equal(f->gpus.warnings.v[0], w);
	free(w);
	w = xstrfmt("%s/" NODES "/3/properties:3: malformed line 'device_id' (expected 'key "
	            "<decimal>'); node skipped",
	            f->sysfs);
	assert_string_equal(f->gpus.warnings.v[1], w);
	free(w);
	w = xstrfmt("%s/" NODES "/4/properties: no gfx_target_version line; node skipped",
	            f->sysfs);
	assert_string_equal(f->gpus.warnings.v[2], w);
	free(w);
}

static void three_gpus(struct fixture *f)
{
	node(f->sysfs, 0, 0, 0, 0);
	node(f->sysfs, 1, 90402, 0, 0xaaaa);
	node(f->sysfs, 2, 90500, 0, 0xbbbb);
	node(f->sysfs, 3, 120500, 0, 0xcccc);
}

static void test_rocr_visible(void **state)
{
	struct fixture *f = *state;
	three_gpus(f);
	setenv("ROCR_VISIBLE_DEVICES", "2, 0", 1);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_int_equal(f->gpus.nr, 3);
	assert_int_equal(f->gpus.nvisible, 2);
	assert_int_equal(f->gpus.visible[0], 2);
	assert_int_equal(f->gpus.visible[1], 0);
	assert_int_equal(f->gpus.gpu[1].visible_rank, -1);
	assert_int_equal(f->gpus.gpu[2].visible_rank, 0);
	assert_string_equal(f->gpus.visible_var, "ROCR_VISIBLE_DEVICES");
	assert_int_equal(f->gpus.warnings.nr, 0);
}

static void test_uuid_and_hip(void **state)
{
	struct fixture *f = *state;
	three_gpus(f);
	setenv("ROCR_VISIBLE_DEVICES", "GPU-000000000000cccc,1", 1);
	/* HIP indexes what ROCr left: its 1 is ROCr's second entry, GPU 1. */
	setenv("HIP_VISIBLE_DEVICES", "1", 1);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_int_equal(f->gpus.nvisible, 1);
	assert_int_equal(f->gpus.visible[0], 1);
	assert_string_equal(f->gpus.visible_var, "ROCR_VISIBLE_DEVICES and HIP_VISIBLE_DEVICES");
}

static void test_visible_bad_entry(void **state)
{
	struct fixture *f = *state;
	three_gpus(f);
	setenv("ROCR_VISIBLE_DEVICES", "1,7,0", 1);
	assert_int_equal(kfd_scan(f->sysfs, &f->gpus), 0);
	assert_int_equal(f->gpus.nvisible, 1);
	assert_int_equal(f->gpus.visible[0], 1);
	assert_int_equal(f->gpus.warnings.nr, 1);
	assert_string_equal(f->gpus.warnings.v[0],
	                    "ROCR_VISIBLE_DEVICES=1,7,0: entry '7' matches no GPU; it and the "
	                    "entries after it are ignored");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
	    T(test_no_kfd),        T(test_cpu_only),          T(test_one_gfx942),
	    T(test_gfx942_gfx950), T(test_gfx1250_steppings), T(test_numeric_node_order),
	    T(test_unknown_gfx),   T(test_malformed),         T(test_rocr_visible),
	    T(test_uuid_and_hip),  T(test_visible_bad_entry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
