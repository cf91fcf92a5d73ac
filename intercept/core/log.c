/* stderr logging for code that runs inside someone else's process. */
#include "log.h"

#include <pthread.h>
#include <stdarg.h>

#include "hotswap_contract.h"
#include "stderr_line.h"
#include "truthy.h"

static pthread_once_t verbose_once = PTHREAD_ONCE_INIT;
static bool verbose;

static void read_verbose(void)
{
	verbose = env_flag(HOTSWAP_ENV_VERBOSE);
}

static bool hsi_verbose(void)
{
	pthread_once(&verbose_once, read_verbose);
	return verbose;
}

void hsi_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stderr_line_v("hotswap: ", fmt, ap);
	va_end(ap);
}

void hsi_info(const char *fmt, ...)
{
	va_list ap;
	if (!hsi_verbose())
		return;
	va_start(ap, fmt);
	stderr_line_v("hotswap: ", fmt, ap);
	va_end(ap);
}

void hsi_raw(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	stderr_line_v("", fmt, ap);
	va_end(ap);
}

void hsi_rewriter_log(enum hs_log_level level, const char *msg, void *ctx)
{
	(void)ctx;
	if (level == HS_LOG_WARN)
		hsi_warn("warning: %s", msg);
	else if (level == HS_LOG_INFO)
		hsi_info("%s", msg);
}
