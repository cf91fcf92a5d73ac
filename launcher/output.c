/* Printing JSON results. */
#include "output.h"

#include "command.h"
#include "msg.h"
#include "refusal.h"
#include "strbuf.h"

#include <inttypes.h>
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

void refusal_json(cJSON *o, const struct refusal *r)
{
	char address[24];

	snprintf(address, sizeof(address), "0x%" PRIx64, r->address);
	if (!cJSON_HasObjectItem(o, "kernel"))
		cJSON_AddStringToObject(o, "kernel", r->kernel ? r->kernel : "");
	cJSON_AddStringToObject(o, "reason", r->reason ? r->reason : "");
	cJSON_AddStringToObject(o, "reason_text", r->reason_text ? r->reason_text : "");
	cJSON_AddStringToObject(o, "offset", address);
	cJSON_AddStringToObject(o, "mnemonic", r->mnemonic ? r->mnemonic : "");
	cJSON_AddStringToObject(o, "detail", r->detail ? r->detail : "");
}

static FILE *text_stream;

void print_text_on_stderr(void)
{
	text_stream = stderr;
}

void print_text(const char *fmt, ...)
{
	struct strbuf raw = STRBUF_INIT, text = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(&raw, fmt, ap);
	va_end(ap);
	msg_escape(&text, raw.buf);
	fputs(text.buf, text_stream ? text_stream : stdout);
	strbuf_release(&raw);
	strbuf_release(&text);
}

int exit_code(int ret)
{
	return ret < 0 ? EXIT_ERROR : ret;
}
