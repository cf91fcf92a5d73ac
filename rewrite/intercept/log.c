/* stderr logging for code that runs inside someone else's process. */
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "truthy.h"

static pthread_once_t verbose_once = PTHREAD_ONCE_INIT;
static bool verbose;

static void read_verbose(void)
{
	verbose = env_flag("HSA_HOTSWAP_VERBOSE");
}

static bool hsi_verbose(void)
{
	pthread_once(&verbose_once, read_verbose);
	return verbose;
}

/*
 * One formatted line, written with a single write(2) so lines from
 * concurrent loads never interleave, and without touching the host's
 * stdio buffers or errno.
 */
__attribute__((format(printf, 2, 0))) static void emit(const char *prefix, const char *fmt,
                                                       va_list ap)
{
	char line[1024];
	int saved = errno;
	int n = snprintf(line, sizeof(line), "%s", prefix);
	if (n < 0)
		n = 0;
	int m = vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
	if (len > sizeof(line) - 2)
		len = sizeof(line) - 2;
	line[len++] = '\n';
	ssize_t w = write(STDERR_FILENO, line, len);
	(void)w;
	errno = saved;
}

void hsi_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("hotswap: ", fmt, ap);
	va_end(ap);
}

void hsi_info(const char *fmt, ...)
{
	va_list ap;
	if (!hsi_verbose())
		return;
	va_start(ap, fmt);
	emit("hotswap: ", fmt, ap);
	va_end(ap);
}

void hsi_raw(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("", fmt, ap);
	va_end(ap);
}
