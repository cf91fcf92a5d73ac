/* Printing JSON results. */
#include "output.h"

#include "command.h"

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

int exit_code(int ret)
{
	return ret < 0 ? EXIT_ERROR : ret;
}
