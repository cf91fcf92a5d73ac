/* The calling thread's last error message and the status names of the public API. */
#include "hs_internal.h"

#include <errno.h>
#include <stdio.h>

/* Thread-local so concurrent calls never see each other's messages. */
static _Thread_local char last_error[512];
static _Thread_local enum hs_reason last_reason;

/* The reason a failure has when its site names none: what its status usually means. */
static enum hs_reason reason_of(enum hs_status status)
{
	switch (status) {
	case HS_OK:
		return HS_REASON_NONE;
	case HS_INVALID_ARGUMENT:
		return HS_REASON_BAD_OBJECT;
	case HS_ERROR:
		return HS_REASON_CANNOT_APPLY;
	case HS_OUT_OF_RESOURCES:
		return HS_REASON_NO_RESOURCES;
	}
	return HS_REASON_CANNOT_APPLY;
}

HS_PRINTF(3, 0)
static enum hs_status fail_v(enum hs_status status, enum hs_reason reason, const char *fmt,
                             va_list ap)
{
	int saved = errno;

	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	last_reason = reason;
	hs_log(HS_LOG_INFO, "%s", last_error);
	errno = saved;
	return status;
}

enum hs_status hs_fail(enum hs_status status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	status = fail_v(status, reason_of(status), fmt, ap);
	va_end(ap);
	return status;
}

enum hs_status hs_fail_why(enum hs_status status, enum hs_reason reason, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	status = fail_v(status, reason, fmt, ap);
	va_end(ap);
	return status;
}

enum hs_reason hs_last_reason(void)
{
	return last_reason;
}

void hs_clear_error(void)
{
	last_error[0] = '\0';
	last_reason = HS_REASON_NONE;
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
