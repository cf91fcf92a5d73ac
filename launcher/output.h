/* Data output on stdout: one JSON document under --json, text otherwise. */
#ifndef MIRAGE_OUTPUT_H
#define MIRAGE_OUTPUT_H

#include <cjson/cJSON.h>

struct refusal;

/* Prints doc as pretty JSON on stdout and frees it. */
void output_json(cJSON *doc);
/*
 * printf for human text on stdout that quotes what came from outside (kernel names, paths):
 * the formatted text goes through msg_escape, so only its newlines reach the terminal as
 * control bytes.  Put layout in the format with spaces, never tabs.
 */
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Sends print_text() to stderr from now on: for a command whose data goes to stdout
 * (`mirage rewrite -o -`), so that the report does not end up inside the data.
 */
void print_text_on_stderr(void);
/*
 * A refused kernel's fields added to o, the one JSON shape of a refusal (mirage raise --json,
 * mirage rewrite --json): "kernel" (unless o has it already), "reason", "reason_text",
 * "offset" (the instruction's address, "0x1a40"), "mnemonic", "detail"; absent text is "".
 */
void refusal_json(cJSON *o, const struct refusal *r);
/* Maps an exec-style return (-1 from error()) to an exit code. */
int exit_code(int ret);

#endif
