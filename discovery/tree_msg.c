/* Turns a discovery result into the "not installed" and "incomplete" messages of spec/launcher.md.
 */
#include "hotswap_tree.h"

#include <string.h>

/* The multi-line "not installed" message: every probe with its driver, and the tips. */
static void hotswap_format_not_found(const struct hotswap_tree *tree, struct strbuf *out)
{
	size_t width = 0;

	strbuf_addstr(out,
	              "HotSwap is not installed, or mirage could not find " HOTSWAP_INTERCEPT_LIB
	              ".\nmirage looked in:");
	for (size_t i = 0; i < tree->nprobes; i++)
		if (strlen(tree->probes[i].path) > width)
			width = strlen(tree->probes[i].path);
	for (size_t i = 0; i < tree->nprobes; i++)
		strbuf_addf(out, "\n  - %-*s   (%s)", (int)width, tree->probes[i].path,
		            tree->probes[i].reason);
	if (!tree->nprobes)
		strbuf_addstr(out, "\n  (nowhere: no location applies)");
	strbuf_addstr(
	    out, "\nTip: build it in-tree (cmake -DMIRAGE_BUILD_HOTSWAP=ON), install one with\n"
	         "  `mirage hotswap install URL`, or point HOTSWAP_HOME at a tree root:\n"
	         "  export HOTSWAP_HOME=/abs/path/to/hotswap");
}

static void add_part_line(struct strbuf *out, const struct hotswap_part *part, bool with_path)
{
	strbuf_addf(out, "\n  - %s: %s", part->name, hotswap_part_status_name(part->status));
	if (part->status != PART_MISSING && part->detail)
		strbuf_addf(out, ", %s", part->detail);
	if (with_path)
		strbuf_addf(out, " ('%s')", part->path);
}

void hotswap_format_parts(const struct hotswap_tree *tree, bool with_paths, struct strbuf *out)
{
	switch (tree->flavour) {
	case HOTSWAP_FLAVOUR_NATIVE:
		strbuf_addstr(out,
		              "\nit looks like a native tree (intercept + libhotswap_rewrite.so)");
		break;
	case HOTSWAP_FLAVOUR_REFERENCE:
		strbuf_addstr(
		    out, "\nit looks like a reference tree (intercept + patched ROCr + COMGR)");
		break;
	case HOTSWAP_FLAVOUR_NONE:
		strbuf_addstr(out, "\nit looks like neither flavour: a native tree needs "
		                   "lib/libhotswap_rewrite.so and lib/" HOTSWAP_INTERCEPT_CORE_LIB
		                   ",\na reference tree needs "
		                   "lib/libhsa-runtime64.so[.1] and lib/libamd_comgr.so[.3]");
		break;
	}
	strbuf_addstr(out, "\nbroken or missing parts:");
	for (size_t i = 0; i < tree->nparts; i++)
		if (tree->parts[i].required && tree->parts[i].status != PART_OK)
			add_part_line(out, &tree->parts[i], with_paths);
}

/* The multi-line "incomplete" message: directory, flavour, each broken part. */
static void hotswap_format_incomplete(const struct hotswap_tree *tree, struct strbuf *out)
{
	strbuf_addf(out, "the HotSwap tree at '%s' is incomplete", tree->root ? tree->root : "?");
	if (tree->found_by)
		strbuf_addf(out, " (found through %s)", tree->found_by);
	strbuf_addch(out, ';');
	hotswap_format_parts(tree, true, out);
	strbuf_addstr(
	    out, "\nHotSwap is not one library: the intercept needs its rewriter next to it,"
	         " or the\nworkload would run unemulated."
	         "\nTip: rebuild the in-tree tree (cmake --build build), reinstall it with\n"
	         "  `mirage hotswap install URL`, or point HOTSWAP_HOME at a complete tree root");
}

void hotswap_format_problem(const struct hotswap_tree *tree, struct strbuf *out)
{
	if (!tree->found)
		hotswap_format_not_found(tree, out);
	else if (!tree->complete)
		hotswap_format_incomplete(tree, out);
	strbuf_rtrim(out); /* callers embed it in a message of their own */
}
