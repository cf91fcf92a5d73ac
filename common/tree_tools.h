/*
 * The HotSwap tree's tools (the llvm-tools/ rows of common/hotswap_contract.h's table): the one
 * rule for whether a tool can run, which discovery's tree check and the translator's linker
 * search both apply, and where a tree's tool lies as seen from one of mirage's libraries
 * (docs/discovery.md, docs/translate.md).  libc only, never allocates, never prints: the
 * translator runs inside other programs.
 */
#ifndef MIRAGE_TREE_TOOLS_H
#define MIRAGE_TREE_TOOLS_H

#include <stddef.h>

#include "hotswap_contract.h"

enum tree_tool_state {
	TREE_TOOL_OK,
	TREE_TOOL_MISSING,        /* no such file, or not a regular file */
	TREE_TOOL_NOT_EXECUTABLE, /* a regular file we may not execute */
};

/* Whether the file at path is a tool that can run: a regular file we may execute. */
enum tree_tool_state tree_tool_state(const char *path);

/*
 * The tool (a HOTSWAP_PART_TOOL row, such as HOTSWAP_PART_LD_LLD) of the tree staged with the
 * library in lib_dir: <lib_dir>/hotswap/ when installed (<prefix>/lib/mirage/hotswap beside
 * <prefix>/lib/mirage), then <lib_dir>/../../hotswap/ in a build tree (<build>/hotswap, the
 * library in <build>/lib/mirage).  The first that is TREE_TOOL_OK into out: 0; else -1.
 */
int tree_tool_beside(const char *lib_dir, enum hotswap_part_id tool, char *out, size_t size);

#endif
