/* Concurrency: 8 threads rewriting at once give exactly the bytes of a serial run. */
#include "test_rewrite_util.h"

#include <pthread.h>

#define THREADS 8
#define ROUNDS  4

static const char *const names[] = {"hello",   "multi",          "prologue", "sgpr105",
                                    "dynamic", "hello_stripped", "gfx1251",  "sgpr109"};
#define NF (sizeof(names) / sizeof(names[0]))

struct expect {
	struct blob in;
	enum hs_status st;
	struct hs_rewrite_output first, second; /* one pass, and a pass over the first */
	char msg[512];
};
static struct expect expected[NF];

static void *worker(void *arg)
{
	size_t id = (size_t)arg;
	long bad = 0;

	for (size_t r = 0; r < ROUNDS; r++) {
		for (size_t k = 0; k < NF; k++) {
			size_t f =
			    (k + id) % NF; /* different threads on different inputs at once */
			struct expect *e = &expected[f];
			HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
			struct hs_rewrite_output o = {0}, o2 = {0};
			enum hs_status st =
			    hs_rewrite(e->in.data, e->in.size, NULL, NULL, &opts, &o, NULL);
			if (st != e->st || (st && strcmp(hs_last_error(), e->msg))) {
				bad++;
				continue;
			}
			if (st)
				continue;
			if (o.size != e->first.size || memcmp(o.data, e->first.data, o.size))
				bad++;
			/* The second pass runs the MC decoder (stub recognition) concurrently. */
			if (hs_rewrite(o.data, o.size, NULL, NULL, &opts, &o2, NULL) != HS_OK ||
			    o2.size != e->second.size || memcmp(o2.data, e->second.data, o2.size))
				bad++;
			hs_rewrite_output_release(&o);
			hs_rewrite_output_release(&o2);
		}
	}
	return (void *)bad;
}

static void test_parallel_equals_serial(void **state)
{
	pthread_t th[THREADS];

	for (size_t f = 0; f < NF; f++) {
		struct expect *e = &expected[f];
		HS_OPTS(hs_rewrite_opts, opts, .flags = HS_REWRITE_ENTRY_DEFAULT);
		e->in = fixture(names[f]);
		e->st = hs_rewrite(e->in.data, e->in.size, NULL, NULL, &opts, &e->first, NULL);
		snprintf(e->msg, sizeof(e->msg), "%s", hs_last_error());
		if (e->st == HS_OK)
			assert_int_equal(hs_rewrite(e->first.data, e->first.size, NULL, NULL, &opts,
			                            &e->second, NULL),
			                 HS_OK);
	}
	for (size_t i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&th[i], NULL, worker, (void *)i), 0);
	for (size_t i = 0; i < THREADS; i++) {
		void *bad;
		assert_int_equal(pthread_join(th[i], &bad), 0);
		assert_int_equal((long)bad, 0);
	}
	for (size_t f = 0; f < NF; f++) {
		hs_rewrite_output_release(&expected[f].first);
		hs_rewrite_output_release(&expected[f].second);
		free(expected[f].in.data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parallel_equals_serial),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
