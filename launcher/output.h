/* Data output on stdout: one JSON document under --json, text otherwise. */
#ifndef MIRAGE_OUTPUT_H
#define MIRAGE_OUTPUT_H

#include <cjson/cJSON.h>

/* Prints doc as pretty JSON on stdout and frees it. */
void output_json(cJSON *doc);
/* Maps an exec-style return (-1 from error()) to an exit code. */
int exit_code(int ret);

#endif
