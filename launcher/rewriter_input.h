/* What `mirage rewrite` and `mirage inspect` share: the tree's rewriter, and IN from a file or "-".
 */
#ifndef MIRAGE_REWRITER_INPUT_H
#define MIRAGE_REWRITER_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "command.h"
#include "rewriter_dl.h"
#include "strbuf.h"

/* Finds the tree and loads its rewriter into *rw, printing why not; 0 or -1. */
int load_rewriter(const struct cmd_ctx *ctx, struct rewriter_dl *rw);
/* "-" is standard input (IN) or standard output (-o), as for `mirage profile import -`. */
bool is_std_stream(const char *path);
/* How messages name IN or OUT: stream ("<stdin>", "<stdout>") for "-". */
const char *shown_path(const char *path, const char *stream);
/* IN's bytes into *bytes (standard input for "-"), printing why not; 0 or -1. */
int read_input(const char *path, struct strbuf *bytes);

/* An ELF file that is not an AMDGPU code object: a host program or shared library. */
bool is_host_elf(const void *bytes, size_t size);
/*
 * What a fat binary IN is ("an offload bundle", "a HIP program with a .hip_fatbin section"),
 * or NULL for anything else: rewrite takes one code object, inspect takes these too.
 */
const char *fat_binary_kind(const void *bytes, size_t size);

#endif
