/* The launcher's one path for user-facing messages: prefix, --json errors, colour. */
#include "msg.h"

#include "diag.h"
#include "stderr_line.h"
#include "strbuf.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static bool json_mode;
static int verbose_level;
/* Under --json, errors are collected and printed as one document at exit. */
static cJSON *json_errors;

static const char *color_when;

void msg_setup(bool json, const char *color)
{
	json_mode = json;
	color_when = color;
}

bool msg_color_on(int fd)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (json_mode || (color_when && !strcmp(color_when, "never")))
		return false;
	if (color_when && !strcmp(color_when, "always"))
		return true;
	return isatty(fd) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
}

void msg_set_verbose(int level)
{
	verbose_level = level;
}

const char *color_ok(void)
{
	return "\033[32m";
}

const char *color_warn(void)
{
	return "\033[33m";
}

const char *color_fail(void)
{
	return "\033[1;31m";
}

const char *color_reset(void)
{
	return "\033[0m";
}

static void json_add(const char *key, const char *text)
{
	cJSON *last;
	if (!json_errors)
		json_errors = cJSON_CreateArray();
	if (!strcmp(key, "error")) {
		last = cJSON_CreateObject();
		cJSON_AddStringToObject(last, "error", text);
		cJSON_AddItemToArray(json_errors, last);
		return;
	}
	last = cJSON_GetArrayItem(json_errors, cJSON_GetArraySize(json_errors) - 1);
	if (!last) {
		last = cJSON_CreateObject();
		cJSON_AddItemToArray(json_errors, last);
	}
	cJSON_DeleteItemFromObject(last, key);
	cJSON_AddStringToObject(last, key, text);
}

void msg_escape(struct strbuf *out, const char *text)
{
	/* The longest escape is 4 bytes per input byte (\xHH), so one buffer always fits a line. */
	char *line = xmalloc(strlen(text) + 1), *esc = xmalloc(4 * strlen(text) + 1);

	/*
	 * Newlines and backslashes are copied as they are: messages span lines on purpose and
	 * quote a backslash as a character of their own, so the text is readable rather than
	 * reversible; every other control byte is escaped.  Neither is part of a UTF-8 sequence,
	 * so cutting there is safe.
	 */
	for (const char *p = text;; p++) {
		size_t n = strcspn(p, "\n\\");
		memcpy(line, p, n);
		line[n] = '\0';
		strbuf_add(out, esc, stderr_escape(esc, 4 * n + 1, line));
		p += n;
		if (!*p)
			break;
		strbuf_addch(out, *p);
	}
	free(line);
	free(esc);
}

__attribute__((format(printf, 3, 0))) static void
emit(const char *prefix, const char *key, const char *fmt, va_list ap, const char *suffix)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_vaddf(&sb, fmt, ap);
	if (suffix) {
		strbuf_addstr(&sb, ": ");
		strbuf_addstr(&sb, suffix);
	}
	if (json_mode && key) {
		json_add(key, sb.buf); /* cJSON escapes what it prints */
	} else {
		struct strbuf text = STRBUF_INIT;
		msg_escape(&text, sb.buf);
		fflush(stdout);
		fprintf(stderr, "%s%s\n", prefix, text.buf);
		strbuf_release(&text);
	}
	strbuf_release(&sb);
}

int error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("mirage: ", "error", fmt, ap, NULL);
	va_end(ap);
	return -1;
}

int error_errno(const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	va_start(ap, fmt);
	emit("mirage: ", "error", fmt, ap, strerror(saved));
	va_end(ap);
	errno = saved;
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	/* Warnings stay plain text on stderr even under --json: they are not the result. */
	emit("mirage: warning: ", NULL, fmt, ap, NULL);
	va_end(ap);
}

void inform(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("mirage: ", NULL, fmt, ap, NULL);
	va_end(ap);
}

void note(const char *fmt, ...)
{
	va_list ap;
	if (verbose_level < 1)
		return;
	va_start(ap, fmt);
	emit("mirage: ", NULL, fmt, ap, NULL);
	va_end(ap);
}

void hint(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("hint: ", "hint", fmt, ap, NULL);
	va_end(ap);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("mirage: ", "error", fmt, ap, NULL);
	va_end(ap);
	return 2;
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	emit("mirage: ", "error", fmt, ap, NULL);
	va_end(ap);
	msg_finish();
	exit(1);
}

void msg_finish(void)
{
	if (!json_errors)
		return;
	cJSON *doc =
	    cJSON_GetArraySize(json_errors) == 1 ? cJSON_GetArrayItem(json_errors, 0) : json_errors;
	char *text = cJSON_PrintUnformatted(doc);
	if (text) {
		fprintf(stderr, "%s\n", text);
		free(text);
	}
	cJSON_Delete(json_errors);
	json_errors = NULL;
}

int report_diag(struct diag *d, int code)
{
	error("%s", d->msg.buf);
	if (d->hint.len)
		hint("%s", d->hint.buf);
	diag_release(d);
	return code;
}

int ask_yes_no(const char *question)
{
	char line[64];
	struct strbuf q = STRBUF_INIT;
	msg_escape(&q, question); /* it names what it asks about */
	fprintf(stderr, "%s [y/N] ", q.buf);
	strbuf_release(&q);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin))
		return -1;
	line[strcspn(line, "\r\n")] = '\0';
	return !strcasecmp(line, "y") || !strcasecmp(line, "yes");
}
