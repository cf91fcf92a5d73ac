/* The library's one log callback: warnings to stderr by default, info when HSA_HOTSWAP_VERBOSE. */
#include "hs_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "hotswap_contract.h"
#include "truthy.h"

static void default_log(enum hs_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == HS_LOG_WARN)
		fprintf(stderr, "hotswap: warning: %s\n", msg);
	else
		fprintf(stderr, "hotswap: %s\n", msg);
}

/* The callback and its context change together, so one mutex guards both. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static hs_log_fn log_fn = default_log;
static void *log_ctx;

static pthread_once_t verbose_once = PTHREAD_ONCE_INIT;
static atomic_int verbose_level;

/* Read once: the environment of a host process may change under us (setenv is not thread-safe). */
static void read_verbose(void)
{
	atomic_store(&verbose_level,
	             env_flag(HOTSWAP_ENV_VERBOSE) ? (int)HS_LOG_INFO : (int)HS_LOG_WARN);
}

HS_API hs_log_fn hs_set_log_fn(hs_log_fn fn, void *ctx)
{
	hs_log_fn old;

	pthread_mutex_lock(&log_lock);
	old = log_fn;
	log_fn = fn ? fn : default_log;
	log_ctx = fn ? ctx : NULL;
	pthread_mutex_unlock(&log_lock);
	return old == default_log ? NULL : old;
}

void hs_log(enum hs_log_level level, const char *fmt, ...)
{
	int saved = errno; /* we run inside someone else's process: never disturb errno */
	char msg[1024];
	hs_log_fn fn;
	void *ctx;
	va_list ap;

	pthread_once(&verbose_once, read_verbose);
	pthread_mutex_lock(&log_lock);
	fn = log_fn;
	ctx = log_ctx;
	pthread_mutex_unlock(&log_lock);
	/* A caller's own callback sees every level and filters for itself. */
	if (fn == default_log && (int)level > atomic_load(&verbose_level))
		goto out;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(level, msg, ctx);
out:
	errno = saved;
}
