/* Data output on stdout: one JSON document under --json, text otherwise. */
#ifndef MIRAGE_OUTPUT_H
#define MIRAGE_OUTPUT_H

#include <cjson/cJSON.h>

/* Prints doc as pretty JSON on stdout and frees it. */
void output_json(cJSON *doc);
/*
 * printf for human text on stdout that quotes what came from outside (kernel names, paths):
 * the formatted text goes through msg_escape, so only its newlines reach the terminal as
 * control bytes.  Put layout in the format with spaces, never tabs.
 */
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Maps an exec-style return (-1 from error()) to an exit code. */
int exit_code(int ret);

#endif
