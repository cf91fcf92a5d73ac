/*
 * `mirage emulate --init CODE_OBJECT [--kernel K] [-o LAUNCH.json]`: a launch file for one
 * kernel, written from its metadata .args by the rule docs/emulate.md states, ready to edit and
 * run, so that nobody reads the source to write one.  The metadata comes from the tree's
 * rewriter (hs_inspect), loaded for this command only.
 */
#ifndef MIRAGE_EMULATE_INIT_H
#define MIRAGE_EMULATE_INIT_H

#include "command.h"

/* kernel NULL: the object's only kernel; out NULL: "<kernel>.launch.json".  An exit code. */
int emulate_init(const struct cmd_ctx *ctx, const char *code_object, const char *kernel,
                 const char *out);

#endif
