/* What the `mirage cache` subcommands share (cmd_cache.c, cmd_cache_warm.c): --dir and the root. */
#ifndef MIRAGE_CACHE_CMD_H
#define MIRAGE_CACHE_CMD_H

#include <stdbool.h>

#include "cache_disk.h"
#include "command.h"

/* Row 0 of every subcommand's option table: the cache root. */
#define CACHE_DIR 0
#define CACHE_DIR_OPT                                                                              \
	[CACHE_DIR] = {.name = "dir",                                                              \
	               .type = OPT_STRING,                                                         \
	               .arg_name = "DIR",                                                          \
	               .help = "the cache root (default: the one `mirage paths` shows)"}

/* The root: --dir, else the default; NULL when there is none, with *rc the exit (said). */
char *cache_cmd_root(const struct cmd_args *a, int *rc);
/*
 * Opens the root under the cache's trust rules: 1 open, 0 when it does not exist and create
 * is false (an empty cache), -1 said (with the hint an untrusted root gets).
 */
int cache_cmd_open(const char *root, bool create, struct hsi_disk *disk);

#endif
