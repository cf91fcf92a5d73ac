/* The calling thread's last error message and the status names of the public API. */
#include "hs_internal.h"

#include <errno.h>
#include <stdio.h>

/* Thread-local so concurrent calls never see each other's messages. */
static _Thread_local char last_error[512];

enum hs_status hs_fail(enum hs_status status, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	hs_log(HS_LOG_INFO, "%s", last_error);
	errno = saved;
	return status;
}

void hs_clear_error(void)
{
	last_error[0] = '\0';
}

HS_API const char *hs_last_error(void)
{
	return last_error;
}

HS_API const char *hs_status_str(enum hs_status status)
{
	switch (status) {
	case HS_OK:
		return "OK";
	case HS_INVALID_ARGUMENT:
		return "INVALID_ARGUMENT";
	case HS_ERROR:
		return "ERROR";
	case HS_OUT_OF_RESOURCES:
		return "OUT_OF_RESOURCES";
	}
	return "UNKNOWN";
}

HS_API const char *hs_version(void)
{
	return HS_REWRITE_VERSION_STRING;
}
