/* The in-process translation cache: single flight, hits, failures never cached as successes. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cache.h"

static atomic_int calls;
static atomic_int fail_next; /* 0: succeed, else the producer's failure code */

static int produce(void *ctx, struct hsi_blob *out, char *err, size_t err_size)
{
	const char *text = ctx;
	atomic_fetch_add(&calls, 1);
	usleep(20000); /* long enough for every other thread to join the flight */
	if (atomic_load(&fail_next)) {
		snprintf(err, err_size, "deterministic failure");
		return atomic_load(&fail_next);
	}
	out->data = strdup(text);
	out->size = strlen(text) + 1;
	out->kernels = 3;
	return 0;
}

static uint8_t key_a[HSI_KEY_LEN] = {1, 2, 3};
static uint8_t key_b[HSI_KEY_LEN] = {1, 2, 4};

struct result {
	enum hsi_cache_outcome oc;
	struct hsi_blob blob;
	char err[128];
};

static void *getter(void *arg)
{
	struct result *r = arg;
	r->oc = hsi_cache_get(key_a, produce, "payload", &r->blob, r->err, sizeof(r->err));
	return NULL;
}

static int reset(void **state)
{
	hsi_cache_reset();
	atomic_store(&calls, 0);
	atomic_store(&fail_next, 0);
	return 0;
}

static void run_flight(struct result *res, int n)
{
	pthread_t t[16];
	for (int i = 0; i < n; i++)
		assert_int_equal(pthread_create(&t[i], NULL, getter, &res[i]), 0);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static void test_single_flight(void **state)
{
	struct result res[16];
	int produced = 0;

	memset(res, 0, sizeof(res));
	run_flight(res, 16);
	assert_int_equal(atomic_load(&calls), 1);
	for (int i = 0; i < 16; i++) {
		assert_int_not_equal(res[i].oc, HSI_CACHE_FAILED);
		produced += res[i].oc == HSI_CACHE_PRODUCED;
		assert_ptr_equal(res[i].blob.data, res[0].blob.data);
		assert_int_equal(res[i].blob.kernels, 3);
	}
	assert_int_equal(produced, 1);
	assert_int_equal(hsi_cache_size(), 1);
}

static void test_hit_and_distinct_keys(void **state)
{
	struct hsi_blob a, a2, b;
	char err[64];
	assert_int_equal(hsi_cache_get(key_a, produce, "A", &a, err, sizeof(err)),
	                 HSI_CACHE_PRODUCED);
	assert_int_equal(hsi_cache_get(key_a, produce, "ignored", &a2, err, sizeof(err)),
	                 HSI_CACHE_HIT);
	assert_ptr_equal(a.data, a2.data);
	assert_int_equal(hsi_cache_get(key_b, produce, "B", &b, err, sizeof(err)),
	                 HSI_CACHE_PRODUCED);
	assert_string_equal(b.data, "B");
	assert_int_equal(atomic_load(&calls), 2);
}

static void test_failure_not_cached(void **state)
{
	struct result res[8];
	struct hsi_blob blob;
	char err[64];

	atomic_store(&fail_next, HSI_PRODUCE_FAILED);
	memset(res, 0, sizeof(res));
	run_flight(res, 8);
	/* Waiters of the failed flight share its failure; nothing is stored. */
	for (int i = 0; i < 8; i++) {
		assert_int_equal(res[i].oc, HSI_CACHE_FAILED);
		assert_string_equal(res[i].err, "deterministic failure");
	}
	assert_true(atomic_load(&calls) >= 1);
	assert_int_equal(hsi_cache_size(), 0);
	/* The next load tries again and can succeed. */
	atomic_store(&fail_next, 0);
	atomic_store(&calls, 0);
	assert_int_equal(hsi_cache_get(key_a, produce, "ok", &blob, err, sizeof(err)),
	                 HSI_CACHE_PRODUCED);
	assert_int_equal(atomic_load(&calls), 1);
}

/* An input that can never translate runs the producer once per process, not once per load. */
static void test_rejection_remembered(void **state)
{
	struct result res[16];
	struct hsi_blob blob;
	char err[64];

	atomic_store(&fail_next, HSI_PRODUCE_REJECTED);
	memset(res, 0, sizeof(res));
	run_flight(res, 16);
	for (int round = 0; round < 3; round++)
		run_flight(res, 16);
	for (int i = 0; i < 16; i++) {
		assert_int_equal(res[i].oc, HSI_CACHE_FAILED);
		assert_string_equal(res[i].err, "deterministic failure");
	}
	assert_int_equal(atomic_load(&calls), 1);
	assert_int_equal(hsi_cache_rejected(), 1);
	assert_int_equal(hsi_cache_size(), 0);
	/* Even a producer that would succeed now is not asked again for that key... */
	atomic_store(&fail_next, 0);
	assert_int_equal(hsi_cache_get(key_a, produce, "ok", &blob, err, sizeof(err)),
	                 HSI_CACHE_FAILED);
	assert_int_equal(atomic_load(&calls), 1);
	/* ...while other keys are. */
	assert_int_equal(hsi_cache_get(key_b, produce, "B", &blob, err, sizeof(err)),
	                 HSI_CACHE_PRODUCED);
	assert_int_equal(atomic_load(&calls), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_single_flight, reset),
	    cmocka_unit_test_setup(test_hit_and_distinct_keys, reset),
	    cmocka_unit_test_setup(test_failure_not_cached, reset),
	    cmocka_unit_test_setup(test_rejection_remembered, reset),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);
	hsi_cache_reset();
	return rc;
}
