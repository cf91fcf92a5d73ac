#include "stderr_line.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

void stderr_line_v(const char *prefix, const char *fmt, va_list ap)
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
