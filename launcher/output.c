/* Printing JSON results. */
#include "output.h"

#include "command.h"
#include "msg.h"
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void output_json(cJSON *doc)
{
	char *text = cJSON_Print(doc);
	if (text) {
		fputs(text, stdout);
		fputc('\n', stdout);
		free(text);
	}
	cJSON_Delete(doc);
}

void print_text(const char *fmt, ...)
{
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&raw, fmt, ap);
	va_end(ap);
	msg_escape(&text, raw.buf);
	fputs(text.buf, stdout);
	strbuf_release(&raw);
	strbuf_release(&text);
}

int exit_code(int ret)
{
	return ret < 0 ? EXIT_ERROR : ret;
}
