/*
 * Parallel translation (amdgcn.h): how an object's kernels are cut into chunks, and how many
 * threads translate them.  The cut depends on the kernel count alone, never on the number of
 * threads, so the linked object is the same bytes whatever HSA_HOTSWAP_JOBS says
 * (docs/translate.md, "Parallel translation").
 */
#include "amdgcn.h"

#include "hotswap_contract.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

/* An object is cut only when every chunk would hold at least this many kernels: below that,
 * a chunk's own target machine and pass set-up cost more than a second thread saves. */
#define CHUNK_KERNELS_MIN 8
/* At most this many chunks (and so relocatable objects for one link). */
#define CHUNKS_MAX 16
/* The most threads HSA_HOTSWAP_JOBS may ask for. */
#define JOBS_MAX 256
/* LLVM's code generation recurses deeply on large functions: the workers get the stack a
 * main thread usually has, not a smaller default. */
#define WORKER_STACK (64u << 20)

size_t amdgcn_chunk_count(size_t nkernels)
{
	size_t n = nkernels / CHUNK_KERNELS_MIN;

	if (n < 2)
		return 1;
	return n < CHUNKS_MAX ? n : CHUNKS_MAX;
}

void amdgcn_chunk_range(size_t nkernels, size_t nchunks, size_t c, size_t *first, size_t *count)
{
	size_t lo = nkernels * c / nchunks, hi = nkernels * (c + 1) / nchunks;

	*first = lo;
	*count = hi - lo;
}

unsigned amdgcn_jobs(void)
{
	const char *v = getenv(HOTSWAP_ENV_JOBS);
	cpu_set_t set;
	char *end;

	if (v && *v >= '1' && *v <= '9') {
		unsigned long n;
		errno = 0;
		n = strtoul(v, &end, 10);
		if (!errno && !*end && n <= JOBS_MAX)
			return (unsigned)n;
	}
	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return (unsigned)CPU_COUNT(&set);
	return 1;
}

struct chunk_run {
	size_t n;
	void (*fn)(void *ctx, size_t c);
	void *ctx;
	pthread_mutex_t lock;
	size_t next; /* the next chunk nobody has taken, under lock */
};

/* Takes chunks until none is left. */
static void *worker(void *arg)
{
	struct chunk_run *r = arg;

	for (;;) {
		size_t c;
		pthread_mutex_lock(&r->lock);
		c = r->next < r->n ? r->next++ : r->n;
		pthread_mutex_unlock(&r->lock);
		if (c == r->n)
			return NULL;
		r->fn(r->ctx, c);
	}
}

void amdgcn_run_chunks(size_t n, unsigned jobs, void (*fn)(void *ctx, size_t c), void *ctx)
{
	struct chunk_run r = {.n = n, .fn = fn, .ctx = ctx};
	pthread_t threads[JOBS_MAX];
	pthread_attr_t attr;
	size_t started = 0, want;

	want = jobs < n ? jobs : n;
	if (want > JOBS_MAX)
		want = JOBS_MAX;
	pthread_mutex_init(&r.lock, NULL);
	/* The calling thread is one of the workers: one job starts no thread at all. */
	if (want > 1 && !pthread_attr_init(&attr)) {
		pthread_attr_setstacksize(&attr, WORKER_STACK);
		/* A thread that cannot start leaves its share to the others. */
		while (started + 1 < want && !pthread_create(&threads[started], &attr, worker, &r))
			started++;
		pthread_attr_destroy(&attr);
	}
	worker(&r);
	for (size_t i = 0; i < started; i++)
		pthread_join(threads[i], NULL);
	pthread_mutex_destroy(&r.lock);
}
